import { describe, expect, it } from 'vitest';
import { createCalendarMonthGrid, isPartialMonth } from './calendar-month-grid';

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('createCalendarMonthGrid', () => {
  it.each([
    // Last 6 months on 2026-11-22: a partial May, five whole months, and November to date.
    [
      '2026-05-23',
      '2026-11-23',
      [
        ['2026-05-23', '2026-06-01', true],
        ['2026-06-01', '2026-07-01', false],
        ['2026-07-01', '2026-08-01', false],
        ['2026-08-01', '2026-09-01', false],
        ['2026-09-01', '2026-10-01', false],
        ['2026-10-01', '2026-11-01', false],
        ['2026-11-01', '2026-11-23', true],
      ],
    ],
    // Exactly one month: one whole bucket.
    ['2026-02-01', '2026-03-01', [['2026-02-01', '2026-03-01', false]]],
    // Leap February, across a year end.
    [
      '2027-12-15',
      '2028-03-01',
      [
        ['2027-12-15', '2028-01-01', true],
        ['2028-01-01', '2028-02-01', false],
        ['2028-02-01', '2028-03-01', false],
      ],
    ],
    // A range inside one month.
    ['2026-11-03', '2026-11-10', [['2026-11-03', '2026-11-10', true]]],
  ] as const)('[%s, %s) is cut into UTC months', (from, to, expected) => {
    const grid = createCalendarMonthGrid(day(from), day(to));
    expect(grid.count).toBe(expected.length);
    expect(
      Array.from({ length: grid.count }, (_, k) => [
        iso(grid.start(k)),
        iso(grid.end(k)),
        isPartialMonth(grid, k),
      ]),
    ).toEqual(expected);
  });

  it.each([
    ['2026-05-23T00:00:00Z', 0],
    ['2026-05-31T23:59:59Z', 0],
    ['2026-06-01T00:00:00Z', 1],
    ['2026-11-22T13:00:00Z', 6],
    ['2026-11-23T00:00:00Z', -1],
    ['2026-05-22T23:59:59Z', -1],
  ])('puts %s in bucket %i', (instant, index) => {
    const grid = createCalendarMonthGrid(day('2026-05-23'), day('2026-11-23'));
    expect(grid.indexOf(Date.parse(instant))).toBe(index);
  });
});
