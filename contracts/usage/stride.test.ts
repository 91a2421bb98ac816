import { describe, expect, it } from 'vitest';
import { bucketEnd, bucketStarts, strideForRange } from './stride';

const t = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const start = t('2026-02-01T00:00:00Z');

describe('strideForRange', () => {
  it.each([
    ['1 ms', 1, { days: 0, hours: 1 }],
    ['23h59m', DAY - 60_000, { days: 0, hours: 1 }],
    ['1 day', DAY, { days: 1, hours: 0 }],
    ['30 days', 30 * DAY, { days: 1, hours: 0 }],
    ['31 days', 31 * DAY, { days: 1, hours: 0 }],
    ['31 days + 1 ms', 31 * DAY + 1, { days: 7, hours: 0 }],
    ['31.5 days', 31.5 * DAY, { days: 7, hours: 0 }],
    ['32 days', 32 * DAY, { days: 7, hours: 0 }],
    ['93 days', 93 * DAY, { days: 7, hours: 0 }],
    ['93 days + 1 ms', 93 * DAY + 1, { days: 30, hours: 0 }],
    ['94 days', 94 * DAY, { days: 30, hours: 0 }],
    ['366 days', 366 * DAY, { days: 30, hours: 0 }],
    ['366 days + 1 ms', 366 * DAY + 1, { days: 365, hours: 0 }],
    ['367 days', 367 * DAY, { days: 365, hours: 0 }],
    ['3 years', 3 * 365 * DAY, { days: 365, hours: 0 }],
  ])('%s -> %j', (_label, duration, expected) => {
    expect(strideForRange(start, start + duration)).toEqual(expected);
  });
});

describe('bucketStarts', () => {
  it.each([
    [
      'hourly, floored to the UTC hour',
      '2026-02-01T10:30:00Z',
      '2026-02-01T13:00:00Z',
      ['2026-02-01T10:00:00.000Z', '2026-02-01T11:00:00.000Z', '2026-02-01T12:00:00.000Z'],
    ],
    [
      'hourly, partial last hour',
      '2026-02-01T22:00:00Z',
      '2026-02-01T23:15:00Z',
      ['2026-02-01T22:00:00.000Z', '2026-02-01T23:00:00.000Z'],
    ],
    [
      'daily, floored to UTC midnight',
      '2026-02-01T18:00:00Z',
      '2026-02-03T18:00:00Z',
      ['2026-02-01T00:00:00.000Z', '2026-02-02T00:00:00.000Z', '2026-02-03T00:00:00.000Z'],
    ],
    [
      'weekly from the start day (not a calendar week)',
      '2026-02-04T00:00:00Z',
      '2026-03-20T00:00:00Z',
      [
        '2026-02-04T00:00:00.000Z',
        '2026-02-11T00:00:00.000Z',
        '2026-02-18T00:00:00.000Z',
        '2026-02-25T00:00:00.000Z',
        '2026-03-04T00:00:00.000Z',
        '2026-03-11T00:00:00.000Z',
        '2026-03-18T00:00:00.000Z',
      ],
    ],
    [
      '30-day buckets, last one partial',
      '2026-01-05T00:00:00Z',
      '2026-05-01T00:00:00Z',
      [
        '2026-01-05T00:00:00.000Z',
        '2026-02-04T00:00:00.000Z',
        '2026-03-06T00:00:00.000Z',
        '2026-04-05T00:00:00.000Z',
      ],
    ],
  ])('%s', (_label, from, to, expected) => {
    const [s, e] = [t(from), t(to)];
    const starts = bucketStarts(s, e, strideForRange(s, e));
    expect(starts.map((ms) => new Date(ms).toISOString())).toEqual(expected);
  });
});

describe('bucketEnd', () => {
  it.each([
    [
      'full daily bucket',
      '2026-02-01T00:00:00Z',
      '2026-02-10T00:00:00Z',
      1,
      '2026-02-02T00:00:00.000Z',
    ],
    [
      'last daily bucket ends at end_time',
      '2026-02-09T00:00:00Z',
      '2026-02-09T12:00:00Z',
      1,
      '2026-02-09T12:00:00.000Z',
    ],
    [
      'weekly bucket',
      '2026-02-01T00:00:00Z',
      '2026-04-01T00:00:00Z',
      7,
      '2026-02-08T00:00:00.000Z',
    ],
  ])('%s', (_label, bucket, end, days, expected) => {
    expect(new Date(bucketEnd(t(bucket), t(end), { days, hours: 0 })).toISOString()).toBe(expected);
  });
});
