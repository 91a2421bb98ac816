import type { Interval } from '@server/usage/model/time-segments';
import { DAY_MS } from '@contracts/usage/time';

/** The buckets that whole days fall in, and where each begins, as UTC day numbers. */
export interface BucketDays {
  /** The bucket of the first day. */
  first: number;
  /**
   * `bounds[i]` to `bounds[i + 1]` (exclusive) are the days of bucket `first + i`; the first
   * bound is the first day read, the last one the day after the last.
   */
  bounds: number[];
}

/**
 * The buckets of a grid (`originMs`, `stepMs`: whole days) that the whole UTC days `days` fall
 * in, with the day each one's share of `days` begins (see `BucketDays`). Pure: the rollup SQL of
 * `read-usage-matrix.ts` is written from it.
 */
export function bucketDays(days: Interval, grid: { originMs: number; stepMs: number }): BucketDays {
  const firstDay = Math.floor(days.from / DAY_MS);
  const endDay = Math.ceil(days.to / DAY_MS);
  const bucketOf = (day: number) => Math.floor((day * DAY_MS - grid.originMs) / grid.stepMs);
  const first = bucketOf(firstDay);
  const last = bucketOf(endDay - 1);
  const bounds = [firstDay];
  for (let k = first + 1; k <= last; k += 1) {
    bounds.push(Math.ceil((grid.originMs + k * grid.stepMs) / DAY_MS));
  }
  bounds.push(endDay);
  return { first, bounds };
}
