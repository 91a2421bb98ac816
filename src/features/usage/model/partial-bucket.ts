import { isCalendarMonthGrid, isPartialMonth } from './calendar-month-grid';
import type { UsageMatrix } from './usage-matrix';

/** Index of the bucket holding the instant `ms`, or -1 when it is outside the grid. */
function bucketIndexAt(matrix: UsageMatrix, ms: number): number {
  const { grid } = matrix;
  for (let index = 0; index < grid.count; index += 1) {
    if (grid.start(index) <= ms && ms < grid.end(index)) return index;
  }
  return -1;
}

/**
 * Start of the partial bucket: the one in progress at `nowMs` (an hourly view of today marks
 * the current hour, not 23:00), or, for a range already over, the last bucket when the range end
 * cuts it short (not a whole number of buckets, or ending inside a calendar month). Null when
 * every bucket is complete or the range has not started.
 */
export function partialBucketStart(matrix: UsageMatrix, nowMs: number): number | null {
  const { grid } = matrix;
  const last = grid.count - 1;
  if (last < 0) return null;
  const end = grid.end(last);
  if (nowMs < end) {
    const current = bucketIndexAt(matrix, nowMs);
    return current === -1 ? null : grid.start(current);
  }
  const cut = isCalendarMonthGrid(grid)
    ? isPartialMonth(grid, last)
    : end - grid.start(last) < grid.stepMs;
  return cut ? grid.start(last) : null;
}

/**
 * Index of the first bucket that starts after `nowMs`: from there on the chart shows "not yet"
 * (no bars, no tooltip figures), never zeros that read as an outage. Null when none does.
 */
export function firstFutureBucket(matrix: UsageMatrix, nowMs: number): number | null {
  const { grid } = matrix;
  for (let index = 0; index < grid.count; index += 1) {
    if (grid.start(index) > nowMs) return index;
  }
  return null;
}

/** Start of the first calendar month when the range begins inside it (fixed buckets: null). */
export function partialFirstMonthStart(matrix: UsageMatrix): number | null {
  const { grid } = matrix;
  if (!isCalendarMonthGrid(grid) || grid.count < 2 || !isPartialMonth(grid, 0)) return null;
  return grid.start(0);
}
