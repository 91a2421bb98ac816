/**
 * ISO 8601 datetimes as FastAPI/pydantic accept them in a query string: a date
 * (`2026-01-05`, read as UTC midnight) or a date-time with `T` or a space, optional seconds and
 * fraction, and an optional `Z` / `±HH:MM` / `±HHMM` offset. A date-time without an offset is
 * read as UTC (never as the caller's local time).
 */
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Parses an ISO 8601 date or date-time to epoch milliseconds, or `undefined` when invalid. */
export function parseIsoDateTime(text: string): number | undefined {
  const match = ISO_PATTERN.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const base = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear undoes that.
  const date = new Date(base);
  date.setUTCFullYear(year);
  return date.getTime() - offsetMinutes(zone) * 60_000;
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return zone.startsWith('-') ? -minutes : minutes;
}
