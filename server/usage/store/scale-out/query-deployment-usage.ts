import type { Pool } from 'pg';
import type { DeploymentQueryPlan, DeploymentUsageRow } from '@server/usage/model/deployment-plan';
import { PG_DIMENSIONS } from './dimension-catalogs';

interface SumRow {
  k: string;
  dim_id: string | null;
  label: Buffer | null;
  workspace_id: string | null;
  workspace_name: Buffer | null;
  nodes: string;
  runs: string;
  uptime: string;
}

/**
 * The deployments answer of a plan, as the DuckDB backend gives it
 * (`duckdb/deployment-usage-sql.ts`): one row per (bucket, value) with any metric (uptime
 * from 500 ms), ordered by bucket, then label as bytes (unlabelled last), then id. Deployment
 * work has no user or API key: grouped by those, the value is NULL.
 */
export async function queryDeploymentUsage(
  pool: Pool,
  plan: DeploymentQueryPlan,
): Promise<DeploymentUsageRow[]> {
  const { grid } = plan;
  const from = Math.max(grid.startMs, plan.floorMs ?? grid.startMs);
  if (from >= grid.endMs) return [];
  const entity = plan.groupBy === 'workspace' || plan.groupBy === 'project';
  const byProject = plan.groupBy === 'project';
  const dim = entity ? PG_DIMENSIONS[plan.groupBy] : null;
  const column = plan.groupBy === 'workspace' ? 'u.workspace_id' : 'u.project_id';
  const result = await pool.query<SumRow>(
    `WITH sums AS (
       SELECT floor((u.metered_ms - $1::bigint)::numeric / $2::bigint)::bigint AS k,
         ${entity ? column : 'NULL::uuid'} AS dim_id, sum(u.nodes_executed) AS nodes,
         sum(u.agent_runs) AS runs, sum(u.uptime_ms) AS uptime
       FROM usage.deployment_usage u
       WHERE u.workspace_id = ANY($3::uuid[]) AND u.metered_ms >= $4 AND u.metered_ms < $5
       GROUP BY 1, 2
       HAVING sum(u.nodes_executed) > 0 OR sum(u.agent_runs) > 0 OR sum(u.uptime_ms) >= 500
     )
     SELECT s.k::text AS k, s.dim_id::text AS dim_id, ${dim ? `d.${dim.label}` : 'NULL::bytea'} AS label,
       ${byProject ? 'w.id::text' : 'NULL::text'} AS workspace_id,
       ${byProject ? 'w.display_name' : 'NULL::bytea'} AS workspace_name,
       s.nodes::text AS nodes, s.runs::text AS runs, s.uptime::text AS uptime
     FROM sums s
     ${dim ? `LEFT JOIN ${dim.table} d ON d.id = s.dim_id` : ''}
     ${byProject ? 'LEFT JOIN usage.workspaces w ON w.id = d.workspace_id' : ''}
     ORDER BY s.k, label NULLS LAST, s.dim_id NULLS LAST`,
    [grid.originMs, grid.stepMs, plan.workspaceIds, from, grid.endMs],
  );
  return result.rows.map((row) => ({
    bucket: Number(row.k),
    dimId: row.dim_id,
    label: row.label?.toString('utf8') ?? null,
    workspace:
      row.workspace_id === null
        ? null
        : { id: row.workspace_id, name: row.workspace_name?.toString('utf8') ?? '' },
    nodesExecuted: Number(row.nodes),
    agentRuns: Number(row.runs),
    uptimeMs: Number(row.uptime),
  }));
}
