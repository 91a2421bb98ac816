const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The date-fns tokens the console uses; anything else in a pattern is copied as is. */
export type UtcPatternToken = 'yyyy' | 'MMMM' | 'MMM' | 'MM' | 'dd' | 'd' | 'HH' | 'mm' | 'ss';
const TOKEN = /yyyy|MMMM|MMM|MM|dd|d|HH|mm|ss/g;
const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A UTC instant as text (the caller says "UTC" once nearby), with date-fns' token meanings (`'MMM d, yyyy HH:mm'`), English month
 * names. Written out instead of date-fns `format`, whose full token and locale machinery is
 * ~5 KB of brotli on the usage tab's first load (budget 200 KB) for the nine tokens used here.
 */
export function formatUtc(ms: number, pattern: string): string {
  const date = new Date(ms);
  const month = date.getUTCMonth();
  const fields: Record<UtcPatternToken, () => string> = {
    yyyy: () => String(date.getUTCFullYear()),
    MMMM: () => MONTHS[month] ?? '',
    MMM: () => (MONTHS[month] ?? '').slice(0, 3),
    MM: () => pad(month + 1),
    dd: () => pad(date.getUTCDate()),
    d: () => String(date.getUTCDate()),
    HH: () => pad(date.getUTCHours()),
    mm: () => pad(date.getUTCMinutes()),
    ss: () => pad(date.getUTCSeconds()),
  };
  return pattern.replace(TOKEN, (token) => fields[token as UtcPatternToken]());
}
