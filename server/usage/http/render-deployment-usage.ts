import {
  DEPLOYMENT_CSV_COLUMNS,
  DEPLOYMENT_VALUE_COLUMNS,
  type DeploymentUsageRecord,
  type DeploymentUsageResponse,
} from '@contracts/usage/deployment-usage-schema';
import { csvFilledColumns } from '@contracts/usage/usage-schema';
import { formatCsvRow, type CsvCell } from '@contracts/usage/csv';
import { toDimensions } from '../model/usage-rows';
import type { DeploymentQueryPlan, DeploymentUsageRow } from '../model/deployment-plan';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A row as a deployments record. Uptime is summed in milliseconds and rounded to whole seconds
 * per record, so each record's seconds are exact to half a second.
 */
function toRecord(plan: DeploymentQueryPlan, row: DeploymentUsageRow): DeploymentUsageRecord {
  return {
    time_bucket: iso(plan.grid.start(row.bucket)),
    dimensions: toDimensions(plan.groupBy, row, row.workspace ?? undefined),
    nodes_executed: row.nodesExecuted,
    agent_runs: row.agentRuns,
    agent_uptime_seconds: Math.round(row.uptimeMs / 1000),
  };
}

/** The deployments JSON answer (`DeploymentUsageResponse`). */
export function deploymentUsageJson(
  plan: DeploymentQueryPlan,
  rows: readonly DeploymentUsageRow[],
): DeploymentUsageResponse {
  return { stride: plan.grid.stride, usage: rows.map((row) => toRecord(plan, row)) };
}

/**
 * The deployments CSV: the header of `DEPLOYMENT_CSV_COLUMNS`, then one line per record with the
 * `group_by` columns filled (and its context with `includeContext`) and the three metrics in
 * place of `Traces`.
 */
export function deploymentUsageCsv(
  plan: DeploymentQueryPlan,
  rows: readonly DeploymentUsageRow[],
  includeContext = false,
): string {
  const dimensionColumns: Partial<Record<string, string>> = csvFilledColumns(plan.groupBy, {
    includeContext,
  });
  const valueColumns: Partial<Record<string, string>> = DEPLOYMENT_VALUE_COLUMNS;
  const lines = [formatCsvRow(DEPLOYMENT_CSV_COLUMNS)];
  for (const row of rows) {
    const { dimensions, ...metrics } = toRecord(plan, row);
    const fields: Record<string, CsvCell> = { ...dimensions, ...metrics };
    const cells = DEPLOYMENT_CSV_COLUMNS.map((column): CsvCell => {
      if (column === 'Time Bucket Start') return metrics.time_bucket;
      if (column === 'Time Bucket End') return iso(plan.grid.end(row.bucket));
      const key = dimensionColumns[column] ?? valueColumns[column];
      return key === undefined ? null : fields[key];
    });
    lines.push(formatCsvRow(cells));
  }
  return lines.join('');
}
