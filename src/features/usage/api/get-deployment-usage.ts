import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { deploymentUsageResponseSchema } from '@contracts/usage/deployment-usage-schema';
import { deploymentGroupBy } from '../model/deployment-group-by';
import { buildDeploymentMatrices, type DeploymentMatrices } from '../model/deployment-matrices';
import {
  createViewGrid,
  isQueryable,
  usageViewKey,
  type ResolvedUsageView,
} from '../model/resolve-usage-view';
import { GRANULAR_USAGE_PATH, windowSearchParams } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** The query string of one window of the Deployments tab (`kind=langsmith_deployments`). */
export function deploymentSearchParams(
  view: ResolvedUsageView,
  window: ResolvedUsageView['windows'][number],
) {
  return windowSearchParams(window, deploymentGroupBy(view.groupBy), view.workspaceIds, {
    kind: 'langsmith_deployments',
  });
}

/** Every window of the view in parallel, merged into the screen's buckets, per metric. */
export async function getDeploymentUsage(
  connection: UsageConnection,
  view: ResolvedUsageView,
  signal?: AbortSignal,
): Promise<DeploymentMatrices> {
  const pages = await Promise.all(
    view.windows.map(async (window) => {
      const params = deploymentSearchParams(view, window);
      const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
      return deploymentUsageResponseSchema.parse(await response.json()).usage;
    }),
  );
  return buildDeploymentMatrices(
    pages.flat(),
    createViewGrid(view),
    deploymentGroupBy(view.groupBy),
  );
}

/** The key holds the resolved view as the Deployments tab asks for it (no tier, its grouping). */
export function deploymentUsageQueryOptions(
  connection: UsageConnection,
  view: ResolvedUsageView | null,
) {
  return queryOptions({
    queryKey: [
      'usage',
      'deployments',
      connectionId(connection),
      view && {
        ...usageViewKey(view),
        groupBy: deploymentGroupBy(view.groupBy),
        traceTier: null,
        stride: view.stride,
        aggregation: view.aggregation,
      },
    ],
    queryFn: isQueryable(view)
      ? ({ signal }) => getDeploymentUsage(connection, view, signal)
      : skipToken,
    // Keep the last charts on screen while the next range loads, instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

export function useDeploymentUsage(view: ResolvedUsageView | null) {
  const { connection } = useUsageConnection();
  return useQuery(deploymentUsageQueryOptions(connection, view));
}
