import type { StreamEnd } from '@/features/playground/model/flow-types';

/** One SSE event as the SDK's `runs.stream` yields it. */
export interface StreamPart {
  event: string;
  data: unknown;
}

export interface StreamedRun {
  /** The run id, from the stream's first `metadata` event (an enqueued run's comes when it starts). */
  started: Promise<string>;
  /** How the stream closed; rejects when the request fails (an HTTP error, a network error, abort). */
  ended: Promise<StreamEnd>;
}

interface Handlers {
  onValues: (values: unknown) => void;
}

function readRunId(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('run_id' in data)) return null;
  return typeof data.run_id === 'string' ? data.run_id : null;
}

function readError(data: unknown): StreamEnd {
  const record = typeof data === 'object' && data !== null ? data : {};
  const field = (name: string) =>
    name in record ? String((record as Record<string, unknown>)[name]) : '';
  return { kind: 'error', error: field('error') || 'Error', message: field('message') };
}

/**
 * Reads a run's stream in the background: `started` settles at its `metadata` event, `ended` when
 * the stream closes. A request refused before streaming (404, 409...) rejects both.
 */
export function readRunStream(stream: AsyncIterable<StreamPart>, handlers: Handlers): StreamedRun {
  let resolveStarted: (runId: string) => void = () => undefined;
  let rejectStarted: (error: unknown) => void = () => undefined;
  const started = new Promise<string>((resolve, reject) => {
    resolveStarted = resolve;
    rejectStarted = reject;
  });
  const ended = (async (): Promise<StreamEnd> => {
    let end: StreamEnd = { kind: 'closed' };
    try {
      for await (const part of stream) {
        if (part.event === 'metadata') {
          const runId = readRunId(part.data);
          if (runId) resolveStarted(runId);
        } else if (part.event === 'values') {
          handlers.onValues(part.data);
        } else if (part.event === 'error') {
          end = readError(part.data);
        }
      }
    } catch (error) {
      rejectStarted(error);
      throw error;
    }
    rejectStarted(new Error('The run stream closed before the run started.'));
    return end;
  })();
  // Callers await these only on some paths: a rejection nobody awaits must not be reported.
  started.catch(() => undefined);
  ended.catch(() => undefined);
  return { started, ended };
}
