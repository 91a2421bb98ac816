import { describe, expect, it } from 'vitest';
import { splitIntoWeeks } from './week-segments';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/** Every day of the ranges, and whether it came from a week (each day at most once). */
function daysOf(split: ReturnType<typeof splitIntoWeeks>): Map<number, 'week' | 'day'> {
  const out = new Map<number, 'week' | 'day'>();
  for (const [kind, ranges] of [
    ['week', split.weeks],
    ['day', split.days],
  ] as const) {
    for (const { from, to } of ranges) {
      for (let d = from; d < to; d += 1) {
        expect(out.has(d)).toBe(false);
        out.set(d, kind);
      }
    }
  }
  return out;
}

describe('splitIntoWeeks', () => {
  it.each([
    // [from, to, origin, stride]
    ['2025-11-25', '2026-11-25', '2025-11-25', 30],
    ['2025-11-27', '2026-11-20', '2025-11-25', 30],
    ['2024-01-01', '2026-12-01', '2024-01-01', 365],
    ['2026-01-05', '2026-03-15', '2026-01-05', 7],
    ['2026-01-20', '2026-02-09', '2026-01-20', 1],
    ['2026-01-01', '2026-01-03', '2026-01-01', 30],
  ])(
    '%s .. %s from %s by %i: every day once, weeks inside one bucket',
    (from, to, origin, stride) => {
      const split = splitIntoWeeks(day(from), day(to), day(origin), stride);
      expect([...daysOf(split).keys()].sort((a, b) => a - b)).toEqual(
        Array.from({ length: day(to) - day(from) }, (_, i) => day(from) + i),
      );
      const bucketOf = (d: number) => Math.floor((d - day(origin)) / stride);
      for (const { from: a, to: b } of split.weeks) {
        expect((b - a) % 7).toBe(0);
        for (let monday = a; monday < b; monday += 7) {
          expect(new Date(monday * 86_400_000).getUTCDay()).toBe(1);
          expect(bucketOf(monday + 6)).toBe(bucketOf(monday));
        }
      }
    },
  );

  it('reads a year of 30-day buckets mostly from weeks, in few ranges', () => {
    const split = splitIntoWeeks(day('2025-11-25'), day('2026-11-25'), day('2025-11-25'), 30);
    const kinds = [...daysOf(split).values()];
    expect(kinds.filter((kind) => kind === 'week').length).toBeGreaterThanOrEqual(7 * 3 * 12);
    expect(split.days.length + split.weeks.length).toBeLessThanOrEqual(2 * 13 + 1);
  });

  it('reads days only for daily strides and for weekly ones not starting on a Monday', () => {
    expect(splitIntoWeeks(10, 40, 10, 7)).toEqual({ weeks: [], days: [{ from: 10, to: 40 }] });
    expect(splitIntoWeeks(10, 40, 10, 1)).toEqual({ weeks: [], days: [{ from: 10, to: 40 }] });
    expect(splitIntoWeeks(11, 25, 11, 7).weeks).toEqual([{ from: 11, to: 25 }]);
  });
});
