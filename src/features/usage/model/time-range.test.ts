import { describe, expect, it } from 'vitest';
import {
  parseUtcDate,
  describeCustomRangeProblem,
  resolveCustomRange,
  resolvePresetRange,
  type RangePreset,
} from './time-range';

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('resolvePresetRange', () => {
  it.each<[Exclude<RangePreset, 'custom'>, string, string, string]>([
    ['7d', '2026-11-22T15:30:00Z', '2026-11-16', '2026-11-23'],
    ['30d', '2026-11-22T15:30:00Z', '2026-10-24', '2026-11-23'],
    ['3m', '2026-11-22T00:00:00Z', '2026-08-23', '2026-11-23'],
    ['6m', '2026-11-22T23:59:59Z', '2026-05-23', '2026-11-23'],
    ['1y', '2026-11-22T08:00:00Z', '2025-11-23', '2026-11-23'],
    // Month ends clamp: the range ends at June 1, so three months back is March 1.
    ['3m', '2026-05-31T12:00:00Z', '2026-03-01', '2026-06-01'],
    // Ending at May 31 (today May 30): three months back clamps to the last day of February.
    ['3m', '2026-05-30T12:00:00Z', '2026-02-28', '2026-05-31'],
    ['3m', '2028-05-30T12:00:00Z', '2028-02-29', '2028-05-31'],
    // Leap day: a year back from March 1, 2028 is March 1, 2027; from Feb 29, 2028 is Feb 28.
    ['1y', '2028-02-29T10:00:00Z', '2027-03-01', '2028-03-01'],
    ['1y', '2028-02-28T10:00:00Z', '2027-02-28', '2028-02-29'],
    // Calendar months in UTC: this month to date (today included), last month whole.
    ['this-month', '2026-11-22T15:30:00Z', '2026-11-01', '2026-11-23'],
    ['this-month', '2026-11-01T00:00:00Z', '2026-11-01', '2026-11-02'],
    ['this-month', '2026-11-30T23:59:59Z', '2026-11-01', '2026-12-01'],
    ['last-month', '2026-11-22T15:30:00Z', '2026-10-01', '2026-11-01'],
    ['last-month', '2026-01-10T00:00:00Z', '2025-12-01', '2026-01-01'],
    ['last-month', '2028-03-01T00:00:00Z', '2028-02-01', '2028-03-01'],
  ])('%s at %s is [%s, %s)', (preset, now, start, end) => {
    const range = resolvePresetRange(preset, Date.parse(now));
    expect([iso(range.startMs), iso(range.endMs)]).toEqual([start, end]);
  });

  it('does not depend on the time of day, so the query key is stable all day', () => {
    const morning = resolvePresetRange('30d', Date.parse('2026-11-22T00:00:01Z'));
    const night = resolvePresetRange('30d', Date.parse('2026-11-22T23:59:59Z'));
    expect(morning).toEqual(night);
  });
});

describe('resolveCustomRange', () => {
  it.each([
    ['2026-01-05', '2026-01-05', '2026-01-05T00:00:00.000Z', '2026-01-06T00:00:00.000Z'],
    ['2026-02-01', '2026-02-28', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['2028-02-28', '2028-02-29', '2028-02-28T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
    // Exactly MAX_RANGE_DAYS (12,000 days).
    ['2000-01-01', '2032-11-07', '2000-01-01T00:00:00.000Z', '2032-11-08T00:00:00.000Z'],
  ])('%s to %s covers whole UTC days', (from, to, start, end) => {
    const range = resolveCustomRange(from, to);
    expect(
      range && [new Date(range.startMs).toISOString(), new Date(range.endMs).toISOString()],
    ).toEqual([start, end]);
  });

  it.each([
    ['2026-03-02', '2026-03-01'],
    ['2026-02-30', '2026-03-01'],
    ['2027-02-29', '2027-03-01'],
    ['yesterday', '2026-03-01'],
    ['2026-3-1', '2026-03-05'],
    // 12,001 days: longer than the screen shows (MAX_RANGE_DAYS).
    ['2000-01-01', '2032-11-08'],
    ['2020-01-01', '9999-12-31'],
  ])('rejects %s to %s', (from, to) => {
    expect(resolveCustomRange(from, to)).toBeUndefined();
  });
});

describe('parseUtcDate', () => {
  it.each([
    ['2026-01-05', Date.UTC(2026, 0, 5)],
    ['2026-13-01', undefined],
    ['', undefined],
  ])('%s', (text, expected) => {
    expect(parseUtcDate(text)).toBe(expected);
  });
});

describe('describeCustomRangeProblem', () => {
  it.each([
    ['2026-03-01', '2026-03-31', null],
    ['2026-03-01', '2026-03-01', null],
    [null, '2026-03-31', 'Choose a start and an end date to see usage for a custom range.'],
    [
      '2026-03-31',
      '2026-03-01',
      'The end date (2026-03-01) is before the start date (2026-03-31). Choose an end on or after the start.',
    ],
    ['2026-02-30', '2026-03-01', 'The start date "2026-02-30" is not a date (YYYY-MM-DD).'],
    ['2026-02-01', 'soon', 'The end date "soon" is not a date (YYYY-MM-DD).'],
    ['2000-01-01', '2032-11-07', null],
    [
      '2020-01-01',
      '9999-12-31',
      'This range is 2,914,635 days long; the console shows at most 12,000 days (about 32 years) at a time. Choose a later start or an earlier end.',
    ],
  ])('from %s to %s', (from, to, expected) => {
    expect(describeCustomRangeProblem(from, to)).toBe(expected);
  });
});
