import { UTCDate } from '@date-fns/utc';
import { addMonths, startOfMonth } from 'date-fns';
import { createBucketGrid, type BucketGrid } from '@contracts/usage/bucket-grid';

const DAILY = { days: 1, hours: 0 };

/**
 * Buckets that are UTC calendar months, built on the daily BucketGrid of the same range: a month
 * bucket is the run of daily buckets between two month starts. The first bucket starts at the
 * range's first day and the last ends at the range end, so either may be a partial month
 * (see `isPartialMonth`). `stride` is daily: the finest unit, what the data is summed from.
 */
export interface CalendarMonthGrid extends BucketGrid {
  readonly calendar: 'month';
}

export function createCalendarMonthGrid(startMs: number, endMs: number): CalendarMonthGrid {
  const days = createBucketGrid(startMs, endMs, DAILY);
  const starts: number[] = [];
  const monthOfDay: number[] = [];
  for (let k = 0; k < days.count; k += 1) {
    const dayStart = days.start(k);
    if (k === 0 || new UTCDate(dayStart).getDate() === 1) starts.push(dayStart);
    monthOfDay.push(starts.length - 1);
  }
  const start = (k: number) => starts[k] ?? Number.NaN;
  const end = (k: number) => starts[k + 1] ?? endMs;
  return {
    calendar: 'month',
    stride: DAILY,
    startMs,
    endMs,
    originMs: days.originMs,
    stepMs: days.stepMs,
    count: starts.length,
    start,
    end,
    indexOf: (ms) => {
      const day = days.indexOf(ms);
      return day < 0 ? -1 : (monthOfDay[day] ?? -1);
    },
    starts: () => [...starts],
    window: (first, size) =>
      createCalendarMonthGrid(first === 0 ? startMs : start(first), end(first + size - 1)),
  };
}

export function isCalendarMonthGrid(grid: BucketGrid): grid is CalendarMonthGrid {
  return 'calendar' in grid && grid.calendar === 'month';
}

/** The whole UTC month holding `ms`. */
export function monthAround(ms: number): { startMs: number; endMs: number } {
  const start = startOfMonth(new UTCDate(ms));
  return { startMs: start.getTime(), endMs: addMonths(start, 1).getTime() };
}

/** True when bucket `k` covers less than its calendar month (range cut it at either end). */
export function isPartialMonth(grid: CalendarMonthGrid, k: number): boolean {
  const month = monthAround(grid.start(k));
  return grid.start(k) > month.startMs || grid.end(k) < month.endMs;
}
