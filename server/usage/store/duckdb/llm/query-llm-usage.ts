import type { DuckDBConnection } from '@duckdb/node-api';
import { DAY_MS } from '@contracts/usage/time';
import type { LlmQueryPlan, LlmUsageRow } from '@server/usage/model/llm-usage-plan';
import { planRange, type Interval } from '@server/usage/model/time-segments';
import { DIMENSIONS } from '../dimension-sql';
import { periodSegments, withBinder } from '../usage-facts-sql';
import { CUMULATIVE_MEASURES } from './llm-rollup-sql';

const iso = (ms: number) => new Date(ms).toISOString();
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** The runs of `interval` summed per (bucket, value), from `llm_runs`: partial days and hours. */
export function rawSumsSql(
  plan: LlmQueryPlan,
  interval: Interval,
  bind: (value: string) => string,
) {
  const { grid } = plan;
  const dim = plan.groupBy === 'model' ? null : DIMENSIONS[plan.groupBy];
  const byModel = plan.groupBy === 'model';
  return `SELECT ((epoch_ms(r.ingested_at) - ${grid.originMs}) // ${grid.stepMs})::INTEGER AS k,
      ${dim ? `r.${dim.column}` : 'NULL::UUID'} AS dim_id,
      ${byModel ? 'r.model_name' : 'NULL::VARCHAR'} AS model_name,
      ${byModel ? 'r.model_provider' : 'NULL::VARCHAR'} AS model_provider,
      sum(r.input_tokens) AS input_tokens, sum(r.output_tokens) AS output_tokens,
      sum(r.cache_read_tokens) AS cache_read_tokens,
      sum(r.cache_creation_tokens) AS cache_creation_tokens, sum(r.total_tokens) AS total_tokens,
      coalesce(sum(r.cost_nanos), 0) AS cost_nanos, count(r.cost_nanos) AS priced_runs,
      count(*) - count(r.cost_nanos) AS unpriced_runs
    FROM llm_runs r
    WHERE r.workspace_id IN (${plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ')})
      AND r.ingested_at >= ${bind(iso(interval.from))}::TIMESTAMP
      AND r.ingested_at < ${bind(iso(interval.to))}::TIMESTAMP
    GROUP BY ALL`;
}

/**
 * The whole days `[from, to)` summed per (bucket, value) from `llm_cumulative`: each row's
 * period is cut at the bucket grid into segments, each two list reads per measure.
 */
function rollupSumsSql(plan: ModelPlan, days: Interval, bind: (value: string) => string) {
  const { grid } = plan;
  const periods = periodSegments(
    days.from / DAY_MS,
    days.to / DAY_MS,
    grid.originMs / DAY_MS,
    grid.stride.days,
  );
  const segments = [...periods].flatMap(([period, { indexes, buckets }]) =>
    buckets.map((k, j) => `(${period}, ${indexes[j]}, ${indexes[j + 1]}, ${k})`),
  );
  const numbers = [...periods.keys()];
  return `SELECT s.k, c.dim_id, c.model_name, c.model_provider,
      ${CUMULATIVE_MEASURES.map((m) => `c.${m}[s.hi] - c.${m}[s.lo] AS ${m}`).join(',\n      ')}
    FROM llm_cumulative c
    JOIN (VALUES ${segments.join(', ')}) s(period, lo, hi, k) ON s.period = c.period
    WHERE c.grouping = ${bind(plan.groupBy)}
      AND c.workspace_id IN (${plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ')})
      AND c.period BETWEEN ${Math.min(...numbers)} AND ${Math.max(...numbers)}`;
}

/** A plan of the model grouping (the dimension groupings are read by `read-llm-matrix.ts`). */
type ModelPlan = LlmQueryPlan & { groupBy: 'model' };

/**
 * The LLM usage answer by model: one row per (bucket, model) with any run, ordered by bucket,
 * then model name and provider (unnamed last). Runs before the floor and outside `[start, end)`
 * are not counted. Whole UTC days are read from the rollup, partial days and hourly buckets from
 * the runs, as traces are (`usage-facts-sql.ts`). Sums are exact: tokens and nano-dollars are
 * integers, read as text. A few models make a few rows, so they are read as rows.
 */
export async function queryLlmModelUsage(
  connection: DuckDBConnection,
  plan: ModelPlan,
): Promise<LlmUsageRow[]> {
  const { grid } = plan;
  const from = Math.max(grid.startMs, plan.floorMs ?? grid.startMs);
  const { rollupDays, rawIntervals } = planRange(from, grid.endMs, grid.stride.days > 0);
  const { values, bind } = withBinder();
  const sources = rawIntervals.map((interval) => rawSumsSql(plan, interval, bind));
  if (rollupDays) sources.push(rollupSumsSql(plan, rollupDays, bind));
  if (sources.length === 0) return [];
  const sql = `WITH facts AS (${sources.join('\n    UNION ALL ')}),
    sums AS (
      SELECT k, model_name, model_provider,
        sum(input_tokens)::VARCHAR AS input_tokens, sum(output_tokens)::VARCHAR AS output_tokens,
        sum(cache_read_tokens)::VARCHAR AS cache_read,
        sum(cache_creation_tokens)::VARCHAR AS cache_creation,
        sum(total_tokens)::VARCHAR AS total_tokens, sum(cost_nanos)::VARCHAR AS cost_nanos,
        sum(priced_runs)::VARCHAR AS priced, sum(unpriced_runs)::VARCHAR AS unpriced
      FROM facts
      GROUP BY ALL
      HAVING sum(priced_runs) + sum(unpriced_runs) > 0
    )
    SELECT k, model_name, model_provider, input_tokens, output_tokens, cache_read,
      cache_creation, total_tokens, cost_nanos, priced, unpriced
    FROM sums
    ORDER BY k, model_name NULLS LAST, model_provider NULLS LAST`;
  const reader = await connection.runAndReadAll(sql, values);
  return reader.getRowsJS().map((row) => {
    const [k, modelName, modelProvider, ...sums] = row;
    const [input, output, cacheRead, cacheCreation, total, cost, priced, unpriced] = sums.map(
      (value) => Number(value),
    );
    return {
      bucket: Number(k),
      dimId: null,
      label: null,
      workspace: null,
      modelName: text(modelName),
      modelProvider: text(modelProvider),
      inputTokens: input ?? 0,
      outputTokens: output ?? 0,
      cacheReadTokens: cacheRead ?? 0,
      cacheCreationTokens: cacheCreation ?? 0,
      totalTokens: total ?? 0,
      costNanos: cost ?? 0,
      pricedRuns: priced ?? 0,
      unpricedRuns: unpriced ?? 0,
    };
  });
}
