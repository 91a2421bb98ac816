import { queryOptions, useQuery } from '@tanstack/react-query';
import { toUsageSearchParams } from '@contracts/usage/search-params';
import { usageResponseSchema } from '@contracts/usage/usage-schema';
import {
  limitTargetsOf,
  limitTargetWindow,
  type LimitTarget,
  type TargetScope,
} from '../model/limit-targets';
import { GRANULAR_USAGE_PATH } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/**
 * The projects or users of one workspace with traces in the picker's window, read from the
 * granular usage endpoint the tab already calls (grouped by project or user).
 */
export async function getLimitTargets(
  connection: UsageConnection,
  workspaceId: string,
  scope: TargetScope,
  window: { startMs: number; endMs: number },
  signal?: AbortSignal,
): Promise<LimitTarget[]> {
  const params = toUsageSearchParams({
    start_time: new Date(window.startMs).toISOString(),
    end_time: new Date(window.endMs).toISOString(),
    workspace_ids: [workspaceId],
    group_by: scope,
  });
  const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
  return limitTargetsOf(usageResponseSchema.parse(await response.json()).usage, scope);
}

export function limitTargetsQueryOptions(
  connection: UsageConnection,
  workspaceId: string,
  scope: TargetScope,
  nowMs: number,
) {
  const window = limitTargetWindow(nowMs);
  return queryOptions({
    queryKey: ['usage', 'limit-targets', connectionId(connection), workspaceId, scope, window],
    queryFn: ({ signal }) => getLimitTargets(connection, workspaceId, scope, window, signal),
    // New projects appear rarely; a day's window is read once while the card stays open.
    staleTime: 5 * 60_000,
  });
}

export function useLimitTargets(workspaceId: string, scope: TargetScope, nowMs: number) {
  const { connection } = useUsageConnection();
  return useQuery({
    ...limitTargetsQueryOptions(connection, workspaceId, scope, nowMs),
    enabled: workspaceId !== '',
  });
}
