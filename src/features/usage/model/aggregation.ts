import { UTCDate } from '@date-fns/utc';
import { differenceInCalendarMonths } from 'date-fns';
import type { Stride } from '@contracts/usage/usage-schema';
import { strideForRange, strideMs } from '@contracts/usage/stride';
import { planFetchWindows } from './fetch-windows';
import type { TimeRange } from './time-range';
import { DAY_MS } from '@contracts/usage/time';

export const AGGREGATIONS = ['hourly', 'daily', 'weekly', 'monthly', 'calendar-month'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** Monthly means 30-day periods (the server's stride), and the labels say so; calendar months are UTC. */
export const AGGREGATION_LABELS: Record<Aggregation, string> = {
  hourly: 'Hourly',
  daily: 'Daily',
  weekly: 'Weekly (7 days)',
  monthly: 'Monthly (30 days)',
  'calendar-month': 'Calendar month',
};

export const HOURLY: Stride = { days: 0, hours: 1 };

export const AGGREGATION_STRIDES: Record<Aggregation, Stride> = {
  hourly: HOURLY,
  daily: { days: 1, hours: 0 },
  weekly: { days: 7, hours: 0 },
  monthly: { days: 30, hours: 0 },
  // UTC months are summed from daily data (see calendar-month-grid.ts).
  'calendar-month': { days: 1, hours: 0 },
};

/** Hourly buckets are offered up to a week (168 bars); longer ranges would be unreadable. */
export const MAX_HOURLY_DAYS = 7;

/** Bars the chart draws at most (a year of days); longer ranges take coarser buckets. */
export const MAX_VIEW_BUCKETS = 400;
/**
 * Requests one view may send (see fetch-windows.ts): calendar months are summed from daily data
 * fetched 31 days a request, so they are offered up to about 4 years.
 */
export const MAX_VIEW_REQUESTS = 48;

function fits(range: TimeRange, aggregation: Aggregation): boolean {
  const lengthMs = range.endMs - range.startMs;
  if (aggregation === 'hourly') return lengthMs <= MAX_HOURLY_DAYS * DAY_MS;
  const stride = AGGREGATION_STRIDES[aggregation];
  const buckets =
    aggregation === 'calendar-month'
      ? calendarMonthsTouched(range)
      : Math.ceil(lengthMs / strideMs(stride));
  return buckets <= MAX_VIEW_BUCKETS && planFetchWindows(range, stride).length <= MAX_VIEW_REQUESTS;
}

/** UTC months the range touches (its first and last may be partial). */
const calendarMonthsTouched = ({ startMs, endMs }: TimeRange) =>
  differenceInCalendarMonths(new UTCDate(endMs - 1), new UTCDate(startMs)) + 1;

/**
 * The aggregations a range can be shown in: hourly up to a week, and each other one while it
 * draws at most `MAX_VIEW_BUCKETS` bars from at most `MAX_VIEW_REQUESTS` requests (30-day
 * buckets always fit the longest range, `MAX_RANGE_DAYS`).
 */
export function aggregationsFor(range: TimeRange): readonly Aggregation[] {
  return AGGREGATIONS.filter((aggregation) => fits(range, aggregation));
}

/**
 * The aggregation the server would pick for this range (spec 2.2): 7 and 30 days daily, 3 months
 * weekly, 6 months and a year 30-day. Longer ranges (server: 365 days) default to 30-day buckets.
 * Ranges under a day have no choice: they are hourly.
 */
export function defaultAggregation(range: TimeRange): Aggregation {
  const stride = strideForRange(range.startMs, range.endMs);
  if (stride.days === 0) return 'hourly';
  if (stride.days === 1) return 'daily';
  if (stride.days === 7) return 'weekly';
  return 'monthly';
}

/**
 * The aggregation the screen shows: the chosen one when the range allows it, else the default.
 * Sub-day ranges are always hourly.
 */
export function viewAggregation(range: TimeRange, chosen: Aggregation | null): Aggregation {
  const fallback = defaultAggregation(range);
  if (fallback === 'hourly' || chosen === null) return fallback;
  return aggregationsFor(range).includes(chosen) ? chosen : fallback;
}

/** The bucket size the screen shows (see `viewAggregation`). */
export function viewStride(range: TimeRange, chosen: Aggregation | null): Stride {
  return AGGREGATION_STRIDES[viewAggregation(range, chosen)];
}
