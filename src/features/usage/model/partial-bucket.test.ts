import type { Stride } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { describe, expect, it } from 'vitest';
import { buildUsageMatrix } from './usage-matrix';
import { createCalendarMonthGrid } from './calendar-month-grid';
import { firstFutureBucket, partialBucketStart, partialFirstMonthStart } from './partial-bucket';

const gridOf = (range: { startMs: number; endMs: number }, stride: Stride) =>
  createBucketGrid(range.startMs, range.endMs, stride);

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);

describe('partialBucketStart', () => {
  it.each([
    [
      'today is inside the last daily bucket',
      '2026-11-01',
      '2026-11-08',
      1,
      '2026-11-07T15:00:00Z',
      '2026-11-07',
    ],
    ['the range is over and whole', '2026-11-01', '2026-11-08', 1, '2026-11-20T00:00:00Z', null],
    [
      '10 days in 7-day buckets leave a 3-day tail',
      '2026-11-01',
      '2026-11-11',
      7,
      '2026-12-01T00:00:00Z',
      '2026-11-08',
    ],
    ['two whole weeks', '2026-11-01', '2026-11-15', 7, '2026-12-01T00:00:00Z', null],
  ])('%s', (_name, from, to, days, now, expected) => {
    const matrix = buildUsageMatrix(
      [],
      gridOf({ startMs: day(from), endMs: day(to) }, { days, hours: 0 }),
      'workspace',
    );
    expect(partialBucketStart(matrix, Date.parse(now))).toBe(
      expected === null ? null : day(expected),
    );
  });
});

describe('an hourly view of today', () => {
  const hourly = { days: 0, hours: 1 };
  const today = { startMs: day('2026-11-25'), endMs: day('2026-11-26') };
  const hourOf = (iso: string) => Date.parse(iso);

  it.each([
    // The view at 07:30: the 07:00 hour is partial, 08:00 on has not happened.
    ['07:30', '2026-11-25T07:30:00Z', '2026-11-25T07:00:00Z', 8],
    ['just after midnight', '2026-11-25T00:00:01Z', '2026-11-25T00:00:00Z', 1],
    ['the last hour', '2026-11-25T23:59:00Z', '2026-11-25T23:00:00Z', null],
    ['the day is over', '2026-11-26T09:00:00Z', null, null],
    ['the day has not started', '2026-11-24T22:00:00Z', null, 0],
  ])('%s', (_name, now, partial, future) => {
    const matrix = buildUsageMatrix([], gridOf(today, hourly), 'workspace');
    expect(partialBucketStart(matrix, hourOf(now))).toBe(partial === null ? null : hourOf(partial));
    expect(firstFutureBucket(matrix, hourOf(now))).toBe(future);
  });
});

describe('partial calendar months', () => {
  it.each([
    // Last 6 months on Nov 22: May starts on the 23rd, November is in progress.
    ['2026-05-23', '2026-11-23', '2026-11-22T10:00:00Z', '2026-05-23', '2026-11-01'],
    // Last month, looked at later: one whole month, nothing partial.
    ['2026-10-01', '2026-11-01', '2026-11-22T10:00:00Z', null, null],
    // Whole months, the range over: nothing partial.
    ['2026-01-01', '2026-04-01', '2026-11-22T10:00:00Z', null, null],
    // A custom range ending mid-month, long over: the last month is cut, the first whole.
    ['2026-01-01', '2026-03-15', '2026-11-22T10:00:00Z', null, '2026-03-01'],
  ])('[%s, %s) at %s: first %s, last %s', (from, to, now, first, last) => {
    const matrix = buildUsageMatrix([], createCalendarMonthGrid(day(from), day(to)), 'workspace');
    expect(partialFirstMonthStart(matrix)).toBe(first === null ? null : day(first));
    expect(partialBucketStart(matrix, Date.parse(now))).toBe(last === null ? null : day(last));
  });
});
