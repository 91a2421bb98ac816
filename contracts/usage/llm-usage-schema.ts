import { z } from 'zod/mini';
import { domainCsvColumns, domainUsageSchemas, usageCount } from './domain-usage-schema';
import { GROUP_BY_VALUES, usageDimensionsSchema } from './usage-schema';

/**
 * The wire format of `kind=llm_usage` (our extension of the granular-usage endpoints): what the
 * traced LLM runs spent, with the same parameters, strides and buckets as traces, grouped by the
 * four dimensions or by `model`. Counted at ingestion time, priced at ingestion by the
 * workspace's model price map (a cost the run declares wins).
 */

/** The groupings of LLM usage: the four dimensions, and the model (name and provider). */
export const LLM_GROUP_BY_VALUES = [...GROUP_BY_VALUES, 'model'] as const;
export type LlmGroupBy = (typeof LLM_GROUP_BY_VALUES)[number];

/** The metrics of a record, in the order the UI and the CSV show them. */
export const LLM_METRICS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'total_tokens',
  'cost',
  'unpriced_runs',
] as const;
export type LlmMetric = (typeof LLM_METRICS)[number];

export const llmUsageDimensionsSchema = z.extend(usageDimensionsSchema, {
  /** The model as runs name it (`ls_model_name`, ...); absent when a run named none. */
  model_name: z.nullish(z.string()),
  /** `ls_provider`; absent when a run named none. */
  model_provider: z.nullish(z.string()),
});
export type LlmUsageDimensions = z.infer<typeof llmUsageDimensionsSchema>;

export const { record: llmUsageRecordSchema, response: llmUsageResponseSchema } =
  domainUsageSchemas(llmUsageDimensionsSchema, {
    input_tokens: usageCount,
    output_tokens: usageCount,
    /** Of the input tokens, those read from a prompt cache. */
    cache_read_tokens: usageCount,
    /** Of the input tokens, those written to a prompt cache. */
    cache_creation_tokens: usageCount,
    total_tokens: usageCount,
    /**
     * US dollars of the priced runs (declared or from the price map), to the nano-dollar. Null when
     * every run of the record is unpriced: their cost is unknown, never 0.
     */
    cost: z.nullable(z.number().check(z.nonnegative())),
    /** Runs whose model had no price when ingested and that declared no cost. */
    unpriced_runs: usageCount,
  });

export type LlmUsageRecord = z.infer<typeof llmUsageRecordSchema>;

/** Records without runs are omitted; ordered by `time_bucket`, then label, then id. */
export type LlmUsageResponse = z.infer<typeof llmUsageResponseSchema>;

/** The LLM usage CSV's model and value columns, after the time and dimension ones. */
export const LLM_VALUE_COLUMNS = {
  'Model Name': 'model_name',
  'Model Provider': 'model_provider',
  'Input Tokens': 'input_tokens',
  'Output Tokens': 'output_tokens',
  'Cache Read Tokens': 'cache_read_tokens',
  'Cache Creation Tokens': 'cache_creation_tokens',
  'Total Tokens': 'total_tokens',
  'Cost (USD)': 'cost',
  'Unpriced Runs': 'unpriced_runs',
} as const satisfies Record<string, LlmMetric | 'model_name' | 'model_provider'>;

/** The LLM usage CSV header; `Cost (USD)` is empty where the JSON's `cost` is null. */
export const LLM_CSV_COLUMNS = domainCsvColumns(LLM_VALUE_COLUMNS);
export type LlmCsvColumn = (typeof LLM_CSV_COLUMNS)[number];

/** Nano-dollars, the unit costs are stored and summed in (exact sums on every backend). */
export const NANO_USD_PER_USD = 1_000_000_000;
