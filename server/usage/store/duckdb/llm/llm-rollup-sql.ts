import { LLM_ROLLUP_MEASURES, type LlmRollupMeasure } from '@server/usage/model/llm-rollup';
import { epochDaySql, PERIOD_DAYS, periodOfSql } from '../cumulative-rollup';

/**
 * The measures `llm_cumulative` keeps: the ones a usage answer reads (declared-cost runs are
 * counted by day only).
 */
export type CumulativeMeasure = Exclude<LlmRollupMeasure, 'declared_runs'>;
export const CUMULATIVE_MEASURES = LLM_ROLLUP_MEASURES.filter(
  (measure): measure is CumulativeMeasure => measure !== 'declared_runs',
);

/**
 * The LLM rollups mirror the traces' (`cumulative-rollup.ts`), one grouping per row:
 * - `llm_daily`: per (grouping, UTC day, workspace, value) the sums of that day's runs, where
 *   the value is `dim_id` or, for grouping `model`, (`model_name`, `model_provider`).
 * - `llm_cumulative`: per (grouping, PERIOD_DAYS-day period, workspace, value) one list per
 *   measure of running totals: `m[k + 1]` = the measure over the period's first `k` days, so a
 *   whole-day interval costs two list reads per measure whatever its length. A year reads about
 *   three rows per value instead of 365.
 * Neither is ever decremented: runs are stored once and never removed.
 */
const SUMS_SQL = `sum(input_tokens)::BIGINT, sum(output_tokens)::BIGINT,
  sum(cache_read_tokens)::BIGINT, sum(cache_creation_tokens)::BIGINT, sum(total_tokens)::BIGINT,
  coalesce(sum(cost_nanos), 0)::BIGINT, count(cost_nanos)::BIGINT,
  (count(*) - count(cost_nanos))::BIGINT, count(*) FILTER (WHERE cost_source = 'declared')::BIGINT`;

const GROUPINGS: [string, string, string][] = [
  ['workspace', 'workspace_id', 'NULL::VARCHAR, NULL::VARCHAR'],
  ['project', 'project_id', 'NULL::VARCHAR, NULL::VARCHAR'],
  ['user', 'user_id', 'NULL::VARCHAR, NULL::VARCHAR'],
  ['api_key', 'api_key_id', 'NULL::VARCHAR, NULL::VARCHAR'],
  ['model', 'NULL::UUID', 'model_name, model_provider'],
];

/** Rebuilds `llm_daily` from `llm_runs` (exact: both count the same runs). */
export const BACKFILL_LLM_DAILY_SQL = `
  DELETE FROM llm_daily;
  INSERT INTO llm_daily
  ${GROUPINGS.map(
    ([grouping, dim, model]) =>
      `SELECT '${grouping}', ingested_at::DATE, workspace_id, ${dim}, ${model}, ${SUMS_SQL}
       FROM llm_runs GROUP BY ALL`,
  ).join('\n  UNION ALL ')};`;

const KEY = 'grouping, period, workspace_id, dim_id, model_name, model_provider';

/** Rebuilds `llm_cumulative` from `llm_daily`, as `REBUILD_CUMULATIVE_SQL` does for traces. */
export const REBUILD_LLM_CUMULATIVE_SQL = `
  DELETE FROM llm_cumulative;
  INSERT INTO llm_cumulative
  WITH placed AS (
    SELECT ${KEY}, (epoch_day - period * ${PERIOD_DAYS})::INTEGER AS offs,
      ${CUMULATIVE_MEASURES.join(', ')}
    FROM (
      SELECT *, ${periodOfSql(epochDaySql('day'))} AS period, ${epochDaySql('day')} AS epoch_day
      FROM llm_daily
    )
  ), ranked AS (
    SELECT *, dense_rank() OVER (ORDER BY ${KEY}) AS key_id FROM placed
  ), keys AS (
    SELECT DISTINCT key_id, ${KEY} FROM ranked
  ), grid AS (
    SELECT key_id, unnest(range(${PERIOD_DAYS})) AS offs FROM keys
  ), running AS (
    SELECT g.key_id, g.offs,
      ${CUMULATIVE_MEASURES.map(
        (m) =>
          `sum(coalesce(r.${m}, 0)) OVER (PARTITION BY g.key_id ORDER BY g.offs)::BIGINT AS ${m}`,
      ).join(',\n      ')}
    FROM grid g LEFT JOIN ranked r ON r.key_id = g.key_id AND r.offs = g.offs
  ), lists AS (
    SELECT key_id,
      ${CUMULATIVE_MEASURES.map((m) => `[0::BIGINT] || list(${m} ORDER BY offs) AS ${m}`).join(',\n      ')}
    FROM running GROUP BY key_id
  )
  SELECT ${KEY.split(', ')
    .map((column) => `k.${column}`)
    .join(', ')}, ${CUMULATIVE_MEASURES.map((m) => `l.${m}`).join(', ')}
  FROM keys k JOIN lists l USING (key_id)
  ORDER BY ${KEY};`;
