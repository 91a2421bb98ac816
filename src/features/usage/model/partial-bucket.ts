import { isCalendarMonthGrid, isPartialMonth } from './calendar-month-grid';
import type { UsageMatrix } from './usage-matrix';

/**
 * Start of the last bucket when it is partial: still in progress at `nowMs`, or cut short by the
 * range end (the range is not a whole number of buckets, or ends inside a calendar month).
 * Null when every bucket is complete.
 */
export function partialBucketStart(matrix: UsageMatrix, nowMs: number): number | null {
  const { grid } = matrix;
  const last = grid.count - 1;
  if (last < 0) return null;
  const end = grid.end(last);
  const cut = isCalendarMonthGrid(grid)
    ? isPartialMonth(grid, last)
    : end - grid.start(last) < grid.stepMs;
  return nowMs < end || cut ? grid.start(last) : null;
}

/** Start of the first calendar month when the range begins inside it (fixed buckets: null). */
export function partialFirstMonthStart(matrix: UsageMatrix): number | null {
  const { grid } = matrix;
  if (!isCalendarMonthGrid(grid) || grid.count < 2 || !isPartialMonth(grid, 0)) return null;
  return grid.start(0);
}
