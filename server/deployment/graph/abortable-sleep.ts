/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. Zero (or
 * less) takes no time: a turn of the event loop (setImmediate), as an instant I/O answer would,
 * where a 0 ms timer would wait at least a millisecond (Node clamps timers to 1 ms), time the
 * rollback bench's "model delay 0" would count as deployment overhead.
 */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const cancel = ms > 0 ? clearTimeout : clearImmediate;
    const timer = ms > 0 ? setTimeout(done, ms) : setImmediate(done);
    const onAbort = () => {
      cancel(timer as never);
      reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('Aborted');
}
