import { describe, expect, it } from 'vitest';
import { chartRows } from './chart-rows';

const buckets = [0, 10, 20, 30];
const series = [
  { key: 'a', values: [1, 5, 2, 0] },
  { key: 'b', values: [3, 4, 9, 0] },
];

describe('chartRows', () => {
  it.each([
    [
      'every bucket measured',
      null,
      [
        { bucket: 0, total: 4 },
        { bucket: 10, total: 9 },
        { bucket: 20, total: 11 },
        { bucket: 30, total: 0 },
      ],
      11,
    ],
    [
      'the last two not yet',
      2,
      [{ bucket: 0, total: 4 }, { bucket: 10, total: 9 }, { bucket: 20 }, { bucket: 30 }],
      9,
    ],
    ['all in the future', 0, [{ bucket: 0 }, { bucket: 10 }, { bucket: 20 }, { bucket: 30 }], 0],
  ])('%s', (_name, futureFrom, rows, max) => {
    expect(chartRows(buckets, series, futureFrom)).toEqual({ rows, max });
  });
});
