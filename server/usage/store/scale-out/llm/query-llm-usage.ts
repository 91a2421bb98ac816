import type { Pool } from 'pg';
import type { LlmQueryPlan, LlmUsageRow } from '@server/usage/model/llm-usage-plan';
import { DAY_MS } from '@contracts/usage/time';
import { planRange } from '@server/usage/model/time-segments';

interface SumRow {
  k: string;
  model_name: Buffer | null;
  model_provider: Buffer | null;
  input_tokens: string;
  output_tokens: string;
  cache_read: string;
  cache_creation: string;
  total_tokens: string;
  cost_nanos: string;
  priced: string;
  unpriced: string;
}

/** Memory for the sums of one query, so they are grouped in memory rather than sorted on disk. */
const SUMS_WORK_MEM = '64MB';

/**
 * The LLM usage answer of a plan grouped by model, as the DuckDB backend gives it
 * (`duckdb/llm/query-llm-usage.ts`): one row per (bucket, model) with any run, ordered by bucket,
 * then model name and provider as bytes (runs without one last).
 */
export async function queryLlmModelUsage(
  pool: Pool,
  plan: LlmQueryPlan & { groupBy: 'model' },
): Promise<LlmUsageRow[]> {
  const { grid } = plan;
  const from = Math.max(grid.startMs, plan.floorMs ?? grid.startMs);
  if (from >= grid.endMs) return [];
  const { rollupDays, rawIntervals } = planRange(from, grid.endMs, grid.stride.days > 0);
  const params: unknown[] = [grid.originMs, grid.stepMs, plan.workspaceIds];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const measures = `input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
    total_tokens, cost_nanos, priced_runs, unpriced_runs`;
  const sources = rawIntervals.map(
    (interval) => `SELECT (r.ingested_ms - $1::bigint) / $2::bigint AS k,
         r.model_name, r.model_provider,
         r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_creation_tokens,
         r.total_tokens, r.cost_nanos AS cost_nanos,
         (r.cost_nanos IS NOT NULL)::int AS priced_runs, (r.cost_nanos IS NULL)::int AS unpriced_runs
       FROM usage.llm_runs r
       WHERE r.workspace_id = ANY($3::uuid[])
         AND r.ingested_ms >= ${bind(interval.from)} AND r.ingested_ms < ${bind(interval.to)}`,
  );
  if (rollupDays) {
    // Whole UTC days from the daily rollup: a day lies in one bucket (strides are whole days).
    sources.push(`SELECT (d.epoch_day::bigint * ${DAY_MS} - $1::bigint) / $2::bigint AS k,
         d.model_name, d.model_provider, ${measures}
       FROM usage.llm_daily d
       WHERE d.grouping = 'model' AND d.workspace_id = ANY($3::uuid[])
         AND d.epoch_day >= ${bind(rollupDays.from / DAY_MS)}
         AND d.epoch_day < ${bind(rollupDays.to / DAY_MS)}`);
  }
  if (sources.length === 0) return [];
  // Grouped in memory rather than sorted on disk (the default work_mem), and without JIT
  // compiling (40 ms of a cold query).
  const client = await pool.connect();
  // A connection left in a failed transaction is closed rather than handed to the next query.
  let failed = true;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL work_mem = '${SUMS_WORK_MEM}'`);
    await client.query('SET LOCAL jit = off');
    const result = await client.query<SumRow>(
      `WITH facts AS (${sources.join('\n     UNION ALL ')}),
     sums AS (
       SELECT k, model_name, model_provider,
         sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
         sum(cache_read_tokens) AS cache_read, sum(cache_creation_tokens) AS cache_creation,
         sum(total_tokens) AS total_tokens, coalesce(sum(cost_nanos), 0) AS cost_nanos,
         sum(priced_runs) AS priced, sum(unpriced_runs) AS unpriced
       FROM facts
       GROUP BY 1, 2, 3
       HAVING sum(priced_runs) + sum(unpriced_runs) > 0
     )
     SELECT s.k::text AS k, s.model_name, s.model_provider, s.input_tokens::text AS input_tokens,
       s.output_tokens::text AS output_tokens, s.cache_read::text AS cache_read,
       s.cache_creation::text AS cache_creation, s.total_tokens::text AS total_tokens,
       s.cost_nanos::text AS cost_nanos, s.priced::text AS priced, s.unpriced::text AS unpriced
     FROM sums s
     ORDER BY s.k, s.model_name NULLS LAST, s.model_provider NULLS LAST`,
      params,
    );
    await client.query('COMMIT');
    failed = false;
    return result.rows.map((row) => ({
      bucket: Number(row.k),
      dimId: null,
      label: null,
      workspace: null,
      modelName: row.model_name?.toString('utf8') ?? null,
      modelProvider: row.model_provider?.toString('utf8') ?? null,
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      cacheReadTokens: Number(row.cache_read),
      cacheCreationTokens: Number(row.cache_creation),
      totalTokens: Number(row.total_tokens),
      costNanos: Number(row.cost_nanos),
      pricedRuns: Number(row.priced),
      unpricedRuns: Number(row.unpriced),
    }));
  } finally {
    client.release(failed);
  }
}
