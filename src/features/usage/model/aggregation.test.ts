import { describe, expect, it } from 'vitest';
import { aggregationsFor, viewAggregation, type Aggregation } from './aggregation';

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const range = (from: string, to: string) => ({ startMs: day(from), endMs: day(to) });

describe('viewAggregation', () => {
  it.each<[string, string, string, Aggregation | null, Aggregation]>([
    ['a zoomed day, hourly', '2026-11-14', '2026-11-15', 'hourly', 'hourly'],
    ['a day, default', '2026-11-14', '2026-11-15', null, 'daily'],
    ['7 days, hourly allowed', '2026-11-16', '2026-11-23', 'hourly', 'hourly'],
    // 168 bars is the most: a longer range falls back to its default, whatever the link says.
    ['30 days, hourly refused', '2026-10-24', '2026-11-23', 'hourly', 'daily'],
    ['3 months, weekly by default', '2026-08-23', '2026-11-23', null, 'weekly'],
    ['3 months, daily chosen', '2026-08-23', '2026-11-23', 'daily', 'daily'],
  ])('%s', (_name, from, to, chosen, shown) => {
    expect(viewAggregation(range(from, to), chosen)).toBe(shown);
  });

  it('a range under a day is hourly whatever is chosen', () => {
    const halfDay = { startMs: day('2026-11-14'), endMs: day('2026-11-14') + 12 * 3_600_000 };
    expect(viewAggregation(halfDay, 'weekly')).toBe('hourly');
  });

  it.each<[string, string, string, Aggregation[]]>([
    [
      'a year: every level but hourly',
      '2025-11-24',
      '2026-11-24',
      ['daily', 'weekly', 'monthly', 'calendar-month'],
    ],
    // 400 bars at most: 2 years of days would be 730.
    ['2 years: no daily', '2024-11-24', '2026-11-24', ['weekly', 'monthly', 'calendar-month']],
    // Calendar months are summed from daily data, 31 days a request: 48 requests is about 4 years.
    ['5 years: weeks (261) and 30-day buckets', '2021-11-24', '2026-11-24', ['weekly', 'monthly']],
    ['the longest range, 12,000 days: 30-day buckets', '2000-01-01', '2032-11-08', ['monthly']],
  ])('%s', (_name, from, to, offered) => {
    expect(aggregationsFor(range(from, to))).toEqual(offered);
  });

  it('offers hourly only up to a week', () => {
    expect(aggregationsFor(range('2026-11-16', '2026-11-23'))).toContain('hourly');
    expect(aggregationsFor(range('2026-11-15', '2026-11-23'))).not.toContain('hourly');
  });
});
