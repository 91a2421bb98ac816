import type { Stride } from './usage-schema';
import { DAY_MS, HOUR_MS } from './time';

/**
 * Spec table 2.2, applied to the exact duration `end - start` in (fractional) days:
 * `< 1` hourly; `1 ≤ d ≤ 31` daily; `31 < d ≤ 93` 7 days; `93 < d ≤ 366` 30 days; `> 366`
 * 365 days. So 31 days exactly is daily and 31.5 days is weekly: the table's "32 to 93" row
 * starts wherever the "1 to 31" row ends.
 */
export function strideForRange(startMs: number, endMs: number): Stride {
  const days = (endMs - startMs) / DAY_MS;
  if (days < 1) return { days: 0, hours: 1 };
  if (days <= 31) return { days: 1, hours: 0 };
  if (days <= 93) return { days: 7, hours: 0 };
  if (days <= 366) return { days: 30, hours: 0 };
  return { days: 365, hours: 0 };
}

export function strideMs(stride: Stride): number {
  return stride.days * DAY_MS + stride.hours * HOUR_MS;
}
