import {
  DEPLOYMENT_VALUE_COLUMNS,
  type DeploymentUsageRecord,
} from '@contracts/usage/deployment-usage-schema';
import { csvFilledColumns } from '@contracts/usage/usage-schema';
import { toDimensions } from '../model/usage-rows';
import type { DeploymentQueryPlan, DeploymentUsageRow } from '../model/deployment-plan';
import { createDomainRenderer } from './render-domain-usage';

/**
 * The deployments JSON answer (`DeploymentUsageResponse`), and its CSV: the header of
 * `DEPLOYMENT_CSV_COLUMNS`, then one line per record with the `group_by` columns filled (and its
 * context with `includeContext`) and the three metrics in place of `Traces`.
 */
export const { json: deploymentUsageJson, csv: deploymentUsageCsv } = createDomainRenderer({
  /**
   * Uptime is summed in milliseconds and rounded to whole seconds per record, so each record's
   * seconds are exact to half a second.
   */
  record: (plan: DeploymentQueryPlan, row: DeploymentUsageRow) => ({
    dimensions: toDimensions(plan.groupBy, row, row.workspace ?? undefined),
    metrics: {
      nodes_executed: row.nodesExecuted,
      agent_runs: row.agentRuns,
      agent_uptime_seconds: Math.round(row.uptimeMs / 1000),
    } satisfies Omit<DeploymentUsageRecord, 'time_bucket' | 'dimensions'>,
  }),
  valueColumns: DEPLOYMENT_VALUE_COLUMNS,
  dimensionColumns: (plan, includeContext) => csvFilledColumns(plan.groupBy, { includeContext }),
});
