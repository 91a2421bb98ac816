import { limitMonth } from '@contracts/usage/limit-period';
import { HOUR_MS } from '@contracts/usage/time';

/** Where a workspace stands against a monthly limit, in words the card can render. */
export type LimitOutlook =
  | { kind: 'no-limit' }
  | { kind: 'reached'; atMs: number | null }
  | { kind: 'projected'; atMs: number }
  | { kind: 'imminent' }
  | { kind: 'within'; projected: number }
  | { kind: 'no-pace' };

/**
 * The date the limit is reached at the current pace: the month's rate so far (traces per
 * millisecond since the month's first instant, today's partial day included) carried forward,
 * rounded up to the hour, so it never names a time already past. `imminent` when that is within
 * the hour; `within` when it is past the reset (with the month-end figure at that pace);
 * `reached` once the count is at the limit (with when, if the server knows).
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
  if (atMs - nowMs < HOUR_MS) return { kind: 'imminent' };
  return { kind: 'projected', atMs: Math.ceil(atMs / HOUR_MS) * HOUR_MS };
}

/** Share of the limit used, in percent (0 for a limit of 0 not yet used: nothing to divide). */
export function limitShare(used: number, limit: number): number {
  if (limit === 0) return used > 0 ? 100 : 0;
  return (used / limit) * 100;
}

/**
 * The share as the card prints it: whole percents from 10 %, one decimal below, and never
 * "100%" while the count is under the limit (99.96 % reads 99.9 %, not a full bar's figure).
 */
export function formatLimitShare(used: number, limit: number): string {
  const share = limitShare(used, limit);
  if (used < limit && share >= 99.5) return `${(Math.floor(share * 10) / 10).toFixed(1)}%`;
  return `${share.toFixed(share >= 10 || share === 0 ? 0 : 1)}%`;
}
