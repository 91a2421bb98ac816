/** The call of the flow that failed: the same status means different things at each. */
export type FlowStage =
  'thread-create' | 'run1-create' | 'run2-create' | 'run-join' | 'state-read' | 'run1-lookup';

/** A failure of one SDK call of the flow, with the stage it happened at. */
export class FlowError extends Error {
  override name = 'FlowError';

  constructor(
    readonly stage: FlowStage,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** The user pressed Cancel (or left the page) while the flow ran. */
export class FlowCancelledError extends Error {
  override name = 'FlowCancelledError';

  constructor() {
    super('The flow was cancelled.');
  }
}

/** A non-2xx answer as the SDK raises it (its HTTPError class is not exported: duck-typed). */
export interface HttpFailure {
  status: number;
  message: string;
}

function readDetail(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'detail' in parsed) {
      const { detail } = parsed;
      return typeof detail === 'string' ? detail : JSON.stringify(detail);
    }
  } catch {
    // Not JSON: the body text itself is the best message there is.
  }
  return text;
}

/** The status and the server's `detail` of an SDK HTTP error; null for any other error. */
export function readHttpFailure(error: unknown): HttpFailure | null {
  if (typeof error !== 'object' || error === null || !('status' in error)) return null;
  const { status } = error;
  if (typeof status !== 'number') return null;
  const text = 'text' in error && typeof error.text === 'string' ? error.text : '';
  const message = readDetail(text).trim();
  return { status, message: message || `The deployment answered ${status}.` };
}

/** A request that never got an answer: network down, DNS, refused connection or CORS. */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConnectionError') return true;
  return /failed to fetch|fetch failed|networkerror|load failed/i.test(error.message);
}
