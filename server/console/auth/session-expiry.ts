/** How long a console session lives, in milliseconds. */
export interface SessionLifetime {
  /** Unused this long, it ends. */
  idleMs: number;
  /** Started this long ago, it ends however busy. */
  maxMs: number;
}

interface SessionTimes {
  createdAtMs: number;
  lastSeenAtMs: number;
}

/** Whether a session may still be used at `nowMs`. */
export function isSessionLive(session: SessionTimes, nowMs: number, life: SessionLifetime) {
  return nowMs - session.lastSeenAtMs < life.idleMs && nowMs - session.createdAtMs < life.maxMs;
}

/** The longest a recorded use may lag behind: at most a minute, or a tenth of the idle time. */
const touchLagMs = (life: SessionLifetime) => Math.min(60_000, Math.floor(life.idleMs / 10));

/**
 * Whether a use at `nowMs` must be written down: not every request writes the database, but the
 * idle clock never lags by more than `touchLagMs`.
 */
export function needsTouch(session: SessionTimes, nowMs: number, life: SessionLifetime) {
  return nowMs - session.lastSeenAtMs >= touchLagMs(life);
}

/** When the cookie of a session started at `createdAtMs` should stop being sent, in seconds. */
export function cookieMaxAgeSeconds(createdAtMs: number, nowMs: number, life: SessionLifetime) {
  return Math.max(0, Math.floor((createdAtMs + life.maxMs - nowMs) / 1000));
}
