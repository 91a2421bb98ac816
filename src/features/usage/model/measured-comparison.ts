import { previousPeriod, type TimeRange } from './time-range';

const DAY_MS = 86_400_000;

/**
 * What the "compared with the previous period" figures may compare. The previous period of the
 * same length is clipped to the days that were measured (no data exists before `floorMs`):
 * - `unmeasured`: the whole previous period lies before the floor, so there is nothing to compare
 *   (never "New": the traces were not counted, not absent).
 * - `measured`: compare `previous` with `current`, two windows of `days` days each. When the
 *   floor cuts the previous period (`clipped`), both windows are the last `days` days of their
 *   period, so like is compared with like and no count is extrapolated.
 */
export type ComparisonPlan =
  | { kind: 'unmeasured'; floorMs: number }
  | { kind: 'measured'; previous: TimeRange; current: TimeRange; days: number; clipped: boolean };

/** `floorMs`: first measured instant (the cloud floor), or null when every day was measured. */
export function planComparison(range: TimeRange, floorMs: number | null): ComparisonPlan {
  const previous = previousPeriod(range);
  const measuredStart = Math.max(previous.startMs, floorMs ?? previous.startMs);
  const days = (previous.endMs - measuredStart) / DAY_MS;
  if (floorMs !== null && measuredStart >= previous.endMs) return { kind: 'unmeasured', floorMs };
  if (measuredStart === previous.startMs) {
    return { kind: 'measured', previous, current: range, days, clipped: false };
  }
  const length = previous.endMs - measuredStart;
  return {
    kind: 'measured',
    previous: { startMs: measuredStart, endMs: previous.endMs },
    current: { startMs: range.endMs - length, endMs: range.endMs },
    days,
    clipped: true,
  };
}
