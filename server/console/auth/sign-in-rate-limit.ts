/** The answer to one sign-in attempt: go on, or wait this many seconds. */
export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SignInRateLimit {
  /** Counts one attempt from `client` at `nowMs`. */
  attempt(client: string, nowMs: number): RateVerdict;
}

const WINDOW_MS = 60_000;
/** Past this many clients, windows that ended are dropped before adding one. */
const SWEEP_AT = 10_000;

/**
 * At most `perMinute` sign-in attempts per client address in each minute (a fixed window per
 * client, counted in this process): guessing keys takes years, a typo costs nothing.
 */
export function createSignInRateLimit(perMinute: number): SignInRateLimit {
  const windows = new Map<string, { startMs: number; count: number }>();
  return {
    attempt(client, nowMs) {
      let window = windows.get(client);
      if (!window || nowMs - window.startMs >= WINDOW_MS) {
        if (windows.size >= SWEEP_AT) {
          for (const [key, open] of windows) {
            if (nowMs - open.startMs >= WINDOW_MS) windows.delete(key);
          }
        }
        window = { startMs: nowMs, count: 0 };
        windows.set(client, window);
      }
      if (window.count >= perMinute) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((window.startMs + WINDOW_MS - nowMs) / 1000)),
        };
      }
      window.count += 1;
      return { allowed: true };
    },
  };
}
