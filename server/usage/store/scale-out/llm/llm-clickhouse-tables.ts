import { LLM_ANSWER_MEASURES } from '@server/usage/model/llm-answer';
import type { GroupBy } from '@contracts/usage/usage-schema';
import { dimensionColumns } from '../clickhouse/dimension-columns';
import { periodOf } from '../clickhouse/periods';

/**
 * The measures of one run as `llm_periods` sums them: a run without a cost is unpriced (its
 * `cost_nanos` is 0 and counts for nothing), never a priced run of cost 0.
 */
const RUN_MEASURES: Record<(typeof LLM_ANSWER_MEASURES)[number], string> = {
  input_tokens: 'input_tokens',
  output_tokens: 'output_tokens',
  cache_read_tokens: 'cache_read_tokens',
  cache_creation_tokens: 'cache_creation_tokens',
  total_tokens: 'total_tokens',
  cost_nanos: 'cost_nanos',
  priced_runs: 'toUInt64(priced)',
  unpriced_runs: 'toUInt64(1 - priced)',
};

/**
 * `dayMap` of the runs grouped: their UTC day numbers and every measure's sums, as arrays from
 * one `sumMap` (spelled once per column: 18.16 takes no extra columns in a view's SELECT;
 * ClickHouse computes it once).
 */
function dayMapColumns(): string {
  const map = `sumMap([toUInt16(day)], ${LLM_ANSWER_MEASURES.map((m) => `[${RUN_MEASURES[m]}]`).join(', ')})`;
  return [
    `tupleElement(${map}, 1) AS \`dayMap.day\``,
    ...LLM_ANSWER_MEASURES.map((m, i) => `tupleElement(${map}, ${i + 2}) AS \`dayMap.${m}\``),
  ].join(',\n    ');
}

const periodView = (grouping: GroupBy) => `
  CREATE MATERIALIZED VIEW IF NOT EXISTS llm_periods_${grouping} TO llm_periods AS
  SELECT '${grouping}' AS grouping, workspace_id, ${periodOf('day')} AS period,
    ${dimensionColumns(grouping)},
    ${dayMapColumns()}
  FROM llm_runs GROUP BY grouping, workspace_id, period, has_dim, dim_id`;

/**
 * LLM usage in ClickHouse, for the dimension groupings (workspace, project, user, API key):
 *
 * - `llm_runs`: one row per LLM run, inserted once: only runs newly stored in Postgres
 *   (`usage.llm_runs`, whose primary key takes a run id once across replicas) are sent, under
 *   the claim of their batch there (`llm-landing.ts`), so `count()` is exact without FINAL.
 *   Counted on the UTC day of their ingestion (`day`, from `ingested_ms`); `cost_nanos` is 0
 *   when `priced` is 0.
 * - `llm_periods`: as `usage_periods` for traces, per (grouping, workspace, 128-day period,
 *   value) the runs' days in a nested `dayMap` of day numbers and the sums of every measure
 *   (`SummingMergeTree` adds the maps of rows with one key; always read with a sum). A year by
 *   user reads 20 k rows, instead of summing 1.6 M daily rows in Postgres.
 */
export const LLM_CLICKHOUSE_STATEMENTS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS llm_runs (
    run_id UUID, workspace_id UUID, project_id UUID,
    user_id Nullable(UUID), api_key_id Nullable(UUID),
    ingested_ms Int64, day Date,
    input_tokens UInt64, output_tokens UInt64, cache_read_tokens UInt64,
    cache_creation_tokens UInt64, total_tokens UInt64, cost_nanos UInt64, priced UInt8
  ) ENGINE = MergeTree PARTITION BY toYYYYMM(day) ORDER BY (workspace_id, day, run_id)`,
  `CREATE TABLE IF NOT EXISTS llm_periods (
    grouping String, workspace_id UUID, period UInt16, has_dim UInt8, dim_id UUID,
    dayMap Nested(day UInt16, ${LLM_ANSWER_MEASURES.map((m) => `${m} UInt64`).join(', ')})
  ) ENGINE = SummingMergeTree PARTITION BY period
    ORDER BY (grouping, workspace_id, period, has_dim, dim_id)
    SETTINGS index_granularity = 256`,
  periodView('workspace'),
  periodView('project'),
  periodView('user'),
  periodView('api_key'),
];
