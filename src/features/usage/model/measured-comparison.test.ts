import { describe, expect, it } from 'vitest';
import { planComparison } from './measured-comparison';

const FLOOR = Date.parse('2026-01-05T00:00:00Z');
const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const range = (from: string, to: string) => ({ startMs: day(from), endMs: day(to) });
/** A now after every range of the table: whole periods are compared. */
const LATER = day('2030-01-01');
const at = (ms: number) => new Date(ms).toISOString().slice(0, 16);

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
      const plan = planComparison(range(from, to), floor, LATER);
      if (plan.kind !== 'measured') throw new Error(`expected a measured plan, got ${plan.kind}`);
      expect([iso(plan.previous.startMs), iso(plan.previous.endMs)]).toEqual(previous);
      expect([iso(plan.current.startMs), iso(plan.current.endMs)]).toEqual(current);
      expect(plan.days).toBe(days);
      expect(plan.clipped).toBe(clipped);
      expect(plan.toMs).toBeNull();
    },
  );

  it.each([
    // Last year from November 2026: the previous year ends 2025-11-23, before the floor.
    ['2025-11-23', '2026-11-23'],
    // The previous period ends exactly on the floor.
    ['2026-01-05', '2026-02-04'],
    ['2025-12-01', '2026-01-31'],
  ])('[%s, %s) has no measured previous period', (from, to) => {
    expect(planComparison(range(from, to), FLOOR, LATER)).toEqual({
      kind: 'unmeasured',
      floorMs: FLOOR,
    });
  });

  it.each([
    // Today, half gone: its first 13:35 against the same hours of yesterday, not all of it.
    [
      '2026-11-24',
      '2026-11-25',
      '2026-11-24T13:35:42Z',
      ['2026-11-23T00:00', '2026-11-23T13:35'],
      ['2026-11-24T00:00', '2026-11-24T13:35'],
      false,
    ],
    // Last 30 days ending tonight.
    [
      '2026-10-26',
      '2026-11-25',
      '2026-11-24T13:35:00Z',
      ['2026-09-26T00:00', '2026-10-25T13:35'],
      ['2026-10-26T00:00', '2026-11-24T13:35'],
      false,
    ],
    // Last 6 months (185 days) at noon: the floor clips the previous side to 138.5 days, and
    // the current side is the 138.5 days up to now.
    [
      '2026-05-24',
      '2026-11-25',
      '2026-11-24T12:00:00Z',
      ['2026-01-05T00:00', '2026-05-23T12:00'],
      ['2026-07-09T00:00', '2026-11-24T12:00'],
      true,
    ],
  ] as const)(
    '[%s, %s) at %s compares %j with %j (to the same minute)',
    (from, to, now, previous, current, clipped) => {
      const plan = planComparison(range(from, to), FLOOR, Date.parse(now));
      if (plan.kind !== 'measured') throw new Error(`expected a measured plan, got ${plan.kind}`);
      expect([at(plan.previous.startMs), at(plan.previous.endMs)]).toEqual(previous);
      expect([at(plan.current.startMs), at(plan.current.endMs)]).toEqual(current);
      expect(plan.clipped).toBe(clipped);
      expect(plan.toMs).toBe(plan.current.endMs);
    },
  );

  it('a range that starts after now compares whole periods', () => {
    const plan = planComparison(range('2026-12-01', '2026-12-31'), FLOOR, day('2026-11-24'));
    expect(plan).toMatchObject({ kind: 'measured', clipped: false, toMs: null });
  });
});
