import type { Stride } from '@contracts/usage/usage-schema';
import { strideForRange } from '@contracts/usage/stride';
import type { TimeRange } from './time-range';

export const AGGREGATIONS = ['daily', 'weekly', 'monthly', 'calendar-month'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** Monthly means 30-day periods (the server's stride), and the labels say so; calendar months are UTC. */
export const AGGREGATION_LABELS: Record<Aggregation, string> = {
  daily: 'Daily',
  weekly: 'Weekly (7 days)',
  monthly: 'Monthly (30 days)',
  'calendar-month': 'Calendar month',
};

export const AGGREGATION_STRIDES: Record<Aggregation, Stride> = {
  daily: { days: 1, hours: 0 },
  weekly: { days: 7, hours: 0 },
  monthly: { days: 30, hours: 0 },
  // UTC months are summed from daily data (see calendar-month-grid.ts).
  'calendar-month': { days: 1, hours: 0 },
};

export const HOURLY: Stride = { days: 0, hours: 1 };

/**
 * The aggregation the server would pick for this range (spec 2.2): 7 and 30 days daily, 3 months
 * weekly, 6 months and a year 30-day. Longer ranges (server: 365 days) default to 30-day buckets.
 * Ranges under a day have no choice: they are hourly.
 */
export function defaultAggregation(range: TimeRange): Aggregation | 'hourly' {
  const stride = strideForRange(range.startMs, range.endMs);
  if (stride.days === 0) return 'hourly';
  if (stride.days === 1) return 'daily';
  if (stride.days === 7) return 'weekly';
  return 'monthly';
}

/** The bucket size the screen shows: the chosen aggregation, or hourly for sub-day ranges. */
export function viewStride(range: TimeRange, chosen: Aggregation | null): Stride {
  const fallback = defaultAggregation(range);
  if (fallback === 'hourly') return HOURLY;
  return AGGREGATION_STRIDES[chosen ?? fallback];
}
