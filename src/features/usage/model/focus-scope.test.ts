import { createBucketGrid } from '@contracts/usage/bucket-grid';
import type { UsageRecord } from '@contracts/usage/usage-schema';
import { describe, expect, it } from 'vitest';
import { focusScope, periodChangeOf } from './focus-scope';
import type { GroupComparison } from './group-comparison';
import { OTHER_KEY } from './top-series';
import { buildUsageMatrix } from './usage-matrix';

const day = Date.parse('2026-11-01T00:00:00Z');
const grid = createBucketGrid(day, day + 86_400_000, { days: 1, hours: 0 });
// Twelve workspaces: the chart draws ten and folds w11 (2 traces) and w12 (1) into "Other".
const records: UsageRecord[] = Array.from({ length: 12 }, (_, index) => ({
  time_bucket: '2026-11-01T00:00:00Z',
  traces: index < 10 ? 100 - index : 12 - index,
  dimensions: { workspace_id: `w${index + 1}`, workspace_name: `Workspace ${index + 1}` },
}));
const matrix = buildUsageMatrix(records, grid, 'workspace');
const previous = new Map(records.map((record, index) => [`w${index + 1}`, 10 * (index + 1)]));
const comparison: GroupComparison = {
  measured: true,
  current: { total: matrix.total, byGroup: matrix.totals },
  previous: { total: 780, byGroup: previous },
};

describe('focusScope', () => {
  it.each([
    ['nothing focused', null, null],
    ['a charted group', 'w1', { label: 'Workspace 1', total: 100, previous: 10 }],
    ['a group Other folds', 'w12', { label: 'Workspace 12', total: 1, previous: 120 }],
    ['Other itself', OTHER_KEY, { label: 'Other (2 more)', total: 3, previous: 230 }],
    ['a group not in this view', 'w99', null],
  ])('%s', (_name, focus, expected) => {
    const scope = focusScope(matrix, focus, comparison);
    if (expected === null) {
      expect(scope).toBeNull();
      return;
    }
    expect(scope).toMatchObject({ label: expected.label, total: expected.total });
    expect(scope?.allTotal).toBe(matrix.total);
    expect(scope?.comparison).toMatchObject({
      measured: true,
      current: { total: expected.total },
      previous: { total: expected.previous },
    });
  });

  it.each([
    // Other folds w11 (2 now, 110 before) and w12 (1 now, 120 before).
    [OTHER_KEY, comparison, { kind: 'change', delta: -227, ratio: -227 / 230 }],
    ['w1', comparison, { kind: 'change', delta: 90, ratio: 9 }],
    ['w1', { measured: false } as const, { kind: 'unmeasured' }],
    ['w1', undefined, undefined],
  ])('the change of %s', (focus, given, change) => {
    const scope = focusScope(matrix, focus, given);
    expect(scope && periodChangeOf(scope)).toEqual(change);
  });

  it('keeps an unmeasured or loading comparison as it is', () => {
    expect(focusScope(matrix, 'w1', { measured: false })?.comparison).toEqual({ measured: false });
    expect(focusScope(matrix, 'w1', undefined)?.comparison).toBeUndefined();
  });
});
