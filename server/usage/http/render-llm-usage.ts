import {
  LLM_VALUE_COLUMNS,
  NANO_USD_PER_USD,
  type LlmUsageRecord,
} from '@contracts/usage/llm-usage-schema';
import { csvFilledColumns } from '@contracts/usage/usage-schema';
import { LANE, LLM_LANES, type LlmAnswer, type LlmGroup } from '../model/llm-answer';
import type { LlmQueryPlan, LlmUsageRow } from '../model/llm-usage-plan';
import { toDimensions } from '../model/usage-rows';
import { createDomainRenderer } from './render-domain-usage';
import {
  COUNT_MAX_BYTES,
  valueFragments,
  writeCount,
  writeDigits,
  type FragmentCache,
} from './render-usage';

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

/** A group's dimensions: the model's fields by model, else the dimension value's. */
function llmDimensions(plan: LlmQueryPlan, group: LlmGroup) {
  return plan.groupBy === 'model'
    ? {
        ...(group.modelName !== null && { model_name: group.modelName }),
        ...(group.modelProvider !== null && { model_provider: group.modelProvider }),
      }
    : toDimensions(plan.groupBy, group, group.workspace ?? undefined);
}

/**
 * A record's parts. The cost sums the priced runs; when none of the record's runs is priced it
 * is unknown (null), never 0.
 */
