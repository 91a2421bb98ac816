import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type {
  TraceGroupBy,
  TraceTier,
  UsageKind,
  UsageRecord,
} from '@contracts/usage/usage-schema';
import { usageResponseGuard } from '@contracts/response-guards';
import { toUsageSearchParams } from '@contracts/usage/search-params';
import type { FetchWindow } from '../model/fetch-windows';
import {
  createViewGrid,
  isQueryable,
  usageViewKey,
  type ResolvedUsageView,
} from '../model/resolve-usage-view';
import { buildUsageMatrix, type UsageMatrix } from '../model/usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

export const GRANULAR_USAGE_PATH = '/orgs/current/billing/granular-usage';

/**
 * The query string of one fetch window: the domain (`kind`), tier filter and an export's
 * context columns (`includeContext`) when given.
 */
export function windowSearchParams(
  window: FetchWindow,
  groupBy: TraceGroupBy,
  workspaceIds: string[],
  options: { traceTier?: TraceTier | null; kind?: UsageKind; includeContext?: boolean } = {},
) {
  return toUsageSearchParams({
    start_time: new Date(window.startMs).toISOString(),
    end_time: new Date(window.endMs).toISOString(),
    workspace_ids: workspaceIds,
    group_by: groupBy,
    ...(options.kind && { kind: options.kind }),
    ...(options.traceTier && { trace_tier: options.traceTier }),
    ...(options.includeContext && { include_context: true }),
  });
}

/** Every window of the view in parallel, merged into the screen's buckets. */
export async function getUsageMatrix(
  connection: UsageConnection,
  view: ResolvedUsageView,
  signal?: AbortSignal,
): Promise<UsageMatrix> {
  const pages = await Promise.all(
    view.windows.map(async (window) => {
      const params = windowSearchParams(window, view.groupBy, view.workspaceIds, view);
      const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
      return usageResponseGuard(await response.json()).usage;
    }),
  );
  const records: UsageRecord[] = pages.flat();
  return buildUsageMatrix(records, createViewGrid(view), view.groupBy);
}

/** The key holds the whole resolved view, so every distinct screen has its own cache entry. */
export function usageMatrixQueryOptions(
  connection: UsageConnection,
  view: ResolvedUsageView | null,
) {
  return queryOptions({
    queryKey: [
      'usage',
      'matrix',
      connectionId(connection),
      view && { ...usageViewKey(view), stride: view.stride, aggregation: view.aggregation },
    ],
    queryFn: isQueryable(view)
      ? ({ signal }) => getUsageMatrix(connection, view, signal)
      : skipToken,
    // Keep the last chart on screen while the next range loads, instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

export function useUsageMatrix(view: ResolvedUsageView | null) {
  const { connection } = useUsageConnection();
  return useQuery(usageMatrixQueryOptions(connection, view));
}
