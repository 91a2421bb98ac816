import { describe, expect, it } from 'vitest';
import type { ScopedLimitWrite } from '../store/usage-limit-store';
import { scopedLimitParams } from './scoped-limit-params';

const workspace = '6f1c2c1e-6a39-4c5e-9d3e-0a4a2b9f3c11';
const project = '0b7e9d52-31a4-4b8e-8f0e-5c2d1e7a9b40';

const projectLimit: ScopedLimitWrite = {
  tenantId: workspace,
  scope: 'project',
  targetId: project,
  limitType: 'monthly_traces',
  limitValue: 37,
  extendedShare: null,
  derived: null,
};
const spendLimit: ScopedLimitWrite = {
  tenantId: workspace,
  scope: 'workspace',
  targetId: workspace,
  limitType: 'monthly_spend',
  limitValue: 12.5,
  extendedShare: 0.25,
  derived: { monthly_traces: 9_000_000_000_123, monthly_longlived_traces: 2_000 },
  thresholds: [20, 100],
};

describe('scopedLimitParams', () => {
  it.each([
    [
      'a project limit: default thresholds, not given',
      projectLimit,
      [workspace, 'project', project, 'monthly_traces', 37, null, null, null, [50, 80, 100], false],
    ],
    [
      'a spend limit: its split, derived counts as text, thresholds given',
      spendLimit,
      [
        workspace,
        'workspace',
        workspace,
        'monthly_spend',
        12.5,
        0.25,
        '9000000000123',
        '2000',
        [20, 100],
        true,
      ],
    ],
  ])('%s', (_, write, expected) => {
    const [id, ...rest] = scopedLimitParams(write);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest).toEqual(expected);
  });

  it('gives each new row its own id', () => {
    expect(scopedLimitParams(projectLimit)[0]).not.toBe(scopedLimitParams(projectLimit)[0]);
  });
});
