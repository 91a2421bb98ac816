import { describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import type { LlmUsageRecord } from '@contracts/usage/llm-usage-schema';
import {
  buildLlmMatrices,
  chartMatrix,
  llmMatricesToCsv,
  llmTotals,
  unpricedByModel,
} from './llm-matrices';

const DAY = 86_400_000;
const start = Date.parse('2026-03-01T00:00:00Z');
const grid = createBucketGrid(start, start + 3 * DAY, { days: 1, hours: 0 });
const record = (
  day: number,
  name: string,
  fields: Partial<LlmUsageRecord> & { dimensions?: LlmUsageRecord['dimensions'] },
): LlmUsageRecord => ({
  time_bucket: new Date(start + day * DAY).toISOString(),
  dimensions: { project_id: `id-${name}`, project_name: name },
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  total_tokens: 0,
  cost: null,
  unpriced_runs: 0,
  ...fields,
});

describe('LLM matrices', () => {
  const records = [
    record(0, 'chat', {
      input_tokens: 1000,
      output_tokens: 100,
      total_tokens: 1100,
      cache_read_tokens: 250,
      cost: 0.1,
    }),
    record(0, 'chat', { input_tokens: 0, output_tokens: 0, total_tokens: 0, cost: 0.2 }),
    record(2, '=agent', {
      input_tokens: 3000,
      output_tokens: 300,
      total_tokens: 3300,
      unpriced_runs: 4,
    }),
  ];
  const matrices = buildLlmMatrices(records, grid, 'project');

  it('sums tokens exactly, costs in nano-dollars, and keeps an unknown cost unknown', () => {
    expect(llmTotals(matrices)).toEqual({
      // 0.1 + 0.2 without the float's 0.30000000000000004.
      cost: 0.3,
      inputTokens: 4000,
      outputTokens: 400,
      cacheReadTokens: 250,
      totalTokens: 4400,
      cacheShare: 0.0625,
      unpricedRuns: 4,
    });
    const unpricedOnly = buildLlmMatrices([records[2] as LlmUsageRecord], grid, 'project');
    expect(llmTotals(unpricedOnly).cost).toBeNull();
  });

  it('charts cost in dollars or tokens', () => {
    expect(chartMatrix(matrices, 'cost').bucketTotals).toEqual([0.3, 0, 0]);
    expect(chartMatrix(matrices, 'tokens').bucketTotals).toEqual([1100, 0, 3300]);
  });

  it('exports one row per bucket and group with runs, an unknown cost as an empty cell', () => {
    const lines = llmMatricesToCsv(matrices, 'project').trim().split('\r\n');
    expect(lines).toHaveLength(3);
    // Bucket by bucket: the first day's chat, then the third day's agent (its name neutralised).
    expect(lines[1]).toMatch(/,chat,,,,,,1000,100,250,0,1100,0\.3,0$/);
    expect(lines[2]).toContain(",'=agent,");
    expect(lines[2]).toMatch(/,3000,300,0,0,3300,,4$/);
  });

  it('names the unpriced models, most runs first', () => {
    const byModel = [
      record(0, 'x', { dimensions: { model_name: 'a', model_provider: 'p' }, unpriced_runs: 1 }),
      record(1, 'x', { dimensions: { model_name: 'b' }, unpriced_runs: 3 }),
      record(2, 'x', { dimensions: { model_name: 'a', model_provider: 'p' }, unpriced_runs: 1 }),
      record(2, 'x', { dimensions: { model_name: 'priced' }, cost: 1 }),
    ];
    expect(unpricedByModel(byModel)).toEqual([
      { model: 'b', provider: null, runs: 3 },
      { model: 'a', provider: 'p', runs: 2 },
    ]);
  });
});
