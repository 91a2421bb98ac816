import {
  LLM_VALUE_COLUMNS,
  NANO_USD_PER_USD,
  type LlmUsageRecord,
} from '@contracts/usage/llm-usage-schema';
import { csvFilledColumns } from '@contracts/usage/usage-schema';
import type { LlmQueryPlan, LlmUsageRow } from '../model/llm-usage-plan';
import { toDimensions } from '../model/usage-rows';
import { createDomainRenderer } from './render-domain-usage';

/**
 * The LLM usage JSON answer (`LlmUsageResponse`), and its CSV: the header of `LLM_CSV_COLUMNS`,
 * then one line per record with the `group_by` columns filled (and its context with
 * `includeContext`), the model columns by model, and the metrics; an unknown cost is an empty
 * cell.
 */
export const { json: llmUsageJson, csv: llmUsageCsv } = createDomainRenderer({
  /**
   * The cost sums the priced runs; when none of the record's runs is priced it is unknown
   * (null), never 0.
   */
  record: (plan: LlmQueryPlan, row: LlmUsageRow) => ({
    dimensions:
      plan.groupBy === 'model'
        ? {
            ...(row.modelName !== null && { model_name: row.modelName }),
            ...(row.modelProvider !== null && { model_provider: row.modelProvider }),
          }
        : toDimensions(plan.groupBy, row, row.workspace ?? undefined),
    metrics: {
      input_tokens: row.inputTokens,
      output_tokens: row.outputTokens,
      cache_read_tokens: row.cacheReadTokens,
      cache_creation_tokens: row.cacheCreationTokens,
      total_tokens: row.totalTokens,
      cost: row.pricedRuns === 0 ? null : row.costNanos / NANO_USD_PER_USD,
      unpriced_runs: row.unpricedRuns,
    } satisfies Omit<LlmUsageRecord, 'time_bucket' | 'dimensions'>,
  }),
  valueColumns: LLM_VALUE_COLUMNS,
  // By model, the model columns are the group's; the four dimensions' columns stay empty.
  dimensionColumns: (plan, includeContext) =>
    plan.groupBy === 'model' ? {} : csvFilledColumns(plan.groupBy, { includeContext }),
});
