import type { DuckDBConnection } from '@duckdb/node-api';
import type { LlmQueryPlan, LlmUsageRow } from '@server/usage/model/llm-usage-plan';
import { DIMENSIONS } from '../dimension-sql';

const iso = (ms: number) => new Date(ms).toISOString();
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The LLM usage answer of a plan: one row per (bucket, group) with any run, ordered by bucket,
 * then label (model name and provider by model; unlabelled last), then id. Runs before the floor
 * and outside `[start, end)` are not counted. Sums are exact: tokens and nano-dollars are
 * integers, read as text.
 */
export async function queryLlmUsage(
  connection: DuckDBConnection,
  plan: LlmQueryPlan,
): Promise<LlmUsageRow[]> {
  const { grid } = plan;
  const from = Math.max(grid.startMs, plan.floorMs ?? grid.startMs);
  if (from >= grid.endMs) return [];
  const values: string[] = [iso(from), iso(grid.endMs)];
  const workspaces = plan.workspaceIds.map((id) => {
    values.push(id);
    return `$${values.length}::UUID`;
  });
  const byModel = plan.groupBy === 'model';
  const dim = plan.groupBy === 'model' ? null : DIMENSIONS[plan.groupBy];
  const byProject = plan.groupBy === 'project';
  const sql = `WITH sums AS (
      SELECT ((epoch_ms(r.ingested_at) - ${grid.originMs}) // ${grid.stepMs})::INTEGER AS k,
        ${dim ? `r.${dim.column}` : 'NULL::UUID'} AS dim_id,
        ${byModel ? 'r.model_name' : 'NULL::VARCHAR'} AS model_name,
        ${byModel ? 'r.model_provider' : 'NULL::VARCHAR'} AS model_provider,
        sum(r.input_tokens)::VARCHAR AS input_tokens, sum(r.output_tokens)::VARCHAR AS output_tokens,
        sum(r.cache_read_tokens)::VARCHAR AS cache_read, sum(r.cache_creation_tokens)::VARCHAR AS cache_creation,
        sum(r.total_tokens)::VARCHAR AS total_tokens, coalesce(sum(r.cost_nanos), 0)::VARCHAR AS cost_nanos,
        count(r.cost_nanos)::VARCHAR AS priced, (count(*) - count(r.cost_nanos))::VARCHAR AS unpriced
      FROM llm_runs r
      WHERE r.workspace_id IN (${workspaces.join(', ')})
        AND r.ingested_at >= $1::TIMESTAMP AND r.ingested_at < $2::TIMESTAMP
      GROUP BY ALL
    )
    SELECT s.k, s.dim_id::VARCHAR AS dim_id, ${dim ? `d.${dim.label}` : 'NULL'} AS label,
      ${byProject ? 'w.id::VARCHAR' : 'NULL'} AS workspace_id,
      ${byProject ? 'w.display_name' : 'NULL'} AS workspace_name,
      s.model_name, s.model_provider, s.input_tokens, s.output_tokens, s.cache_read,
      s.cache_creation, s.total_tokens, s.cost_nanos, s.priced, s.unpriced
    FROM sums s
    ${dim ? `LEFT JOIN ${dim.table} d ON d.id = s.dim_id` : ''}
    ${byProject ? 'LEFT JOIN workspaces w ON w.id = d.workspace_id' : ''}
    ORDER BY s.k, label NULLS LAST, s.dim_id NULLS LAST, s.model_name NULLS LAST,
      s.model_provider NULLS LAST`;
  const reader = await connection.runAndReadAll(sql, values);
  return reader.getRowsJS().map((row) => {
    const [k, dimId, label, workspaceId, workspaceName, modelName, modelProvider, ...sums] = row;
    const [input, output, cacheRead, cacheCreation, total, cost, priced, unpriced] = sums.map(
      (value) => Number(value),
    );
    const id = text(workspaceId);
    return {
      bucket: Number(k),
      dimId: text(dimId),
      label: text(label),
      workspace: id === null ? null : { id, name: text(workspaceName) ?? '' },
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
