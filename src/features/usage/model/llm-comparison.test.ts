import { describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import type { LlmUsageRecord } from '@contracts/usage/llm-usage-schema';
import {
  compareLlmPeriods,
  costOf,
  focusedSums,
  sumLlmMatrices,
  sumLlmRecords,
  type LlmSums,
} from './llm-comparison';
import { buildLlmMatrices } from './llm-matrices';
import { OTHER_KEY } from './top-series';

const sums = (overrides: Partial<LlmSums>): LlmSums => ({
  costNanos: 0,
  pricedRecords: 0,
  unpricedRuns: 0,
  inputTokens: 0,
  outputTokens: 0,
  ...overrides,
});

const record = (
  projectId: string,
  cost: number | null,
  tokens: { input?: number; output?: number; unpriced?: number } = {},
): LlmUsageRecord => ({
  time_bucket: '2026-03-01T00:00:00.000Z',
  dimensions: { project_id: projectId, project_name: `Project ${projectId}` },
  input_tokens: tokens.input ?? 100,
  output_tokens: tokens.output ?? 10,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  total_tokens: (tokens.input ?? 100) + (tokens.output ?? 10),
  cost,
  unpriced_runs: tokens.unpriced ?? (cost === null ? 1 : 0),
});

describe('costOf', () => {
  it.each([
    ['priced runs', sums({ costNanos: 1_250_000_000, pricedRecords: 2 }), 1.25],
    [
      'priced runs beside unpriced ones (the priced part)',
      sums({ costNanos: 5e8, pricedRecords: 1, unpricedRuns: 3 }),
      0.5,
    ],
    ['only unpriced runs: unknown, not $0', sums({ unpricedRuns: 4, inputTokens: 900 }), null],
    ['no run at all: nothing spent', sums({}), 0],
    ['free runs that are priced at $0', sums({ pricedRecords: 3 }), 0],
  ])('%s', (_, period, expected) => {
    expect(costOf(period)).toBe(expected);
  });
});

describe('compareLlmPeriods', () => {
  it.each([
    [
      'a cost that rose by half',
      sums({ costNanos: 3e9, pricedRecords: 1 }),
      sums({ costNanos: 2e9, pricedRecords: 1 }),
      { kind: 'change', delta: 1, ratio: 0.5 },
    ],
    [
      'a cost that fell',
      sums({ costNanos: 1e8, pricedRecords: 1 }),
      sums({ costNanos: 4e8, pricedRecords: 1 }),
      { kind: 'change', delta: -0.3, ratio: -0.75 },
    ],
    [
      'a cost from a period without runs: no percentage on 0',
      sums({ costNanos: 2.5e9, pricedRecords: 1 }),
      sums({}),
      { kind: 'from-zero', delta: 2.5 },
    ],
    [
      'a previous period of unpriced runs only: unknown, not "from zero"',
      sums({ costNanos: 2.5e9, pricedRecords: 1 }),
      sums({ unpricedRuns: 7 }),
      { kind: 'unknown' },
    ],
    [
      'a current period of unpriced runs only: unknown, not a 100 % drop',
      sums({ unpricedRuns: 2 }),
      sums({ costNanos: 2.5e9, pricedRecords: 1 }),
      { kind: 'unknown' },
    ],
    ['no run in either period', sums({}), sums({}), { kind: 'none' }],
  ])('%s', (_, current, previous, expected) => {
    expect(compareLlmPeriods(current, previous, true).cost).toEqual(expected);
  });

  it('compares tokens as counts, from zero without a percentage', () => {
    const changes = compareLlmPeriods(
      sums({ inputTokens: 1_500, outputTokens: 40 }),
      sums({ inputTokens: 1_000, outputTokens: 0, unpricedRuns: 3 }),
      true,
    );
    expect(changes.inputTokens).toEqual({ kind: 'change', delta: 500, ratio: 0.5 });
    expect(changes.outputTokens).toEqual({ kind: 'from-zero', delta: 40 });
  });

  it('claims no change at all when the previous period was not measured', () => {
    const changes = compareLlmPeriods(sums({ unpricedRuns: 1, inputTokens: 5 }), sums({}), false);
    expect(changes).toEqual({
      cost: { kind: 'unmeasured' },
      inputTokens: { kind: 'unmeasured' },
      outputTokens: { kind: 'unmeasured' },
    });
  });
});

describe('period sums', () => {
  const records = [
    record('a', 0.25, { input: 300, output: 30 }),
    record('a', null, { input: 50, output: 5, unpriced: 2 }),
    record('b', 1.5, { input: 1_000, output: 100 }),
  ];

  it('sums a period by group, keyed as the chart keys its series', () => {
    const period = sumLlmRecords(records, 'project');
    expect(period.total).toEqual({
      costNanos: 1_750_000_000,
      pricedRecords: 2,
      unpricedRuns: 2,
      inputTokens: 1_350,
      outputTokens: 135,
    });
    const grid = createBucketGrid(Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 2), {
      days: 1,
      hours: 0,
    });
    const matrices = buildLlmMatrices(records, grid, 'project');
    expect(sumLlmMatrices(matrices)).toEqual(period);
    expect(focusedSums(period, matrices, 'a')).toEqual({
      costNanos: 250_000_000,
      pricedRecords: 1,
      unpricedRuns: 2,
      inputTokens: 350,
      outputTokens: 35,
    });
    expect(focusedSums(period, matrices, null)).toEqual(period.total);
    // Two groups: "Other" folds none of them, and a group the view lacks focuses nothing.
    expect(focusedSums(period, matrices, OTHER_KEY)).toEqual(period.total);
    expect(focusedSums(period, matrices, 'gone')).toEqual(period.total);
  });
});
