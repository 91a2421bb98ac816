import { describe, expect, it } from 'vitest';
import { planRange, type RangePlan } from './time-segments';

const t = (iso: string) => Date.parse(iso);
const i = (from: string, to: string) => ({ from: t(from), to: t(to) });

describe('planRange', () => {
  it.each<[string, string, string, boolean, RangePlan]>([
    [
      'whole days only',
      '2026-02-01T00:00:00Z',
      '2026-02-05T00:00:00Z',
      true,
      { rollupDays: i('2026-02-01T00:00:00Z', '2026-02-05T00:00:00Z'), rawIntervals: [] },
    ],
    [
      'partial days at both ends',
      '2026-02-01T10:00:00Z',
      '2026-02-05T06:30:00Z',
      true,
      {
        rollupDays: i('2026-02-02T00:00:00Z', '2026-02-05T00:00:00Z'),
        rawIntervals: [
          i('2026-02-01T10:00:00Z', '2026-02-02T00:00:00Z'),
          i('2026-02-05T00:00:00Z', '2026-02-05T06:30:00Z'),
        ],
      },
    ],
    [
      'no whole day inside',
      '2026-02-01T10:00:00Z',
      '2026-02-02T09:00:00Z',
      true,
      { rollupDays: null, rawIntervals: [i('2026-02-01T10:00:00Z', '2026-02-02T09:00:00Z')] },
    ],
    [
      'hourly: raw only',
      '2026-02-01T00:00:00Z',
      '2026-02-01T12:00:00Z',
      false,
      { rollupDays: null, rawIntervals: [i('2026-02-01T00:00:00Z', '2026-02-01T12:00:00Z')] },
    ],
    [
      'empty range',
      '2026-02-02T00:00:00Z',
      '2026-02-01T00:00:00Z',
      true,
      { rollupDays: null, rawIntervals: [] },
    ],
  ])('%s', (_label, from, to, useRollup, expected) => {
    expect(planRange(t(from), t(to), useRollup)).toEqual(expected);
  });
});
