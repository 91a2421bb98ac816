import type { BucketGrid } from '@contracts/usage/bucket-grid';
import { formatCsvRow, type CsvCell } from '@contracts/usage/csv';
import {
  LLM_CSV_COLUMNS,
  NANO_USD_PER_USD,
  type LlmUsageRecord,
} from '@contracts/usage/llm-usage-schema';
import { csvFilledColumns, type GroupBy } from '@contracts/usage/usage-schema';
import { buildUsageMatrix, type UsageMatrix } from './usage-matrix';

/** The LLM tab's per-group quantities, each a zero-filled matrix over the screen's buckets. */
export const LLM_QUANTITIES = [
  'cost_nanos',
  'priced_records',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'total_tokens',
  'unpriced_runs',
] as const;
export type LlmQuantity = (typeof LLM_QUANTITIES)[number];
export type LlmMatrices = Record<LlmQuantity, UsageMatrix>;

/** What the stacked chart shows: the cost (dollars) or the tokens. */
export const LLM_CHART_METRICS = ['cost', 'tokens'] as const;
export type LlmChartMetric = (typeof LLM_CHART_METRICS)[number];

/**
 * Costs are summed in nano-dollars, as the server does, so every total is exact; a record with an
 * unknown cost adds nothing to the cost and is not counted as priced.
 */
function quantity(record: LlmUsageRecord, name: LlmQuantity): number {
  if (name === 'cost_nanos') return Math.round((record.cost ?? 0) * NANO_USD_PER_USD);
  if (name === 'priced_records') return record.cost === null ? 0 : 1;
  return record[name];
}

/** The records summed into the screen's buckets, one matrix per quantity. */
export function buildLlmMatrices(
  records: readonly LlmUsageRecord[],
  grid: BucketGrid,
  groupBy: GroupBy,
): LlmMatrices {
  const entries = LLM_QUANTITIES.map((name) => [
    name,
    buildUsageMatrix(
      records.map((record) => ({
        time_bucket: record.time_bucket,
        dimensions: record.dimensions,
        traces: quantity(record, name),
      })),
      grid,
      groupBy,
    ),
  ]);
  return Object.fromEntries(entries) as LlmMatrices;
}

/** Dollars of a nano-dollar total, or null when nothing in it was priced (unknown, never 0). */
export const dollarsOf = (nanos: number, priced: number): number | null =>
  priced === 0 ? null : nanos / NANO_USD_PER_USD;

/** Dollars as the LLM tab shows them: cents, or four decimals below a dollar; null is unknown. */
export const formatUsdOrUnknown = (dollars: number | null): string =>
  dollars === null
    ? 'Unknown'
    : dollars.toLocaleString('en-US', {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: dollars !== 0 && Math.abs(dollars) < 1 ? 4 : 2,
      });

export interface LlmTotals {
  /** Dollars of the priced runs; null when none is priced. */
  cost: number | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  /** Share of the input tokens read from a prompt cache (0 to 1), or null without input. */
  cacheShare: number | null;
  unpricedRuns: number;
}

/** The totals of the given groups (a focus), or of every group when `keys` is null. */
export function llmTotals(matrices: LlmMatrices, keys: readonly string[] | null = null): LlmTotals {
  const sum = (name: LlmQuantity) =>
    keys === null
      ? matrices[name].total
      : keys.reduce((total, key) => total + (matrices[name].totals.get(key) ?? 0), 0);
  const input = sum('input_tokens');
  return {
    cost: dollarsOf(sum('cost_nanos'), sum('priced_records')),
    inputTokens: input,
    outputTokens: sum('output_tokens'),
    cacheReadTokens: sum('cache_read_tokens'),
    totalTokens: sum('total_tokens'),
    cacheShare: input === 0 ? null : sum('cache_read_tokens') / input,
    unpricedRuns: sum('unpriced_runs'),
  };
}

/** The chart's matrix: cost in dollars (cents kept) or total tokens. */
export function chartMatrix(matrices: LlmMatrices, metric: LlmChartMetric): UsageMatrix {
  if (metric === 'tokens') return matrices.total_tokens;
  const nanos = matrices.cost_nanos;
  const dollars = (value: number) => Math.round(value / 10_000_000) / 100;
  return {
    ...nanos,
    values: new Map([...nanos.values].map(([key, row]) => [key, row.map(dollars)])),
    totals: new Map([...nanos.totals].map(([key, total]) => [key, dollars(total)])),
    bucketTotals: nanos.bucketTotals.map(dollars),
    total: dollars(nanos.total),
  };
}

/** Unpriced runs per model (group_by=model records), most first: what to price next. */
export function unpricedByModel(
  records: readonly LlmUsageRecord[],
): { model: string; provider: string | null; runs: number }[] {
  const byModel = new Map<string, { model: string; provider: string | null; runs: number }>();
  for (const record of records) {
    if (record.unpriced_runs === 0) continue;
    const model = record.dimensions.model_name ?? '(no model name)';
    const provider = record.dimensions.model_provider ?? null;
    const key = `${model}\u0000${provider ?? ''}`;
    const entry = byModel.get(key) ?? { model, provider, runs: 0 };
    entry.runs += record.unpriced_runs;
    byModel.set(key, entry);
  }
  return [...byModel.values()].sort((a, b) => b.runs - a.runs || a.model.localeCompare(b.model));
}

/**
 * The screen's LLM buckets as CSV, in the server's columns (`LLM_CSV_COLUMNS`): bucket by bucket,
 * groups in label order, a row wherever the group had runs; an unknown cost is an empty cell.
 */
export function llmMatricesToCsv(
  matrices: LlmMatrices,
  groupBy: GroupBy,
  options: { includeContext?: boolean } = {},
): string {
  const dimensionColumns: Partial<Record<string, string>> = csvFilledColumns(groupBy, options);
  const { grid, series } = matrices.total_tokens;
  const ordered = [...series].sort((a, b) => a.label.localeCompare(b.label));
  const lines = [formatCsvRow(LLM_CSV_COLUMNS)];
  grid.starts().forEach((startMs, index) => {
    for (const item of ordered) {
      const value = (name: LlmQuantity) => matrices[name].values.get(item.key)?.[index] ?? 0;
      const runs = value('priced_records') + value('unpriced_runs');
      if (runs === 0 && value('total_tokens') === 0) continue;
      const metrics: Partial<Record<string, CsvCell>> = {
        'Input Tokens': value('input_tokens'),
        'Output Tokens': value('output_tokens'),
        'Cache Read Tokens': value('cache_read_tokens'),
        'Cache Creation Tokens': value('cache_creation_tokens'),
        'Total Tokens': value('total_tokens'),
        'Cost (USD)': dollarsOf(value('cost_nanos'), value('priced_records')),
        'Unpriced Runs': value('unpriced_runs'),
      };
      const dimensions: Record<string, string | null | undefined> = item.dimensions;
      const cells = LLM_CSV_COLUMNS.map((column): CsvCell => {
        if (column === 'Time Bucket Start') return new Date(startMs).toISOString();
        if (column === 'Time Bucket End') return new Date(grid.end(index)).toISOString();
        if (column in metrics) return metrics[column];
        const field = dimensionColumns[column];
        return field ? dimensions[field] : '';
      });
      lines.push(formatCsvRow(cells));
    }
  });
  return lines.join('');
}
