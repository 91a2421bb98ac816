import { describeDetail, readErrorDetail } from '@/lib/http-error';
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

/** The status and the server's `detail` of an SDK HTTP error; null for any other error. */
export function readHttpFailure(error: unknown): HttpFailure | null {
  if (typeof error !== 'object' || error === null || !('status' in error)) return null;
  const { status } = error;
  if (typeof status !== 'number') return null;
  const text = 'text' in error && typeof error.text === 'string' ? error.text : '';
  const detail = readErrorDetail(text);
  const message = detail === '' || detail === null ? '' : describeDetail(status, detail).trim();
  return { status, message: message || `The deployment answered ${status}.` };
}

/** A request that never got an answer: network down, DNS, refused connection or CORS. */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConnectionError') return true;
  return /failed to fetch|fetch failed|networkerror|load failed/i.test(error.message);
}
