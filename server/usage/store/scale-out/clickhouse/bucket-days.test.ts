import { describe, expect, it } from 'vitest';
import { bucketDays, type BucketDays } from './bucket-days';
import { DAY_MS } from '@contracts/usage/time';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const days = (from: string, to: string) => ({ from: day(from) * DAY_MS, to: day(to) * DAY_MS });
const grid = (origin: string, strideDays: number) => ({
  originMs: day(origin) * DAY_MS,
  stepMs: strideDays * DAY_MS,
});

describe('bucketDays', () => {
  it.each<[string, { from: number; to: number }, ReturnType<typeof grid>, BucketDays]>([
    [
      'daily buckets: one bound per day',
      days('2026-03-01', '2026-03-04'),
      grid('2026-02-27', 1),
      {
        first: 2,
        bounds: [day('2026-03-01'), day('2026-03-02'), day('2026-03-03'), day('2026-03-04')],
      },
    ],
    [
      '30-day buckets, the days read starting inside the first one',
      days('2026-01-10', '2026-03-05'),
      grid('2026-01-05', 30),
      {
        first: 0,
        bounds: [day('2026-01-10'), day('2026-02-04'), day('2026-03-05')],
      },
    ],
    [
      '30-day buckets, the days read ending inside the last one',
      days('2026-02-04', '2026-03-10'),
      grid('2026-01-05', 30),
      { first: 1, bounds: [day('2026-02-04'), day('2026-03-06'), day('2026-03-10')] },
    ],
    [
      'all days inside one bucket',
      days('2026-02-10', '2026-02-12'),
      grid('2026-01-05', 30),
      { first: 1, bounds: [day('2026-02-10'), day('2026-02-12')] },
    ],
  ])('%s', (_, read, buckets, expected) => {
    expect(bucketDays(read, buckets)).toEqual(expected);
  });
});
