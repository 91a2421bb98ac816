import { describe, expect, it } from 'vitest';
import { createBucketGrid } from './bucket-grid';
import { strideForRange } from './stride';

const t = (iso: string) => Date.parse(iso);

describe('BucketGrid.starts', () => {
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
    const starts = createBucketGrid(s, e, strideForRange(s, e)).starts();
    expect(starts.map((ms) => new Date(ms).toISOString())).toEqual(expected);
  });
});

describe('BucketGrid.end', () => {
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
    const grid = createBucketGrid(t(bucket), t(end), { days, hours: 0 });
    expect(new Date(grid.end(0)).toISOString()).toBe(expected);
  });
});

describe('BucketGrid.indexOf', () => {
  const grid = createBucketGrid(t('2026-02-04T12:00:00Z'), t('2026-03-20T00:00:00Z'), {
    days: 7,
    hours: 0,
  });
  it.each([
    ['before the origin', '2026-02-03T23:59:59Z', -1],
    ['the origin (start floored to midnight)', '2026-02-04T00:00:00Z', 0],
    ['last instant of bucket 0', '2026-02-10T23:59:59.999Z', 0],
    ['first instant of bucket 1', '2026-02-11T00:00:00Z', 1],
    ['inside the partial last bucket', '2026-03-19T23:00:00Z', 6],
    ['the range end (excluded)', '2026-03-20T00:00:00Z', -1],
  ])('%s -> %i', (_label, at, expected) => {
    expect(grid.indexOf(t(at))).toBe(expected);
  });

  it('agrees with start and end for every bucket', () => {
    for (let k = 0; k < grid.count; k += 1) {
      expect(grid.indexOf(grid.start(k))).toBe(k);
      expect(grid.indexOf(grid.end(k) - 1)).toBe(k);
    }
    expect(grid.end(grid.count - 1)).toBe(grid.endMs);
  });
});

describe('BucketGrid.window', () => {
  it('cuts a grid into windows whose buckets are the same buckets', () => {
    const grid = createBucketGrid(t('2026-01-05T06:00:00Z'), t('2026-02-01T00:00:00Z'), {
      days: 1,
      hours: 0,
    });
    const windows = [0, 10, 20].map((first) => grid.window(first, 10));
    expect(windows.map((window) => window.count)).toEqual([10, 10, 7]);
    expect(windows[0]?.startMs).toBe(grid.startMs);
    expect(windows.flatMap((window) => window.starts())).toEqual(grid.starts());
    expect(windows.at(-1)?.endMs).toBe(grid.endMs);
  });

  it('has no bucket for an empty range', () => {
    const at = t('2026-02-01T00:00:00Z');
    expect(createBucketGrid(at, at, { days: 1, hours: 0 }).count).toBe(0);
  });
});
