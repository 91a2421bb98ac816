import type { BucketGrid } from '@contracts/usage/bucket-grid';
import type { Aggregation } from './aggregation';
import { formatUtcDate, type TimeRange } from './time-range';

/** A custom range of whole UTC days and the finer aggregation to show it in. */
export interface ZoomTarget {
  from: string;
  to: string;
  aggregation: Aggregation;
}

/** One level finer: days under weeks and months, hours under a day; hours are the finest. */
const FINER: Record<Aggregation, Aggregation | null> = {
  'calendar-month': 'daily',
  monthly: 'daily',
  weekly: 'daily',
  daily: 'hourly',
  hourly: null,
};

/** True when the aggregation has a finer one to zoom into. */
export const canZoom = (aggregation: Aggregation) => FINER[aggregation] !== null;

/**
 * The view of bucket `index` one level finer: its days (cut to the range the screen shows, since
 * the first and last buckets may reach past it) at the next finer aggregation. Null for hourly
 * buckets, which have nothing finer.
 */
export function zoomTarget(
  grid: BucketGrid,
  index: number,
  range: TimeRange,
  aggregation: Aggregation,
): ZoomTarget | null {
  const finer = FINER[aggregation];
  if (finer === null || index < 0 || index >= grid.count) return null;
  const startMs = Math.max(grid.start(index), range.startMs);
  const endMs = Math.min(grid.end(index), range.endMs);
  if (endMs <= startMs) return null;
  return { from: formatUtcDate(startMs), to: formatUtcDate(endMs - 1), aggregation: finer };
}
