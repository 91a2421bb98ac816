import { describe, expect, it } from 'vitest';
import { strideForRange } from './stride';

const t = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const start = t('2026-02-01T00:00:00Z');

describe('strideForRange', () => {
  it.each([
    ['1 ms', 1, { days: 0, hours: 1 }],
    ['23h59m', DAY - 60_000, { days: 0, hours: 1 }],
    ['1 day', DAY, { days: 1, hours: 0 }],
    ['30 days', 30 * DAY, { days: 1, hours: 0 }],
    ['31 days', 31 * DAY, { days: 1, hours: 0 }],
    ['31 days + 1 ms', 31 * DAY + 1, { days: 7, hours: 0 }],
    ['31.5 days', 31.5 * DAY, { days: 7, hours: 0 }],
    ['32 days', 32 * DAY, { days: 7, hours: 0 }],
    ['93 days', 93 * DAY, { days: 7, hours: 0 }],
    ['93 days + 1 ms', 93 * DAY + 1, { days: 30, hours: 0 }],
    ['94 days', 94 * DAY, { days: 30, hours: 0 }],
    ['366 days', 366 * DAY, { days: 30, hours: 0 }],
    ['366 days + 1 ms', 366 * DAY + 1, { days: 365, hours: 0 }],
    ['367 days', 367 * DAY, { days: 365, hours: 0 }],
    ['3 years', 3 * 365 * DAY, { days: 365, hours: 0 }],
  ])('%s -> %j', (_label, duration, expected) => {
    expect(strideForRange(start, start + duration)).toEqual(expected);
  });
});
