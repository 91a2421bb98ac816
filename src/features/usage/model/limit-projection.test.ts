import { describe, expect, it } from 'vitest';
import { formatLimitShare, limitOutlook, limitShare } from './limit-projection';

const at = (iso: string) => Date.parse(iso);
// Nov 25, 12:00 UTC: 24.5 days of November gone, 5.5 left.
const NOW = at('2026-11-25T12:00:00Z');

describe('limitOutlook', () => {
  it.each([
    ['no limit', 100, null, null, { kind: 'no-limit' }],
    ['nothing used yet', 0, 1000, null, { kind: 'no-pace' }],
    // 245 traces in 24.5 days = 10 a day: 1,000 is far off, 300 is 5.5 days away (Dec 1 00:00).
    ['within the month at this pace', 245, 1000, null, { kind: 'within', projected: 300 }],
    // 20 a day: 520 reached in 1.5 days, Nov 27 00:00.
    [
      'reached at this pace on Nov 27',
      490,
      520,
      null,
      { kind: 'projected', atMs: at('2026-11-27T00:00:00Z') },
    ],
    // 49 more at 20 a day = 2.45 days: Nov 27 22:48, rounded up to 23:00 (never earlier).
    [
      'rounded up to the hour',
      490,
      539,
      null,
      { kind: 'projected', atMs: at('2026-11-27T23:00:00Z') },
    ],
    // 1 more at 20 a day = 72 minutes: 13:12, shown as 14:00.
    [
      'an hour and more away',
      490,
      491,
      null,
      { kind: 'projected', atMs: at('2026-11-25T14:00:00Z') },
    ],
    // A limit set just above the count: minutes away, said as such rather than as a past hour.
    ['within the hour', 4900, 4901, null, { kind: 'imminent' }],
    [
      'reached, with when',
      600,
      500,
      at('2026-11-20T14:05:00Z'),
      { kind: 'reached', atMs: at('2026-11-20T14:05:00Z') },
    ],
    ['exactly at the limit', 500, 500, null, { kind: 'reached', atMs: null }],
    ['a limit of zero', 0, 0, null, { kind: 'reached', atMs: null }],
  ] as const)('%s', (_label, used, limit, reachedAt, expected) => {
    expect(limitOutlook(used, limit, reachedAt, NOW)).toEqual(expected);
  });

  it('never names a time already past, at any minute of the month', () => {
    const start = at('2026-11-01T00:00:00Z');
    for (let minute = 1; minute < 30 * 24 * 60; minute += 37) {
      const nowMs = start + minute * 60_000;
      for (const [used, limit] of [
        [1_000, 1_001],
        [1_000, 1_050],
        [50_000, 60_000],
        [7, 9],
      ] as const) {
        const outlook = limitOutlook(used, limit, null, nowMs);
        if (outlook.kind === 'projected') expect(outlook.atMs).toBeGreaterThan(nowMs);
      }
    }
  });

  it('has no pace at the first instant of a month', () => {
    expect(limitOutlook(5, 10, null, at('2026-12-01T00:00:00Z'))).toEqual({ kind: 'no-pace' });
  });
});

describe('limitShare', () => {
  it.each([
    [250, 1000, 25],
    [1500, 1000, 150],
    [0, 0, 0],
    [3, 0, 100],
  ])('%i of %i is %d %%', (used, limit, share) => {
    expect(limitShare(used, limit)).toBe(share);
  });
});

describe('formatLimitShare', () => {
  it.each([
    [0, 1000, '0%'],
    [25, 1000, '2.5%'],
    [250, 1000, '25%'],
    [9_996, 10_000, '99.9%'],
    [10_000, 10_000, '100%'],
    [15_000, 10_000, '150%'],
  ])('%i of %i reads %s', (used, limit, text) => {
    expect(formatLimitShare(used, limit)).toBe(text);
  });
});
