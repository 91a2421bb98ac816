import { limitMonth } from '@contracts/usage/limit-period';
import { HOUR_MS } from '@contracts/usage/time';

/** Where a workspace stands against a monthly limit, in words the card can render. */
export type LimitOutlook =
  | { kind: 'no-limit' }
  | { kind: 'reached'; atMs: number | null }
  | { kind: 'projected'; atMs: number }
  | { kind: 'within'; projected: number }
  | { kind: 'no-pace' };

/**
 * The date the limit is reached at the current pace: the month's rate so far (traces per
 * millisecond since the month's first instant, today's partial day included) carried forward,
 * floored to the hour. `within` when that date is past the reset (with the month-end figure at
 * that pace); `reached` once the count is at the limit (with when, if the server knows).
 */
export function limitOutlook(
  used: number,
  limit: number | null,
  reachedAtMs: number | null,
  nowMs: number,
): LimitOutlook {
  if (limit === null) return { kind: 'no-limit' };
  if (used >= limit) return { kind: 'reached', atMs: reachedAtMs };
  const month = limitMonth(nowMs);
  const elapsed = nowMs - month.startMs;
  if (used === 0 || elapsed <= 0) return { kind: 'no-pace' };
  const rate = used / elapsed;
  const atMs = nowMs + (limit - used) / rate;
  if (atMs >= month.endMs) {
    return { kind: 'within', projected: Math.round(used + rate * (month.endMs - nowMs)) };
  }
  return { kind: 'projected', atMs: Math.floor(atMs / HOUR_MS) * HOUR_MS };
}

/** Share of the limit used, in percent (0 for a limit of 0 not yet used: nothing to divide). */
export function limitShare(used: number, limit: number): number {
  if (limit === 0) return used > 0 ? 100 : 0;
  return (used / limit) * 100;
}
