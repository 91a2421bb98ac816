import { MAX_LIMIT_VALUE } from '@contracts/usage/usage-limits';
import { formatCount } from '@/lib/format';

/**
 * The text fields of the limit forms, read and checked in words: a limit is a whole number of
 * traces (thousands separators allowed), thresholds a list of whole percents.
 */

/** Digits with optional thousands separators (`50000`, `50,000`, `50 000`, `50_000`). */
export const parseLimit = (text: string) => Number(text.trim().replace(/[,\s_]/g, ''));

/** What is wrong with a limit as typed, or true. */
export function checkLimit(text: string): string | true {
  if (text.trim() === '') return 'Enter the number of traces a month, like 50,000.';
  if (!/^\d[\d,\s_]*$/.test(text.trim())) {
    return 'Use a whole number of traces, without decimals or a minus sign.';
  }
  if (parseLimit(text) > MAX_LIMIT_VALUE) {
    return `That is more than the largest limit, ${formatCount(MAX_LIMIT_VALUE)}.`;
  }
  return true;
}

/** `50, 80, 100` (commas, spaces or `%` between) -> `[50, 80, 100]`, sorted, each once. */
export function parseThresholds(text: string): number[] {
  const values = text
    .split(/[\s,;%]+/)
    .filter((part) => part !== '')
    .map(Number);
  return [...new Set(values)].sort((a, b) => a - b);
}

/** What is wrong with a threshold list as typed (at most 10 whole percents, 1 to 100), or true. */
export function checkThresholds(text: string): string | true {
  const parts = text.split(/[\s,;%]+/).filter((part) => part !== '');
  if (parts.length === 0) return 'Enter at least one percentage, like 50, 80, 100.';
  const wrong = parts.find((part) => !/^\d+$/.test(part) || Number(part) < 1 || Number(part) > 100);
  if (wrong !== undefined) {
    return `${wrong} is not a whole percentage from 1 to 100.`;
  }
  if (new Set(parts.map(Number)).size > 10) return 'Use at most 10 percentages.';
  return true;
}

/** A threshold list as the field shows it. */
export const formatThresholds = (values: readonly number[]) => values.join(', ');
