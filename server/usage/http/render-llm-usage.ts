import {
  LLM_VALUE_COLUMNS,
  NANO_USD_PER_USD,
  type LlmUsageRecord,
} from '@contracts/usage/llm-usage-schema';
import { csvFilledColumns } from '@contracts/usage/usage-schema';
import type { LlmQueryPlan, LlmUsageRow } from '../model/llm-usage-plan';
import { toDimensions } from '../model/usage-rows';
import { createDomainRenderer } from './render-domain-usage';
import { COUNT_MAX_BYTES, writeCount } from './render-usage';

/**
 * The LLM usage JSON answer (`LlmUsageResponse`), and its CSV: the header of `LLM_CSV_COLUMNS`,
 * then one line per record with the `group_by` columns filled (and its context with
 * `includeContext`), the model columns by model, and the metrics; an unknown cost is an empty
 * cell.
 */
export const { json: llmUsageJson, csv: llmUsageCsv } = createDomainRenderer({
  record: llmRecord,
  valueColumns: LLM_VALUE_COLUMNS,
  // By model, the model columns are the group's; the four dimensions' columns stay empty.
  dimensionColumns: (plan, includeContext) =>
    plan.groupBy === 'model' ? {} : csvFilledColumns(plan.groupBy, { includeContext }),
});

/**
 * A record's parts. The cost sums the priced runs; when none of the record's runs is priced it
 * is unknown (null), never 0.
 */
function llmRecord(plan: LlmQueryPlan, row: LlmUsageRow) {
  return {
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
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The metric keys of a record after its dimensions, in the record's key order. */
const METRIC_KEYS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'total_tokens',
] as const;
const KEY_BYTES = METRIC_KEYS.map((key) => Buffer.from(`,"${key}":`));
const COST_KEY = Buffer.from(',"cost":');
const UNPRICED_KEY = Buffer.from(',"unpriced_runs":');
/** Writes `,"<metric m>":<count>` at `at`; returns the position after it. */
function writeMetric(out: Uint8Array, at: number, m: number, count: number): number {
  const key = KEY_BYTES[m] as Buffer;
  out.set(key, at);
  return writeCount(out, at + key.length, count);
}

/**
 * `JSON.stringify(llmUsageJson(plan, rows))` as UTF-8, written as the traces body is
 * (`render-usage.ts`): a bucket's opening and a group's dimensions are formatted once (by
 * `JSON.stringify`, as the record would be) and copied per record, the counts written as ASCII
 * digits, the cost by `String` (what `JSON.stringify` writes for a number). A year by user is
 * 65k records: building and serialising them as objects cost several times the query. Rows of
 * one answer with the same id (or model) have the same dimensions.
 */
export function llmUsageJsonBytes(
  plan: LlmQueryPlan,
  rows: readonly LlmUsageRow[],
): Uint8Array<ArrayBuffer> {
  const head = Buffer.from(`{"stride":${JSON.stringify(plan.grid.stride)},"usage":[`);
  const tail = Buffer.from(']}');
  const buckets = new Map<number, Buffer>();
  const groups = new Map<string | null, Map<string | null, Buffer>>();
  const openings: Buffer[] = new Array<Buffer>(rows.length);
  const dimensions: Buffer[] = new Array<Buffer>(rows.length);
  const costs: string[] = new Array<string>(rows.length);
  const fixed = KEY_BYTES.reduce((sum, key) => sum + key.length, 0) + COST_KEY.length;
  const perRecord = fixed + UNPRICED_KEY.length + 6 * COUNT_MAX_BYTES + 2; // + '}' and ','
  let size = head.length + tail.length;
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as LlmUsageRow;
    let opening = buckets.get(row.bucket);
    if (opening === undefined) {
      opening = Buffer.from(`{"time_bucket":"${iso(plan.grid.start(row.bucket))}","dimensions":`);
      buckets.set(row.bucket, opening);
    }
    // By model, a group is (name, provider); else its id (the second key is then unused).
    const [first, second] =
      plan.groupBy === 'model' ? [row.modelName, row.modelProvider] : [row.dimId, null];
    let inner = groups.get(first);
    if (inner === undefined) {
      inner = new Map();
      groups.set(first, inner);
    }
    let fields = inner.get(second);
    if (fields === undefined) {
      fields = Buffer.from(JSON.stringify(llmRecord(plan, row).dimensions));
      inner.set(second, fields);
    }
    const cost = row.pricedRuns === 0 ? 'null' : String(row.costNanos / NANO_USD_PER_USD);
    openings[i] = opening;
    dimensions[i] = fields;
    costs[i] = cost;
    size += opening.length + fields.length + cost.length + perRecord;
  }
  const out = Buffer.allocUnsafe(size);
  out.set(head, 0);
  let at = head.length;
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as LlmUsageRow;
    if (i > 0) out[at++] = 0x2c; // ,
    const opening = openings[i] as Buffer;
    out.set(opening, at);
    at += opening.length;
    const fields = dimensions[i] as Buffer;
    out.set(fields, at);
    at += fields.length;
    at = writeMetric(out, at, 0, row.inputTokens);
    at = writeMetric(out, at, 1, row.outputTokens);
    at = writeMetric(out, at, 2, row.cacheReadTokens);
    at = writeMetric(out, at, 3, row.cacheCreationTokens);
    at = writeMetric(out, at, 4, row.totalTokens);
    out.set(COST_KEY, at);
    at += COST_KEY.length;
    at += out.write(costs[i] as string, at, 'latin1');
    out.set(UNPRICED_KEY, at);
    at = writeCount(out, at + UNPRICED_KEY.length, row.unpricedRuns);
    out[at++] = 0x7d; // }
  }
  out.set(tail, at);
  return new Uint8Array(out.buffer, out.byteOffset, at + tail.length);
}
