import { usageExportFilename } from '@contracts/usage/export-filename';
import type { DeploymentQueryPlan } from '../model/deployment-plan';
import type { UsageStore } from '../store/usage-store';
import { deploymentUsageCsv } from './render-deployment-usage';

/**
 * The deployments export as one CSV body: a deployments answer holds a few rows per bucket and
 * agent (minutes of a year for 40 projects stay under a few MB), so it is not streamed.
 * `includeContext`: a project's workspace is filled too (`include_context=true`).
 */
export async function deploymentCsvResponse(
  backend: UsageStore,
  plan: DeploymentQueryPlan,
  includeContext = false,
): Promise<Response> {
  const rows = await backend.facts.deploymentRows(plan);
  const filename = usageExportFilename(
    plan.grid.startMs,
    plan.grid.endMs,
    plan.groupBy,
    'langsmith_deployments',
  );
  return new Response(deploymentUsageCsv(plan, rows, includeContext), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    },
  });
}
