import type { DeploymentQueryPlan } from '@server/usage/model/deployment-plan';
import { DIMENSIONS } from './dimension-sql';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The deployments answer of a plan: one row per (bucket, dimension value) with any metric above
 * zero, ordered by bucket, then label (unlabelled last), then id: `k` (bucket number), `dim_id`,
 * `label`, `workspace_id` / `workspace_name` (a project's workspace), `nodes_executed`,
 * `agent_runs`, `uptime_ms`. Deployment work has no user or API key: grouped by those, every
 * row has a NULL value. Rows before the floor and outside `[start, end)` are not counted.
 * Null when the range lies wholly before the floor.
 */
export function buildDeploymentUsageSql(
  plan: DeploymentQueryPlan,
): { sql: string; values: string[] } | null {
  const { grid } = plan;
  const from = Math.max(grid.startMs, plan.floorMs ?? grid.startMs);
  if (from >= grid.endMs) return null;
  const values: string[] = [iso(from), iso(grid.endMs)];
  const workspaces = plan.workspaceIds.map((id) => {
    values.push(id);
    return `$${values.length}::UUID`;
  });
  const entity = plan.groupBy === 'workspace' || plan.groupBy === 'project';
  const dim = DIMENSIONS[plan.groupBy];
  const column = entity ? `u.${dim.column}` : 'NULL::UUID';
  const sql = `WITH sums AS (
      SELECT ((epoch_ms(u.metered_at) - ${grid.originMs}) // ${grid.stepMs})::INTEGER AS k,
        ${column} AS dim_id, sum(u.nodes_executed)::DOUBLE AS nodes_executed,
        sum(u.agent_runs)::DOUBLE AS agent_runs, sum(u.uptime_ms)::DOUBLE AS uptime_ms
      FROM deployment_usage u
      WHERE u.workspace_id IN (${workspaces.join(', ')})
        AND u.metered_at >= $1::TIMESTAMP AND u.metered_at < $2::TIMESTAMP
      GROUP BY ALL
      HAVING sum(u.nodes_executed) > 0 OR sum(u.agent_runs) > 0 OR sum(u.uptime_ms) >= 500
    )
    SELECT s.k, s.dim_id::VARCHAR AS dim_id, ${entity ? `d.${dim.label}` : 'NULL'} AS label,
      ${plan.groupBy === 'project' ? 'w.id::VARCHAR' : 'NULL'} AS workspace_id,
      ${plan.groupBy === 'project' ? 'w.display_name' : 'NULL'} AS workspace_name,
      s.nodes_executed, s.agent_runs, s.uptime_ms
    FROM sums s
    ${entity ? `LEFT JOIN ${dim.table} d ON d.id = s.dim_id` : ''}
    ${plan.groupBy === 'project' ? 'LEFT JOIN workspaces w ON w.id = d.workspace_id' : ''}
    ORDER BY s.k, label NULLS LAST, s.dim_id NULLS LAST`;
  return { sql, values };
}
