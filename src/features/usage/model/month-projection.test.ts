import { describe, expect, it } from 'vitest';
import { projectMonth } from './month-projection';

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);

/** `count` days from `from`, each with `traces`. */
function days(from: string, count: number, traces: number): [number, number][] {
  return Array.from({ length: count }, (_, k) => [day(from) + k * 86_400_000, traces]);
}

describe('projectMonth', () => {
  it.each([
    // Nov 22 at noon: 21 complete days of 100, today 40 so far; 8.5 days left at 100 a day.
    [
      '2026-11-22T12:00:00Z',
      [...days('2026-11-01', 21, 100), [day('2026-11-22'), 40]],
      2100 + 40,
      21,
      100,
      8.5,
      2990,
    ],
    // Feb (28 days) on the 28th at 00:00: 27 complete days of 10, one day left.
    ['2026-02-28T00:00:00Z', days('2026-02-01', 27, 10), 270, 27, 10, 1, 280],
    // Days before the month (a range reaching back) do not count.
    [
      '2026-11-03T00:00:00Z',
      [...days('2026-10-30', 2, 999), ...days('2026-11-01', 2, 6)],
      12,
      2,
      6,
      28,
      180,
    ],
    // Nothing measured yet this month: a projection of 0, not a guess.
    ['2026-11-10T06:00:00Z', [], 0, 9, 0, 20.75, 0],
  ] as const)(
    'at %s',
    (now, totals, monthToDate, completeDays, dailyAverage, remainingDays, projected) => {
      const projection = projectMonth(new Map(totals as [number, number][]), Date.parse(now));
      expect(projection).toMatchObject({
        monthToDate,
        completeDays,
        dailyAverage,
        remainingDays,
        projected,
      });
    },
  );

  it('has no projection on the 1st: there is no complete day to average', () => {
    expect(
      projectMonth(new Map([[day('2026-11-01'), 500]]), Date.parse('2026-11-01T18:00:00Z')),
    ).toBeNull();
  });
});
