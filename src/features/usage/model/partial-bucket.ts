import { bucketEnd, strideMs } from '@contracts/usage/stride';
import type { UsageMatrix } from './usage-matrix';

/**
 * Start of the last bucket when it is partial: still in progress at `nowMs`, or cut short by the
 * range end (the range is not a whole number of buckets). Null when every bucket is complete.
 */
export function partialBucketStart(matrix: UsageMatrix, nowMs: number): number | null {
  const last = matrix.buckets.at(-1);
  if (last === undefined) return null;
  const end = bucketEnd(last, matrix.range.endMs, matrix.stride);
  return nowMs < end || end - last < strideMs(matrix.stride) ? last : null;
}
