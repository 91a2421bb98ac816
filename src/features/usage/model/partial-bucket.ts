import type { UsageMatrix } from './usage-matrix';

/**
 * Start of the last bucket when it is partial: still in progress at `nowMs`, or cut short by the
 * range end (the range is not a whole number of buckets). Null when every bucket is complete.
 */
export function partialBucketStart(matrix: UsageMatrix, nowMs: number): number | null {
  const { grid } = matrix;
  const last = grid.count - 1;
  if (last < 0) return null;
  const end = grid.end(last);
  return nowMs < end || end - grid.start(last) < grid.stepMs ? grid.start(last) : null;
}