function llmRecord(plan: LlmQueryPlan, row: LlmUsageRow) {
  return {
    dimensions: llmDimensions(plan, row),
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

const bytesOf = (text: string) => Buffer.from(text, 'latin1');
/** The keys of the metrics written as counts, in the record's key order. */
const COUNT_KEYS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'total_tokens',
].map((key) => bytesOf(`,"${key}":`));
const [INPUT_KEY, OUTPUT_KEY, CACHE_READ_KEY, CACHE_CREATION_KEY, TOTAL_KEY] = COUNT_KEYS as [
  Buffer,
  Buffer,
  Buffer,
  Buffer,
  Buffer,
];
const COST_KEY = bytesOf(',"cost":');
const NULL_COST = bytesOf('null');
const UNPRICED_KEY = bytesOf(',"unpriced_runs":');
/** Longest `String` of a non-negative double (`0.0000010000000000000002`: 24). */
const COST_MAX_BYTES = 32;
const RECORD_MAX_BYTES =
  COUNT_KEYS.reduce((sum, key) => sum + key.length + COUNT_MAX_BYTES, 0) +
  COST_KEY.length +
  COST_MAX_BYTES +
  UNPRICED_KEY.length +
  COUNT_MAX_BYTES +
  2; // '}' and ','

/**
 * Writes `String(nanos / 1e9)` (a record's cost in dollars) at `at`; returns the position after
 * it. An integer count of nano-dollars from 1,000 to below 10^15 has at most 15 significant
 * digits, so its quotient's shortest round-trip form is the exact decimal (digits, then up to
 * nine decimals without trailing zeros), written here as ASCII; any other amount goes through
 * `String`.
 */
export function writeCost(out: Buffer, at: number, nanos: number): number {
  if (!(Number.isInteger(nanos) && nanos >= 1000 && nanos < 1e15)) {
    return at + out.write(String(nanos / NANO_USD_PER_USD), at, 'latin1');
  }
  const whole = Math.floor(nanos / NANO_USD_PER_USD);
  let fraction = nanos - whole * NANO_USD_PER_USD;
  const position = writeCount(out, at, whole);
  if (fraction === 0) return position;
  out[position] = 0x2e; // .
  let digits = 9;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  return writeDigits(out, position + 1, fraction, digits);
}

/**
 * `JSON.stringify(llmUsageJson(plan, rows))` as UTF-8, written from the answer's columns as the
 * traces body is (`render-usage.ts`): a bucket's opening and a group's dimensions are formatted
 * once (by `JSON.stringify`, as the record would be; a catalog's values kept in `cache` between
 * requests) and copied per record, the counts and the cost written as ASCII digits. A year by
 * user is 65k records: building and serialising them as objects cost several times the query.
 */
function writeLlmJson(
  cache: FragmentCache,
  plan: LlmQueryPlan,
  answer: LlmAnswer,
): Uint8Array<ArrayBuffer> {
  const head = Buffer.from(`{"stride":${JSON.stringify(plan.grid.stride)},"usage":[`);
  const tail = Buffer.from(']}');
  const openings = Array.from({ length: plan.grid.count }, (_, k) =>
    Buffer.from(`{"time_bucket":"${iso(plan.grid.start(k))}","dimensions":`),
  );
  const render = (group: number) =>
    JSON.stringify(llmDimensions(plan, answer.groups[group] as LlmGroup));
  const fragments =
    answer.catalog && answer.positions
      ? valueFragments(
          cache,
          {
            catalog: answer.catalog,
            ids: answer.groups.map((group) => group.dimId),
            positions: answer.positions,
          },
          'llm-json',
          render,
        )
      : answer.groups.map((_, group) => Buffer.from(render(group)));
  const { count, buckets, groupOf, measures } = answer;
  let size = head.length + tail.length;
  for (let record = 0; record < count; record += 1) {
    const opening = openings[buckets[record] as number] as Buffer;
    const fields = fragments[groupOf[record] as number] as Uint8Array;
    size += opening.length + fields.length + RECORD_MAX_BYTES;
  }
  const out = Buffer.allocUnsafe(size);
  out.set(head, 0);
  let at = head.length;
  for (let record = 0; record < count; record += 1) {
    if (record > 0) out[at++] = 0x2c; // ,
    const opening = openings[buckets[record] as number] as Buffer;
    out.set(opening, at);
    at += opening.length;
    const fields = fragments[groupOf[record] as number] as Uint8Array;
    out.set(fields, at);
    at += fields.length;
    const base = record * LLM_LANES;
    out.set(INPUT_KEY, at);
    at = writeCount(out, at + INPUT_KEY.length, measures[base + LANE.input_tokens] as number);
    out.set(OUTPUT_KEY, at);
    at = writeCount(out, at + OUTPUT_KEY.length, measures[base + LANE.output_tokens] as number);
    out.set(CACHE_READ_KEY, at);
    at = writeCount(
      out,
      at + CACHE_READ_KEY.length,
      measures[base + LANE.cache_read_tokens] as number,
    );
    out.set(CACHE_CREATION_KEY, at);
    at = writeCount(
      out,
      at + CACHE_CREATION_KEY.length,
      measures[base + LANE.cache_creation_tokens] as number,
    );
    out.set(TOTAL_KEY, at);
    at = writeCount(out, at + TOTAL_KEY.length, measures[base + LANE.total_tokens] as number);
    out.set(COST_KEY, at);
    at += COST_KEY.length;
    if (measures[base + LANE.priced_runs] === 0) {
      out.set(NULL_COST, at);
      at += NULL_COST.length;
    } else {
      at = writeCost(out, at, measures[base + LANE.cost_nanos] as number);
    }
    out.set(UNPRICED_KEY, at);
    at = writeCount(out, at + UNPRICED_KEY.length, measures[base + LANE.unpriced_runs] as number);
    out[at++] = 0x7d; // }
  }
  out.set(tail, at);
  return new Uint8Array(out.buffer, out.byteOffset, at + tail.length);
}

/** The LLM JSON writer, with the formatted fields of dimension values kept between requests. */
export function createLlmJsonWriter(): (
  plan: LlmQueryPlan,
  answer: LlmAnswer,
) => Uint8Array<ArrayBuffer> {
  const cache: FragmentCache = new WeakMap();
  return (plan, answer) => writeLlmJson(cache, plan, answer);
}

/** `JSON.stringify(llmUsageJson(plan, rows))` as UTF-8, of one answer (no fragments kept). */
export const llmUsageJsonBytes = (plan: LlmQueryPlan, answer: LlmAnswer) =>
  writeLlmJson(new WeakMap(), plan, answer);
