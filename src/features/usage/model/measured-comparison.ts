import type { TimeRange } from './time-range';
import { DAY_MS, MINUTE_MS } from '@contracts/usage/time';

/**
 * What the "compared with the previous period" figures may compare. The previous period of the
 * same length is clipped to the days that were measured (no data exists before `floorMs`):
 * - `unmeasured`: the whole previous period lies before the floor, so there is nothing to compare
 *   (never "New": the traces were not counted, not absent).
 * - `measured`: compare `previous` with `current`, two windows of `days` days each. When the
 *   floor cuts the previous period (`clipped`), both windows are the last `days` days of their
 *   period, so like is compared with like and no count is extrapolated. When the view runs past
 *   now (`toMs`, a preset ending tonight), both windows end at the same point of their period:
 *   today's first hours are compared with the same hours of the previous period's last day, not
 *   with the whole day (which reported a 48 % drop for a day half gone).
 */
export type ComparisonPlan =
  | { kind: 'unmeasured'; floorMs: number }
  | {
      kind: 'measured';
      previous: TimeRange;
      current: TimeRange;
      days: number;
      clipped: boolean;
      /** The minute both sides are cut at (the current side's end), or null for whole periods. */
      toMs: number | null;
    };

/**
 * `floorMs`: first measured instant (the cloud floor), or null when every day was measured.
 * `nowMs`: the screen's now; a view that ends after it is compared to date (to the minute).
 */
export function planComparison(
  range: TimeRange,
  floorMs: number | null,
  nowMs: number,
): ComparisonPlan {
  const length = range.endMs - range.startMs;
  const minute = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  const toMs = minute > range.startMs && minute < range.endMs ? minute : null;
  const current = { startMs: range.startMs, endMs: toMs ?? range.endMs };
  const previous = { startMs: current.startMs - length, endMs: current.endMs - length };
  const measuredStart = Math.max(previous.startMs, floorMs ?? previous.startMs);
  if (floorMs !== null && measuredStart >= previous.endMs) return { kind: 'unmeasured', floorMs };
  const measured = previous.endMs - measuredStart;
  const days = Math.round(measured / DAY_MS);
  if (measuredStart === previous.startMs) {
    return { kind: 'measured', previous, current, days, clipped: false, toMs };
  }
  return {
    kind: 'measured',
    previous: { startMs: measuredStart, endMs: previous.endMs },
    current: { startMs: current.endMs - measured, endMs: current.endMs },
    days,
    clipped: true,
    toMs,
  };
}

/** True when the current side is not the screen's whole range (its totals are fetched apart). */
export function comparesPartOfView(plan: Extract<ComparisonPlan, { kind: 'measured' }>): boolean {
  return plan.clipped || plan.toMs !== null;
}
