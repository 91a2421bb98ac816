import { describe, expect, it } from 'vitest';
import { planComparison } from './measured-comparison';

const FLOOR = Date.parse('2026-01-05T00:00:00Z');
const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const range = (from: string, to: string) => ({ startMs: day(from), endMs: day(to) });

describe('planComparison', () => {
  it.each([
    // Last 30 days in November: the previous 30 days are all measured.
    [
      '2026-10-24',
      '2026-11-23',
      FLOOR,
      ['2026-09-24', '2026-10-24'],
      ['2026-10-24', '2026-11-23'],
      30,
      false,
    ],
    // Last 6 months (184 days): the previous 184 days start 2025-11-20, 46 of them before the
    // floor, so the last 138 days of each period are compared.
    [
      '2026-05-23',
      '2026-11-23',
      FLOOR,
      ['2026-01-05', '2026-05-23'],
      ['2026-07-08', '2026-11-23'],
      138,
      true,
    ],
    // The previous period starts exactly on the floor: nothing to clip.
    [
      '2026-02-04',
      '2026-03-06',
      FLOOR,
      ['2026-01-05', '2026-02-04'],
      ['2026-02-04', '2026-03-06'],
      30,
      false,
    ],
    // The previous period ends one day after the floor: one measured day each.
    [
      '2026-01-06',
      '2026-02-05',
      FLOOR,
      ['2026-01-05', '2026-01-06'],
      ['2026-02-04', '2026-02-05'],
      1,
      true,
    ],
    // Self-hosted (no floor): the whole previous period counts, however early.
    [
      '2025-11-23',
      '2026-11-23',
      null,
      ['2024-11-23', '2025-11-23'],
      ['2025-11-23', '2026-11-23'],
      365,
      false,
    ],
  ] as const)(
    '[%s, %s) with floor %s compares %j with %j over %i days',
    (from, to, floor, previous, current, days, clipped) => {
      const plan = planComparison(range(from, to), floor);
      if (plan.kind !== 'measured') throw new Error(`expected a measured plan, got ${plan.kind}`);
      expect([iso(plan.previous.startMs), iso(plan.previous.endMs)]).toEqual(previous);
      expect([iso(plan.current.startMs), iso(plan.current.endMs)]).toEqual(current);
      expect(plan.days).toBe(days);
      expect(plan.clipped).toBe(clipped);
    },
  );

  it.each([
    // Last year from November 2026: the previous year ends 2025-11-23, before the floor.
    ['2025-11-23', '2026-11-23'],
    // The previous period ends exactly on the floor.
    ['2026-01-05', '2026-02-04'],
    ['2025-12-01', '2026-01-31'],
  ])('[%s, %s) has no measured previous period', (from, to) => {
    expect(planComparison(range(from, to), FLOOR)).toEqual({ kind: 'unmeasured', floorMs: FLOOR });
  });
});
