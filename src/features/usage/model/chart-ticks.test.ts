import { describe, expect, it } from 'vitest';
import { formatTickValue, hourlyTicks, niceYTicks } from './chart-ticks';

describe('niceYTicks', () => {
  it.each([
    // The axis: 0 / 6.5K / 13K / 20K / 26K, where "20K" marked 19,500.
    [25_800, [0, 10_000, 20_000, 30_000]],
    [19_500, [0, 5_000, 10_000, 15_000, 20_000]],
    [1_350, [0, 500, 1_000, 1_500]],
    [9, [0, 5, 10]],
    [4, [0, 1, 2, 3, 4]],
    [1, [0, 1]],
    [0, [0, 1]],
    [2_400_000, [0, 1_000_000, 2_000_000, 3_000_000]],
    [11_000, [0, 5_000, 10_000, 15_000]],
    [9_000, [0, 2_500, 5_000, 7_500, 10_000]],
  ])('max %d -> %j', (max, ticks) => {
    const result = niceYTicks(max);
    expect(result.ticks).toEqual(ticks);
    expect(result.top).toBe(ticks.at(-1));
    expect(result.top).toBeGreaterThanOrEqual(max);
  });

  it.each([7, 123, 4_567, 98_765, 1_234_567])('max %d: at most 6 whole, even ticks', (max) => {
    const { ticks } = niceYTicks(max);
    expect(ticks.length).toBeLessThanOrEqual(6);
    const step = ticks[1] ?? 0;
    ticks.forEach((tick, index) => {
      expect(Number.isInteger(tick)).toBe(true);
      expect(tick).toBe(index * step);
    });
  });
});

describe('formatTickValue', () => {
  it.each([
    [0, '0'],
    [500, '500'],
    [1_000, '1K'],
    [1_250, '1.25K'],
    [1_350, '1.35K'],
    [1_234, '1,234'],
    [6_500, '6.5K'],
    [19_500, '19.5K'],
    [20_000, '20K'],
    [2_500_000, '2.5M'],
    [3_000_000_000, '3B'],
  ])('%d -> %s', (value, label) => {
    expect(formatTickValue(value)).toBe(label);
  });
});

describe('hourlyTicks', () => {
  const midnight = Date.parse('2026-11-24T00:00:00Z');
  const hours = (count: number, from = midnight) =>
    Array.from({ length: count }, (_, index) => from + index * 3_600_000);
  const hhmm = (ticks: number[]) => ticks.map((ms) => new Date(ms).toISOString().slice(11, 16));

  it.each([
    [
      'a day, room for 12',
      hours(24),
      12,
      [
        '00:00',
        '02:00',
        '04:00',
        '06:00',
        '08:00',
        '10:00',
        '12:00',
        '14:00',
        '16:00',
        '18:00',
        '20:00',
        '22:00',
      ],
    ],
    ['a day, room for 5', hours(24), 5, ['00:00', '06:00', '12:00', '18:00']],
    [
      'two days, room for 8',
      hours(48),
      8,
      ['00:00', '06:00', '12:00', '18:00', '00:00', '06:00', '12:00', '18:00'],
    ],
    ['a week, room for 8', hours(168), 8, Array.from({ length: 7 }, () => '00:00')],
    // A week on a phone: every second midnight from the first, not seven overlapping dates.
    ['a week, room for 4', hours(168), 4, Array.from({ length: 4 }, () => '00:00')],
    ['a week from 13:00, room for 2', hours(168, midnight + 13 * 3_600_000), 2, ['00:00', '00:00']],
    // Starting at 13:00, the first tick waits for a round hour: never every 16 hours from 13:00.
    [
      'from 13:00, room for 4',
      hours(24, midnight + 13 * 3_600_000),
      4,
      ['18:00', '00:00', '06:00', '12:00'],
    ],
  ])('%s', (_name, buckets, maxTicks, expected) => {
    expect(hhmm(hourlyTicks(buckets, maxTicks))).toEqual(expected);
  });

  it('steps a week by whole days from its first midnight when a tick a day is too many', () => {
    const ticks = hourlyTicks(hours(168), 4);
    expect(ticks[0]).toBe(midnight);
    expect(ticks.slice(1).map((tick, index) => tick - (ticks[index] ?? 0))).toEqual([
      2 * 86_400_000,
      2 * 86_400_000,
      2 * 86_400_000,
    ]);
  });
});
