import { FlowCancelledError } from '@/features/playground/model/flow-error';

/**
 * Settles with `promise`, or rejects with FlowCancelledError as soon as `signal` aborts. The SDK
 * retries some failed attempts even after an abort; this makes Cancel take effect at once.
 */
export function abortable<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(new FlowCancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new FlowCancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new FlowCancelledError() : error);
      },
    );
  });
}

/** Waits `ms`, or rejects with FlowCancelledError when `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return abortable(signal, new Promise<void>((resolve) => setTimeout(resolve, ms)));
}
