import type { DimensionCatalog } from './dimension-catalog';
import type { LlmRollupMeasure } from './llm-rollup';
import type { LlmUsageRow } from './llm-usage-plan';

/**
 * The lane of each measure of a record (the order every backend sums them). A literal object, so
 * reading a lane in the per-record loops is a plain property load.
 */
export const LANE = {
  input_tokens: 0,
  output_tokens: 1,
  cache_read_tokens: 2,
  cache_creation_tokens: 3,
  total_tokens: 4,
  cost_nanos: 5,
  priced_runs: 6,
  unpriced_runs: 7,
} as const satisfies Record<Exclude<LlmRollupMeasure, 'declared_runs'>, number>;
export type LlmAnswerMeasure = keyof typeof LANE;
/** The measures in lane order. */
export const LLM_ANSWER_MEASURES = Object.keys(LANE) as LlmAnswerMeasure[];
export const LLM_LANES = LLM_ANSWER_MEASURES.length;

/** A group of an answer: what its records' dimensions are written from. */
export type LlmGroup = Pick<
  LlmUsageRow,
  'dimId' | 'label' | 'workspace' | 'modelName' | 'modelProvider'
>;

/**
 * An LLM usage answer as columns rather than 65k row objects (a year by user): records in answer
 * order (by bucket, then the groups' order), each a bucket, a group number and `LLM_LANES`
 * measures. A group is listed once, so its dimensions are formatted once. When the groups are
 * dimension values of a catalog, `catalog` and `positions` (a group's place in it, or -1) let a
 * renderer keep their formatted fields between requests, as the traces matrix does.
 */
export interface LlmAnswer {
  groups: LlmGroup[];
  catalog?: DimensionCatalog;
  positions?: Int32Array;
  /** Number of records. */
  count: number;
  buckets: Int32Array;
  groupOf: Int32Array;
  /** `measures[record * LLM_LANES + lane]`. */
  measures: Float64Array;
}

const MEASURE_OF_ROW: Record<LlmAnswerMeasure, keyof LlmUsageRow> = {
  input_tokens: 'inputTokens',
  output_tokens: 'outputTokens',
  cache_read_tokens: 'cacheReadTokens',
  cache_creation_tokens: 'cacheCreationTokens',
  total_tokens: 'totalTokens',
  cost_nanos: 'costNanos',
  priced_runs: 'pricedRuns',
  unpriced_runs: 'unpricedRuns',
};

const groupKey = (row: LlmGroup) =>
  JSON.stringify([row.dimId, row.label, row.workspace, row.modelName, row.modelProvider]);

/** The answer of rows (in answer order), as a backend that sums rows gives them. */
export function llmAnswerFromRows(rows: readonly LlmUsageRow[]): LlmAnswer {
  const groups: LlmGroup[] = [];
  const numbers = new Map<string, number>();
  const answer: LlmAnswer = {
    groups,
    count: rows.length,
    buckets: new Int32Array(rows.length),
    groupOf: new Int32Array(rows.length),
    measures: new Float64Array(rows.length * LLM_LANES),
  };
  rows.forEach((row, record) => {
    const key = groupKey(row);
    let group = numbers.get(key);
    if (group === undefined) {
      group = groups.length;
      numbers.set(key, group);
      const { dimId, label, workspace, modelName, modelProvider } = row;
      groups.push({ dimId, label, workspace, modelName, modelProvider });
    }
    answer.buckets[record] = row.bucket;
    answer.groupOf[record] = group;
    LLM_ANSWER_MEASURES.forEach((measure, lane) => {
      answer.measures[record * LLM_LANES + lane] = row[MEASURE_OF_ROW[measure]] as number;
    });
  });
  return answer;
}

/** The answer's records as rows (the CSV and the tests read them so). */
export function llmAnswerRows(answer: LlmAnswer): LlmUsageRow[] {
  return Array.from({ length: answer.count }, (_, record) => {
    const group = answer.groups[answer.groupOf[record] as number] as LlmGroup;
    const at = record * LLM_LANES;
    const measure = (m: LlmAnswerMeasure) => answer.measures[at + LANE[m]] as number;
    return {
      bucket: answer.buckets[record] as number,
      ...group,
      inputTokens: measure('input_tokens'),
      outputTokens: measure('output_tokens'),
      cacheReadTokens: measure('cache_read_tokens'),
      cacheCreationTokens: measure('cache_creation_tokens'),
      totalTokens: measure('total_tokens'),
      costNanos: measure('cost_nanos'),
      pricedRuns: measure('priced_runs'),
      unpricedRuns: measure('unpriced_runs'),
    };
  });
}
