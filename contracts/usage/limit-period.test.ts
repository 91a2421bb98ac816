import { describe, expect, it } from 'vitest';
import { countsAgainst, limitMonth, retryAfterHeader, secondsUntilReset } from './limit-period';

const at = (iso: string) => Date.parse(iso);

describe('limitMonth', () => {
  it.each([
    ['2026-11-25T08:00:00Z', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z'],
    ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z'],
    ['2026-11-30T23:59:59.999Z', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z'],
    ['2026-12-31T23:00:00Z', '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'],
    ['2028-02-29T12:00:00Z', '2028-02-01T00:00:00Z', '2028-03-01T00:00:00Z'],
    // 23:30 on Nov 30 in New York is already December in UTC: the month is UTC's.
    ['2026-12-01T04:30:00Z', '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'],
  ])('%s is in [%s, %s)', (now, start, end) => {
    expect(limitMonth(at(now))).toEqual({ startMs: at(start), endMs: at(end) });
  });
});

describe('the reset', () => {
  it.each([
    ['2026-11-30T23:59:59Z', 1, 'Tue, 01 Dec 2026 00:00:00 GMT'],
    ['2026-11-30T23:59:59.900Z', 1, 'Tue, 01 Dec 2026 00:00:00 GMT'],
    ['2026-11-29T00:00:00Z', 2 * 86_400, 'Tue, 01 Dec 2026 00:00:00 GMT'],
    ['2026-12-31T12:00:00Z', 12 * 3600, 'Fri, 01 Jan 2027 00:00:00 GMT'],
  ])('from %s is %i s away, Retry-After %s', (now, seconds, header) => {
    expect(secondsUntilReset(at(now))).toBe(seconds);
    expect(retryAfterHeader(at(now))).toBe(header);
  });
});

describe('countsAgainst', () => {
  it.each([
    ['monthly_traces', 'short', true],
    ['monthly_traces', 'long', true],
    ['monthly_longlived_traces', 'short', false],
    ['monthly_longlived_traces', 'long', true],
  ] as const)('%s counts a %s-lived trace: %s', (type, tier, expected) => {
    expect(countsAgainst(type, tier)).toBe(expected);
  });
});
