import { setImmediate, setTimeout } from 'node:timers/promises';

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. Zero (or
 * less) takes no time: a turn of the event loop (setImmediate), as an instant I/O answer would,
 * where a 0 ms timer would wait at least a millisecond (Node clamps timers to 1 ms), time the
 * rollback bench's "model delay 0" would count as deployment overhead.
 */
export async function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await (ms > 0 ? setTimeout(ms, undefined, { signal }) : setImmediate(undefined, { signal }));
  } catch (error) {
    // Node's timers reject with an AbortError; the run's nodes see why it stopped.
    if (signal?.aborted) throw abortReason(signal);
    throw error;
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('Aborted');
}
