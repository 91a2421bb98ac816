import { monthAround } from './calendar-month-grid';
import { DAY_MS } from '@contracts/usage/time';

/** A projected end-of-month total for the current UTC month, with what it was built from. */
export interface MonthProjection {
  monthStartMs: number;
  monthEndMs: number;
  /** Traces from the month's start to now (today's partial day included). */
  monthToDate: number;
  /** Whole days of the month before today, whose average drives the projection. */
  completeDays: number;
  dailyAverage: number;
  /** Days (fractional) from now to the month's end. */
  remainingDays: number;
  projected: number;
}

/**
 * Run-rate projection: month to date, plus the daily average of the month's complete days for
 * the time left. Today's partial day counts in the month to date but not in the average (it
 * would pull the average down). Null on the 1st of a month: no complete day to average yet.
 * `dailyTotals` maps each UTC day start of this month (up to today) to its traces.
 */
export function projectMonth(
  dailyTotals: ReadonlyMap<number, number>,
  nowMs: number,
): MonthProjection | null {
  const month = monthAround(nowMs);
  const todayMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const completeDays = Math.round((todayMs - month.startMs) / DAY_MS);
  if (completeDays === 0) return null;
  let complete = 0;
  let monthToDate = 0;
  for (const [dayMs, traces] of dailyTotals) {
    if (dayMs < month.startMs || dayMs > nowMs) continue;
    monthToDate += traces;
    if (dayMs < todayMs) complete += traces;
  }
  const dailyAverage = complete / completeDays;
  const remainingDays = (month.endMs - nowMs) / DAY_MS;
  return {
    monthStartMs: month.startMs,
    monthEndMs: month.endMs,
    monthToDate,
    completeDays,
    dailyAverage,
    remainingDays,
    projected: Math.round(monthToDate + dailyAverage * remainingDays),
  };
}
