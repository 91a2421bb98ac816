import type { Pool } from 'pg';
import type { LlmQueryPlan, LlmUsageRow } from '@server/usage/model/llm-usage-plan';
import { DAY_MS } from '@contracts/usage/time';
import { planRange } from '@server/usage/model/time-segments';
import { PG_DIMENSIONS } from '../dimension-catalogs';

interface SumRow {
  k: string;
  dim_id: string | null;
  label: Buffer | null;
  workspace_id: string | null;
  workspace_name: Buffer | null;
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

/** Memory for the sums of one query (65 k groups of a year by user take about 20 MB). */
const SUMS_WORK_MEM = '64MB';

const COLUMNS = {
  workspace: 'workspace_id',
  project: 'project_id',
  user: 'user_id',
  api_key: 'api_key_id',
};

/**
 * The LLM usage answer of a plan, as the DuckDB backend gives it (`duckdb/llm/query-llm-usage.ts`):
 * one row per (bucket, group) with any run, ordered by bucket, then label as bytes (unlabelled
 * last), then id, then model name and provider as bytes.
 */
export async function queryLlmUsage(pool: Pool, plan: LlmQueryPlan): Promise<LlmUsageRow[]> {
  const { grid } = plan;
  const from = Math.max(grid.startMs, plan.floorMs ?? grid.startMs);
  if (from >= grid.endMs) return [];
  const byModel = plan.groupBy === 'model';
  const byProject = plan.groupBy === 'project';
  const dim = plan.groupBy === 'model' ? null : PG_DIMENSIONS[plan.groupBy];
  const column = plan.groupBy === 'model' ? null : COLUMNS[plan.groupBy];
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
         ${column ? `r.${column}` : 'NULL::uuid'} AS dim_id,
         ${byModel ? 'r.model_name' : 'NULL::bytea'} AS model_name,
         ${byModel ? 'r.model_provider' : 'NULL::bytea'} AS model_provider,
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
         d.dim_id, d.model_name, d.model_provider, ${measures}
       FROM usage.llm_daily d
       WHERE d.grouping = ${bind(plan.groupBy)} AND d.workspace_id = ANY($3::uuid[])
         AND d.epoch_day >= ${bind(rollupDays.from / DAY_MS)}
         AND d.epoch_day < ${bind(rollupDays.to / DAY_MS)}`);
  }
  if (sources.length === 0) return [];
  // A year by user groups 1.6 M daily rows into 65 k (bucket, user) sums: in memory rather than
  // sorted on disk (the default work_mem), and without JIT compiling (40 ms of a cold query).
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
       SELECT k, dim_id, model_name, model_provider,
         sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
         sum(cache_read_tokens) AS cache_read, sum(cache_creation_tokens) AS cache_creation,
         sum(total_tokens) AS total_tokens, coalesce(sum(cost_nanos), 0) AS cost_nanos,
         sum(priced_runs) AS priced, sum(unpriced_runs) AS unpriced
       FROM facts
       GROUP BY 1, 2, 3, 4
       HAVING sum(priced_runs) + sum(unpriced_runs) > 0
     )
     SELECT s.k::text AS k, s.dim_id::text AS dim_id, ${dim ? `d.${dim.label}` : 'NULL::bytea'} AS label,
       ${byProject ? 'w.id::text' : 'NULL::text'} AS workspace_id,
       ${byProject ? 'w.display_name' : 'NULL::bytea'} AS workspace_name,
       s.model_name, s.model_provider, s.input_tokens::text AS input_tokens,
       s.output_tokens::text AS output_tokens, s.cache_read::text AS cache_read,
       s.cache_creation::text AS cache_creation, s.total_tokens::text AS total_tokens,
       s.cost_nanos::text AS cost_nanos, s.priced::text AS priced, s.unpriced::text AS unpriced
     FROM sums s
     ${dim ? `LEFT JOIN ${dim.table} d ON d.id = s.dim_id` : ''}
     ${byProject ? 'LEFT JOIN usage.workspaces w ON w.id = d.workspace_id' : ''}
     ORDER BY s.k, label NULLS LAST, s.dim_id NULLS LAST, s.model_name NULLS LAST,
       s.model_provider NULLS LAST`,
      params,
    );
    await client.query('COMMIT');
    failed = false;
    return result.rows.map((row) => ({
      bucket: Number(row.k),
      dimId: row.dim_id,
      label: row.label?.toString('utf8') ?? null,
      workspace:
        row.workspace_id === null
          ? null
          : { id: row.workspace_id, name: row.workspace_name?.toString('utf8') ?? '' },
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
