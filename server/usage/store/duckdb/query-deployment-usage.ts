import type { DuckDBConnection } from '@duckdb/node-api';
import type { DeploymentQueryPlan, DeploymentUsageRow } from '@server/usage/model/deployment-plan';
import { buildDeploymentUsageSql } from './deployment-usage-sql';

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** The rows of a deployments query in output order (bucket, then label, then id). */
export async function queryDeploymentUsage(
  connection: DuckDBConnection,
  plan: DeploymentQueryPlan,
): Promise<DeploymentUsageRow[]> {
  const query = buildDeploymentUsageSql(plan);
  if (!query) return [];
  const reader = await connection.runAndReadAll(query.sql, query.values);
  return reader.getRowsJS().map((values) => {
    const [k, dimId, label, workspaceId, workspaceName, nodes, runs, uptimeMs] = values;
    const id = text(workspaceId);
    return {
      bucket: Number(k),
      dimId: text(dimId),
      label: text(label),
      workspace: id === null ? null : { id, name: text(workspaceName) ?? '' },
      nodesExecuted: Number(nodes),
      agentRuns: Number(runs),
      uptimeMs: Number(uptimeMs),
    };
  });
}
