import type { Stride } from './usage-schema';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Spec table 2.2, applied to the exact duration `end - start` in (fractional) days:
 * `< 1` hourly; `1 ≤ d ≤ 31` daily; `31 < d ≤ 93` 7 days; `93 < d ≤ 366` 30 days; `> 366`
 * 365 days. So 31 days exactly is daily and 31.5 days is weekly: the table's "32 to 93" row
 * starts wherever the "1 to 31" row ends.
 */
export function strideForRange(startMs: number, endMs: number): Stride {
  const days = (endMs - startMs) / DAY_MS;
  if (days < 1) return { days: 0, hours: 1 };
  if (days <= 31) return { days: 1, hours: 0 };
  if (days <= 93) return { days: 7, hours: 0 };
  if (days <= 366) return { days: 30, hours: 0 };
  return { days: 365, hours: 0 };
}

export function strideMs(stride: Stride): number {
  return stride.days * DAY_MS + stride.hours * HOUR_MS;
}

/**
 * Where the first bucket starts: hourly buckets on the UTC hour, day-based buckets at
 * `start` floored to UTC midnight. Every later bucket is `stride` after the previous one.
 */
export function bucketOrigin(startMs: number, stride: Stride): number {
  const unit = stride.days === 0 ? HOUR_MS : DAY_MS;
  return Math.floor(startMs / unit) * unit;
}

/** Start of every bucket of the half-open range `[start, end)`, in order (epoch ms, UTC). */
export function bucketStarts(startMs: number, endMs: number, stride: Stride): number[] {
  const step = strideMs(stride);
  const starts: number[] = [];
  for (let at = bucketOrigin(startMs, stride); at < endMs; at += step) starts.push(at);
  return starts;
}

/** End of the bucket starting at `bucketStartMs`: the next bucket's start, or `end` for the last. */
export function bucketEnd(bucketStartMs: number, endMs: number, stride: Stride): number {
  return Math.min(bucketStartMs + strideMs(stride), endMs);
}
