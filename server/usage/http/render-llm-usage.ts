import { formatCsvRow, type CsvCell } from '@contracts/usage/csv';
import {
  LLM_CSV_COLUMNS,
  LLM_VALUE_COLUMNS,
  NANO_USD_PER_USD,
  type LlmUsageRecord,
  type LlmUsageResponse,
} from '@contracts/usage/llm-usage-schema';
import { csvFilledColumns } from '@contracts/usage/usage-schema';
import type { LlmQueryPlan, LlmUsageRow } from '../model/llm-usage-plan';
import { toDimensions } from '../model/usage-rows';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A row as an LLM usage record. The cost sums the priced runs; when none of the record's runs is
 * priced it is unknown (null), never 0.
 */
function toRecord(plan: LlmQueryPlan, row: LlmUsageRow): LlmUsageRecord {
  const dimensions =
    plan.groupBy === 'model'
      ? {
          ...(row.modelName !== null && { model_name: row.modelName }),
          ...(row.modelProvider !== null && { model_provider: row.modelProvider }),
        }
      : toDimensions(plan.groupBy, row, row.workspace ?? undefined);
  return {
    time_bucket: iso(plan.grid.start(row.bucket)),
    dimensions,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cache_read_tokens: row.cacheReadTokens,
    cache_creation_tokens: row.cacheCreationTokens,
    total_tokens: row.totalTokens,
    cost: row.pricedRuns === 0 ? null : row.costNanos / NANO_USD_PER_USD,
    unpriced_runs: row.unpricedRuns,
  };
}

/** The LLM usage JSON answer (`LlmUsageResponse`). */
export function llmUsageJson(plan: LlmQueryPlan, rows: readonly LlmUsageRow[]): LlmUsageResponse {
  return { stride: plan.grid.stride, usage: rows.map((row) => toRecord(plan, row)) };
}

/**
 * The LLM usage CSV: the header of `LLM_CSV_COLUMNS`, then one line per record with the
 * `group_by` columns filled (and its context with `includeContext`), the model columns by model,
 * and the metrics; an unknown cost is an empty cell.
 */
export function llmUsageCsv(
  plan: LlmQueryPlan,
  rows: readonly LlmUsageRow[],
  includeContext = false,
): string {
  const dimensionColumns: Partial<Record<string, string>> =
    plan.groupBy === 'model' ? {} : csvFilledColumns(plan.groupBy, { includeContext });
  const valueColumns: Partial<Record<string, string>> = LLM_VALUE_COLUMNS;
  const lines = [formatCsvRow(LLM_CSV_COLUMNS)];
  for (const row of rows) {
    const { dimensions, ...metrics } = toRecord(plan, row);
    const fields: Record<string, CsvCell> = { ...dimensions, ...metrics };
    const cells = LLM_CSV_COLUMNS.map((column): CsvCell => {
      if (column === 'Time Bucket Start') return metrics.time_bucket;
      if (column === 'Time Bucket End') return iso(plan.grid.end(row.bucket));
      const key = dimensionColumns[column] ?? valueColumns[column];
      return key === undefined ? null : fields[key];
    });
    lines.push(formatCsvRow(cells));
  }
  return lines.join('');
}
