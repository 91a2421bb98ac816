import { strideMs } from './stride';
import type { Stride } from './usage-schema';
import { DAY_MS, HOUR_MS } from './time';

/**
 * The time buckets of a half-open range `[startMs, endMs)` at a stride, as the usage API cuts
 * them: hourly buckets start on the UTC hour, day-based buckets at `startMs` floored to UTC
 * midnight, and each later bucket `stride` after the previous one; the last bucket ends at
 * `endMs`, so it may be shorter. Built once per request (server) or view (browser) and handed to
 * everything that needs a bucket's start, end or index, so no one cuts buckets differently.
 */
export interface BucketGrid {
  readonly stride: Stride;
  /** The range asked for; the first bucket may start before `startMs`. */
  readonly startMs: number;
  readonly endMs: number;
  /** Start of bucket 0. */
  readonly originMs: number;
  /** Length of a whole bucket. */
  readonly stepMs: number;
  /** Number of buckets, the last possibly partial. */
  readonly count: number;
  /** Start of bucket `k` (epoch ms, UTC). */
  start(k: number): number;
  /** End of bucket `k`: the next bucket's start, or `endMs` for the last. */
  end(k: number): number;
  /** Bucket holding instant `ms`, or -1 outside `[originMs, endMs)`. */
  indexOf(ms: number): number;
  /** Every bucket's start, in order. */
  starts(): number[];
  /**
   * The grid of buckets `[first, first + size)` of this one: the same alignment, the range cut to
   * them (bucket 0 keeps `startMs`). Long exports are queried window by window this way.
   */
  window(first: number, size: number): BucketGrid;
}

export function createBucketGrid(startMs: number, endMs: number, stride: Stride): BucketGrid {
  const unit = stride.days === 0 ? HOUR_MS : DAY_MS;
  const originMs = Math.floor(startMs / unit) * unit;
  const stepMs = strideMs(stride);
  const count = endMs > originMs ? Math.ceil((endMs - originMs) / stepMs) : 0;
  const start = (k: number) => originMs + k * stepMs;
  return {
    stride,
    startMs,
    endMs,
    originMs,
    stepMs,
    count,
    start,
    end: (k) => Math.min(start(k + 1), endMs),
    indexOf: (ms) => (ms < originMs || ms >= endMs ? -1 : Math.floor((ms - originMs) / stepMs)),
    starts: () => Array.from({ length: count }, (_, k) => start(k)),
    window: (first, size) =>
      createBucketGrid(
        first === 0 ? startMs : start(first),
        Math.min(endMs, start(first + size)),
        stride,
      ),
  };
}
