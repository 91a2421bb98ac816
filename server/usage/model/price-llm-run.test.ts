import { describe, expect, it } from 'vitest';
import type { ModelPrice } from '@contracts/usage/model-price-map';
import type { LlmUsage } from '@server/usage/ingest/llm-usage';
import { DEFAULT_MODEL_PRICES } from './default-model-prices';
import { priceLlmRun, selectModelPrice } from './price-llm-run';

const NOW = Date.parse('2026-06-01T00:00:00Z');

const run = (fields: Partial<LlmUsage>): LlmUsage => ({
  runId: 'r',
  modelName: 'gpt-4o',
  modelProvider: 'openai',
  inputTokens: 1_000_000,
  outputTokens: 1_000_000,
  totalTokens: 2_000_000,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
  reasoningTokens: 0,
  declaredCost: null,
  ...fields,
});

const custom = (fields: Partial<ModelPrice>): ModelPrice => ({
  id: 'c',
  tenant_id: 'w',
  name: 'custom',
  match_pattern: '^gpt-4o$',
  match_path: ['model_name'],
  prompt_cost: 0.000001,
  completion_cost: 0.000002,
  prompt_cost_details: {},
  completion_cost_details: {},
  provider: null,
  start_time: null,
  ...fields,
});

describe('default model prices', () => {
  it.each([
    ['gpt-4o', 'gpt-4o'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['openai/gpt-4o-mini', 'gpt-4o-mini'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku'],
    ['gemini-2.5-flash', 'gemini-2.5-flash'],
    ['models/gemini-2.5-pro', 'gemini-2.5-pro'],
    ['gpt-4o-realtime-preview', undefined],
    ['my-own-model', undefined],
  ])('%s is priced as %s', (modelName, expected) => {
    expect(selectModelPrice(DEFAULT_MODEL_PRICES, run({ modelName }), NOW)?.name).toBe(expected);
  });
});

describe('priceLlmRun', () => {
  it('prices plain tokens at the list price, in nano-dollars', () => {
    // gpt-4o: $2.50 per million input, $10 per million output.
    expect(priceLlmRun(DEFAULT_MODEL_PRICES, run({}), NOW)).toEqual({
      costNanos: 12_500_000_000,
      source: 'price_map',
    });
  });

  it('prices cache reads and writes at their own prices', () => {
    const usage = run({
      modelName: 'claude-sonnet-4-20250514',
      inputTokens: 1_000_000,
      cacheReadTokens: 600_000,
      cacheCreationTokens: 200_000,
      outputTokens: 0,
    });
    // 200k plain at $3/M + 600k read at $0.30/M + 200k written at $3.75/M.
    expect(priceLlmRun(DEFAULT_MODEL_PRICES, usage, NOW).costNanos).toBe(
      600_000_000 + 180_000_000 + 750_000_000,
    );
  });

  it('lets a declared cost win over the map', () => {
    expect(priceLlmRun(DEFAULT_MODEL_PRICES, run({ declaredCost: 0.0123 }), NOW)).toEqual({
      costNanos: 12_300_000,
      source: 'declared',
    });
  });

  it('leaves a model without a price unpriced, never at 0', () => {
    expect(priceLlmRun(DEFAULT_MODEL_PRICES, run({ modelName: 'mystery' }), NOW)).toEqual({
      costNanos: null,
      source: 'unpriced',
    });
    expect(priceLlmRun(DEFAULT_MODEL_PRICES, run({ modelName: null }), NOW).source).toBe(
      'unpriced',
    );
  });

  it('prefers the workspace’s entry, the latest started, and ignores entries not started yet', () => {
    const early = custom({ id: 'early', start_time: '2026-01-01T00:00:00Z' });
    const later = custom({ id: 'later', start_time: '2026-05-01T00:00:00Z', prompt_cost: 0 });
    const future = custom({ id: 'future', start_time: '2027-01-01T00:00:00Z' });
    const entries = [...DEFAULT_MODEL_PRICES, early, later, future];
    expect(selectModelPrice(entries, run({}), NOW)?.id).toBe('later');
    expect(priceLlmRun(entries, run({}), NOW).costNanos).toBe(2_000_000_000);
    expect(selectModelPrice(entries, run({}), Date.parse('2026-02-01T00:00:00Z'))?.id).toBe(
      'early',
    );
  });

  it('applies a provider condition, and an invalid pattern matches nothing', () => {
    const azure = custom({ provider: 'azure' });
    expect(selectModelPrice([azure], run({}), NOW)).toBeUndefined();
    expect(selectModelPrice([azure], run({ modelProvider: 'azure' }), NOW)?.id).toBe('c');
    expect(selectModelPrice([custom({ match_pattern: '(' })], run({}), NOW)).toBeUndefined();
  });
});
