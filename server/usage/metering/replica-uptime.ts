/**
 * The uptime arithmetic of deployment replicas, pure. A replica is up from its process start
 * until its last heartbeat the service received; each heartbeat credits the time since the
 * later of the replica's start and its previous heartbeat. So:
 * - a resent report (same or older `seq`) credits nothing (no double counting on retries);
 * - a restarted process is a new replica (new id, new start): the time it was down is never
 *   credited, and the old replica's uptime ends at its last heartbeat;
 * - a crashed replica sends no heartbeat, so it stops counting; what it was up after its last
 *   heartbeat is lost (at most one report interval);
 * - a heartbeat from the future (clock skew) counts only up to the service's own clock.
 */

/** What the service keeps per replica between reports. */
export interface ReplicaState {
  startedAtMs: number;
  /** The end of the uptime credited so far. */
  lastSeenMs: number;
  /** The last report applied. */
  lastSeq: number;
}

export interface Heartbeat {
  startedAtMs: number;
  seq: number;
  sentAtMs: number;
}

/** Half-open `[fromMs, toMs)`. */
export interface TimeSpan {
  fromMs: number;
  toMs: number;
}

export interface HeartbeatOutcome {
  /** False for a report already applied: nothing of it may be counted again. */
  applied: boolean;
  state: ReplicaState | undefined;
  /** The uptime this heartbeat adds, or null. */
  credit: TimeSpan | null;
}

export function applyHeartbeat(
  previous: ReplicaState | undefined,
  beat: Heartbeat,
  nowMs: number,
): HeartbeatOutcome {
  if (previous && beat.seq <= previous.lastSeq) {
    return { applied: false, state: previous, credit: null };
  }
  const toMs = Math.min(beat.sentAtMs, nowMs);
  const fromMs = Math.max(beat.startedAtMs, previous?.lastSeenMs ?? beat.startedAtMs);
  const credit = toMs > fromMs ? { fromMs, toMs } : null;
  const state = {
    startedAtMs: beat.startedAtMs,
    lastSeenMs: Math.max(fromMs, toMs),
    lastSeq: beat.seq,
  };
  return { applied: true, state, credit };
}

/**
 * `span` cut at every multiple of `stepMs` (UTC minutes, hours): per step it touches, the step's
 * start and the milliseconds of `span` inside it. The parts add up to the span exactly.
 */
export function splitAtSteps(span: TimeSpan, stepMs: number): { startMs: number; ms: number }[] {
  const parts: { startMs: number; ms: number }[] = [];
  for (let at = span.fromMs; at < span.toMs;) {
    const startMs = Math.floor(at / stepMs) * stepMs;
    const next = Math.min(span.toMs, startMs + stepMs);
    parts.push({ startMs, ms: next - at });
    at = next;
  }
  return parts;
}
