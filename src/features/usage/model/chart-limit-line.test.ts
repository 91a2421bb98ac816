import { describe, expect, it } from 'vitest';
import type { LimitStatus } from '@contracts/usage/usage-limits';
import { chartLimitLine } from './chart-limit-line';

const A = 'a0000000-0000-4000-8000-000000000001';
const B = 'a0000000-0000-4000-8000-000000000002';
const status = (workspaceId: string, limit: number | null): LimitStatus => ({
  workspace_id: workspaceId,
  scope: 'workspace',
  target_id: workspaceId,
  limit_type: 'monthly_traces',
  limit_value: limit,
  limit_id: null,
  source: limit === null ? null : 'own',
  alert_thresholds: [],
  used: 0,
  month_start: '2026-11-01T00:00:00.000Z',
  resets_at: '2026-12-01T00:00:00.000Z',
  reached_at: null,
  refused: 0,
  alerts: [],
  can_edit: true,
});

describe('chartLimitLine', () => {
  it.each([
    [
      'one limited workspace',
      [status(A, 100)],
      [A],
      'workspace',
      null,
      { value: 100, label: 'Monthly limit' },
    ],
    [
      'two, summed',
      [status(A, 100), status(B, 50)],
      [A, B],
      'project',
      null,
      { value: 150, label: 'Monthly limits, summed' },
    ],
    ['one of two unlimited', [status(A, 100), status(B, null)], [A, B], 'workspace', null, null],
    [
      'focused workspace',
      [status(A, 100), status(B, 50)],
      [A, B],
      'workspace',
      B,
      { value: 50, label: 'Monthly limit' },
    ],
    [
      'focused unlimited workspace',
      [status(A, 100), status(B, null)],
      [A, B],
      'workspace',
      B,
      null,
    ],
    ['focused project: no workspace limit fits', [status(A, 100)], [A], 'project', 'p-1', null],
    ['not loaded', undefined, [A], 'workspace', null, null],
  ] as const)('%s', (_label, statuses, ids, groupBy, focus, expected) => {
    expect(chartLimitLine(statuses, ids, groupBy, focus)).toEqual(expected);
  });
});
