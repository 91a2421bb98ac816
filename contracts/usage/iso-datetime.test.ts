import { describe, expect, it } from 'vitest';
import { parseIsoDateTime } from './iso-datetime';

describe('parseIsoDateTime', () => {
  it.each([
    ['2026-01-05', '2026-01-05T00:00:00.000Z'],
    ['2026-01-05T10:30:00Z', '2026-01-05T10:30:00.000Z'],
    ['2026-01-05T10:30:00.123456Z', '2026-01-05T10:30:00.123Z'],
    ['2026-01-05T10:30', '2026-01-05T10:30:00.000Z'],
    ['2026-01-05 10:30:15', '2026-01-05T10:30:15.000Z'],
    ['2026-01-05T10:30:00+02:00', '2026-01-05T08:30:00.000Z'],
    ['2026-01-05T10:30:00-0130', '2026-01-05T12:00:00.000Z'],
    ['2028-02-29T00:00:00z', '2028-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('parses %s as %s', (input, expected) => {
    const parsed = parseIsoDateTime(input);
    expect(parsed === undefined ? undefined : new Date(parsed).toISOString()).toBe(expected);
  });

  it.each([
    [''],
    ['yesterday'],
    ['2026-13-01'],
    ['2026-02-30'],
    ['2027-02-29T00:00:00Z'],
    ['2026-01-05T24:00:00Z'],
    ['2026-01-05T10:60:00Z'],
    ['2026-01-05T10:30:00 00:00'],
    ['1767571200000'],
    ['2026-1-5'],
    ['+2026-01-05'],
  ])('rejects %j', (input) => {
    expect(parseIsoDateTime(input)).toBeUndefined();
  });
});
