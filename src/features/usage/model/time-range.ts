import { UTCDate } from '@date-fns/utc';
import { addDays, startOfMonth, subDays, subMonths } from 'date-fns';
import { formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import { DAY_MS } from '@contracts/usage/time';

export const RANGE_PRESETS = [
  '7d',
  '30d',
  'this-month',
  'last-month',
  '3m',
  '6m',
  '1y',
  'custom',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const RANGE_PRESET_LABELS: Record<RangePreset, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  'this-month': 'This month',
  'last-month': 'Last month',
  '3m': 'Last 3 months',
  '6m': 'Last 6 months',
  '1y': 'Last year',
  custom: 'Custom',
};

/** A half-open UTC range `[startMs, endMs)`. */
export interface TimeRange {
  startMs: number;
  endMs: number;
}

/** Next UTC midnight after `nowMs`: presets end there, so today's (partial) day is included. */
export function endOfTodayUtc(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

/**
 * A preset as whole UTC days ending with today: 7 and 30 days back, or 3, 6 and 12 calendar
 * months back (date-fns clamps month ends: May 31 minus 3 months is Feb 28 or 29). "This month"
 * is the current UTC month to date; "Last month" the whole UTC month before it (an invoice).
 */
export function resolvePresetRange(preset: Exclude<RangePreset, 'custom'>, nowMs: number) {
  const end = new UTCDate(endOfTodayUtc(nowMs));
  const monthStart = startOfMonth(new UTCDate(nowMs));
  if (preset === 'this-month') return { startMs: monthStart.getTime(), endMs: end.getTime() };
  if (preset === 'last-month') {
    return { startMs: subMonths(monthStart, 1).getTime(), endMs: monthStart.getTime() };
  }
  const start = {
    '7d': () => subDays(end, 7),
    '30d': () => subDays(end, 30),
    '3m': () => subMonths(end, 3),
    '6m': () => subMonths(end, 6),
    '1y': () => subMonths(end, 12),
  }[preset]();
  return { startMs: start.getTime(), endMs: end.getTime() } satisfies TimeRange;
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` as UTC midnight, or undefined when it is not a real calendar date. */
export function parseUtcDate(text: string): number | undefined {
  if (!DATE_PATTERN.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || formatUtcDate(ms) !== text) return undefined;
  return ms;
}

export function formatUtcDate(ms: number): string {
  return formatUtc(ms, 'yyyy-MM-dd');
}

/**
 * The longest range the screen shows: 400 bars of its coarsest buckets (30 days), about 32 years.
 * A link to 9999-12-31 would otherwise ask for ~97,000 buckets in ~8,000 requests.
 */
export const MAX_RANGE_DAYS = 12_000;

/** Days from `start` to the end of `lastDay` (both UTC midnights), both included. */
const daysIncluded = (start: number, lastDay: number) => (lastDay - start) / DAY_MS + 1;

/**
 * A custom range from two inclusive UTC dates: `from` 00:00 to the end of `to` (the next
 * midnight). Undefined when a date is invalid, `to` is before `from` or the range is longer than
 * `MAX_RANGE_DAYS`.
 */
export function resolveCustomRange(from: string, to: string): TimeRange | undefined {
  const start = parseUtcDate(from);
  const lastDay = parseUtcDate(to);
  if (start === undefined || lastDay === undefined || lastDay < start) return undefined;
  if (daysIncluded(start, lastDay) > MAX_RANGE_DAYS) return undefined;
  return { startMs: start, endMs: addDays(new UTCDate(lastDay), 1).getTime() };
}

/** Why two valid dates make no range the screen shows (too long), in words; null when fine. */
export function describeRangeLength(start: number, lastDay: number): string | null {
  const days = daysIncluded(start, lastDay);
  if (days <= MAX_RANGE_DAYS) return null;
  return (
    `This range is ${formatCount(days)} days long; the console shows at most ` +
    `${formatCount(MAX_RANGE_DAYS)} days (about 32 years) at a time. ` +
    'Choose a later start or an earlier end.'
  );
}

/** Why a custom range from the URL cannot be shown, in words; null when it can. */
export function describeCustomRangeProblem(from: string | null, to: string | null): string | null {
  if (!from || !to) return 'Choose a start and an end date to see usage for a custom range.';
  const start = parseUtcDate(from);
  const lastDay = parseUtcDate(to);
  if (start === undefined) return `The start date "${from}" is not a date (YYYY-MM-DD).`;
  if (lastDay === undefined) return `The end date "${to}" is not a date (YYYY-MM-DD).`;
  if (lastDay < start) {
    return `The end date (${to}) is before the start date (${from}). Choose an end on or after the start.`;
  }
  return describeRangeLength(start, lastDay);
}
