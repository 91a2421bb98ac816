import { DAY_MS } from '@contracts/usage/time';

/** Half-open epoch-ms interval `[from, to)`. */
export interface Interval {
  from: number;
  to: number;
}

/** Where the facts of a range come from: whole UTC days from the rollup, the rest from traces. */
export interface RangePlan {
  rollupDays: Interval | null;
  rawIntervals: Interval[];
}

/**
 * Splits `[from, to)` into the whole UTC days inside it (read from `usage_daily`) and the
 * partial days at either end (read from `traces`). With `useRollup` false (hourly buckets need
 * sub-day times) everything is read from `traces`.
 */
export function planRange(from: number, to: number, useRollup: boolean): RangePlan {
  if (from >= to) return { rollupDays: null, rawIntervals: [] };
  const firstWholeDay = Math.ceil(from / DAY_MS) * DAY_MS;
  const endOfWholeDays = Math.floor(to / DAY_MS) * DAY_MS;
  if (!useRollup || firstWholeDay >= endOfWholeDays) {
    return { rollupDays: null, rawIntervals: [{ from, to }] };
  }
  const rawIntervals = [
    { from, to: firstWholeDay },
    { from: endOfWholeDays, to },
  ].filter((interval) => interval.from < interval.to);
  return { rollupDays: { from: firstWholeDay, to: endOfWholeDays }, rawIntervals };
}
