import { DAY_MS, HOUR_MS } from '@contracts/usage/time';

const STEPS = [1, 2, 2.5, 5, 10] as const;

/** Round Y ticks for a stacked bar chart: 0 up to the first round value at or above `max`. */
export interface YTicks {
  ticks: number[];
  /** The axis top: the last tick. */
  top: number;
}

/**
 * At most `maxTicks` round ticks (1, 2, 2.5 or 5 × a power of ten apart, whole numbers only)
 * covering 0..max. The axis ends on a tick, so every gridline is a labelled round figure.
 */
export function niceYTicks(max: number, maxTicks = 5): YTicks {
  if (!(max > 0)) return { ticks: [0, 1], top: 1 };
  const rough = max / Math.max(1, maxTicks - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  // Counts are whole: no step of 2.5 or below 1, which would label fractions of a trace.
  const factor =
    STEPS.find((step) => step * power >= rough && Number.isInteger(step * power)) ?? 10;
  const step = Math.max(1, factor * power);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= top + step / 2; value += step) ticks.push(Math.round(value));
  return { ticks, top };
}

const UNITS = [
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'K' },
] as const;
const countFormat = new Intl.NumberFormat('en-US');

/**
 * A tick label that is the tick's exact value: 6.5K for 6,500 and 1.25K for 1,250 (never 1.3K),
 * and the full count when a short form would round (1,234).
 */
export function formatTickValue(value: number): string {
  const unit = UNITS.find(({ size }) => Math.abs(value) >= size);
  if (!unit) return countFormat.format(value);
  const scaled = value / unit.size;
  // Two decimals at most, and only when they are exact.
  if (Math.abs(Math.round(scaled * 100) - scaled * 100) > 1e-9) return countFormat.format(value);
  return `${Number(scaled.toFixed(2))}${unit.suffix}`;
}

const HOUR_STEPS = [1, 2, 3, 6, 12, 24] as const;

/**
 * Ticks for hourly buckets: every `n` hours with `n` dividing a day (1, 2, 3, 6, 12, 24), so a
 * tick always falls on midnight UTC and the labels read 00:00, 06:00, 12:00… At most `maxTicks`:
 * when even one a day is too many (a week on a phone), every second, third… midnight from the
 * first, rather than labels that overlap.
 */
export function hourlyTicks(buckets: readonly number[], maxTicks: number): number[] {
  const room = Math.max(1, maxTicks);
  const everyHours = HOUR_STEPS.find((step) => Math.ceil(buckets.length / step) <= room);
  if (everyHours !== undefined) {
    return buckets.filter((start) => (start / HOUR_MS) % everyHours === 0);
  }
  const midnights = buckets.filter((start) => start % DAY_MS === 0);
  const everyDays = Math.ceil(midnights.length / room);
  return midnights.filter((_start, index) => index % everyDays === 0);
}
