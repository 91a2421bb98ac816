import { describe, expect, it } from 'vitest';
import type { ScopedLimit } from '@contracts/usage/usage-limits';
import { scopedStanding, scopedThresholdsCrossed } from './scoped-limit-standing';

const PLUS = { base: 0.0005, extended: 0.005 };
const W = 'a0000000-0000-4000-8000-000000000001';
const P = 'b0000000-0000-4000-8000-000000000002';

const limitOf = (fields: Partial<ScopedLimit>): ScopedLimit => ({
  id: 'c0000000-0000-4000-8000-000000000003',
  tenant_id: W,
  scope: 'project',
  target_id: P,
  limit_type: 'monthly_traces',
  limit_value: 10,
  extended_share: null,
  derived: null,
  alert_thresholds: [50, 80, 100],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  ...fields,
});

const spend = (dollars: number, derivedTraces: number) =>
  limitOf({
    scope: 'workspace',
    target_id: W,
    limit_type: 'monthly_spend',
    limit_value: dollars,
    extended_share: 0,
    derived: { monthly_traces: derivedTraces, monthly_longlived_traces: 0 },
  });

describe('scopedStanding', () => {
  it.each([
    ['a project under its limit', limitOf({}), 0, 0, 4, { used: 4, reached: false }],
    ['a project at its limit', limitOf({}), 0, 0, 10, { used: 10, reached: true }],
    // 1,000 traces of which 10 extended: 1000 x 0.0005 + 10 x 0.0045.
    [
      'spend counts base and upgrades',
      spend(1, 2000),
      1000,
      10,
      0,
      { used: 0.545, reached: false },
    ],
    ['spend reached in dollars', spend(0.5, 2000), 1000, 0, 0, { used: 0.5, reached: true }],
    // Prices went up since the limit was set: its bought traces ran out first.
    ['spend reached by its traces', spend(1, 1000), 1000, 0, 0, { used: 0.5, reached: true }],
  ])('%s', (_label, limit, traces, longlived, target, expected) => {
    const workspaceUsed = { monthly_traces: traces, monthly_longlived_traces: longlived };
    const targetUsed = new Map([[`project|${P}`, target]]);
    expect(scopedStanding(limit, workspaceUsed, targetUsed, PLUS)).toEqual(expected);
  });
});

describe('scopedThresholdsCrossed', () => {
  it.each([
    ['traces: 5 of 10', limitOf({}), { used: 5, reached: false }, [], [50]],
    ['traces: 9 of 10, 50 sent', limitOf({}), { used: 9, reached: false }, [50], [80]],
    ['traces: at the limit', limitOf({}), { used: 10, reached: true }, [50, 80], [100]],
    ['dollars: 0.00499 of 0.01', spend(0.01, 20), { used: 0.00499, reached: false }, [], []],
    ['dollars: 0.005 of 0.01', spend(0.01, 20), { used: 0.005, reached: false }, [], [50]],
    ['dollars: 0.0081 of 0.0101', spend(0.0101, 20), { used: 0.0081, reached: false }, [50], [80]],
    ['dollars: traces ran out', spend(0.0101, 20), { used: 0.01, reached: true }, [50, 80], [100]],
    ['dollars: all sent', spend(0.01, 20), { used: 0.02, reached: true }, [50, 80, 100], []],
  ])('%s', (_label, limit, standing, sent, expected) => {
    expect(scopedThresholdsCrossed(limit, standing, new Set(sent))).toEqual(expected);
  });

  it('always keeps 100 % even when the limit was stored without it', () => {
    const limit = limitOf({ alert_thresholds: [90] });
    expect(scopedThresholdsCrossed(limit, { used: 10, reached: true }, new Set())).toEqual([
      90, 100,
    ]);
  });
});
