/**
 * Resolves at `wake` (a channel message or a run-start event), after `ms` (a look again), or when
 * `signal` aborts.
 */
export function pause(ms: number, wake: Promise<unknown>, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
    void wake.then(done);
  });
}
