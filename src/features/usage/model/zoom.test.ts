import { describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { AGGREGATION_STRIDES, type Aggregation } from './aggregation';
import { createCalendarMonthGrid } from './calendar-month-grid';
import { planFetchWindows } from './fetch-windows';
import { resolveCustomRange } from './time-range';
import { zoomTarget } from './zoom';

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);

function gridFor(from: string, to: string, aggregation: Aggregation) {
  const range = { startMs: day(from), endMs: day(to) };
  const grid =
    aggregation === 'calendar-month'
      ? createCalendarMonthGrid(range.startMs, range.endMs)
      : createBucketGrid(range.startMs, range.endMs, AGGREGATION_STRIDES[aggregation]);
  return { range, grid };
}

describe('zoomTarget', () => {
  it.each<[string, string, string, Aggregation, number, string, string, Aggregation]>([
    [
      'a day of 30 days: its hours',
      '2026-10-24',
      '2026-11-23',
      'daily',
      2,
      '2026-10-26',
      '2026-10-26',
      'hourly',
    ],
    [
      'a week: its days',
      '2026-08-23',
      '2026-11-23',
      'weekly',
      1,
      '2026-08-30',
      '2026-09-05',
      'daily',
    ],
    [
      'a 30-day period: its days',
      '2026-05-23',
      '2026-11-23',
      'monthly',
      0,
      '2026-05-23',
      '2026-06-21',
      'daily',
    ],
    // The last 7-day bucket is cut by the range end: the zoom keeps to the range.
    [
      'a cut last week',
      '2026-08-23',
      '2026-11-23',
      'weekly',
      13,
      '2026-11-22',
      '2026-11-22',
      'daily',
    ],
    // Calendar months: the partial first month starts where the range does.
    [
      'a partial first month',
      '2026-05-23',
      '2026-11-23',
      'calendar-month',
      0,
      '2026-05-23',
      '2026-05-31',
      'daily',
    ],
    [
      'a whole month',
      '2026-05-23',
      '2026-11-23',
      'calendar-month',
      1,
      '2026-06-01',
      '2026-06-30',
      'daily',
    ],
  ])('%s', (_name, from, to, aggregation, index, zoomFrom, zoomTo, finer) => {
    const { range, grid } = gridFor(from, to, aggregation);
    expect(zoomTarget(grid, index, range, aggregation)).toEqual({
      from: zoomFrom,
      to: zoomTo,
      aggregation: finer,
    });
  });

  it('has nothing finer than an hour, and nothing outside the grid', () => {
    const { range, grid } = gridFor('2026-11-20', '2026-11-21', 'hourly');
    expect(zoomTarget(grid, 3, range, 'hourly')).toBeNull();
    const daily = gridFor('2026-11-01', '2026-11-08', 'daily');
    expect(zoomTarget(daily.grid, 7, daily.range, 'daily')).toBeNull();
  });

  it('a zoomed day is asked for as two half days, which the server answers hourly', () => {
    const range = resolveCustomRange('2026-10-26', '2026-10-26');
    if (!range) throw new Error('valid range');
    const windows = planFetchWindows(range, AGGREGATION_STRIDES.hourly);
    expect(windows.map((window) => window.serverStride)).toEqual([
      { days: 0, hours: 1 },
      { days: 0, hours: 1 },
    ]);
    expect(windows[0]?.startMs).toBe(range.startMs);
    expect(windows[1]?.endMs).toBe(range.endMs);
  });
});
