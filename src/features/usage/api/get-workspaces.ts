import { queryOptions, useQuery } from '@tanstack/react-query';
import { workspacesResponseGuard } from '@contracts/response-guards';
import type { Workspace } from '@contracts/usage/usage-schema';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

export async function getWorkspaces(
  connection: UsageConnection,
  signal?: AbortSignal,
): Promise<Workspace[]> {
  const response = await getFromUsageApi(connection, '/workspaces', undefined, signal);
  const workspaces = workspacesResponseGuard(await response.json());
  return workspaces
    .filter((workspace) => !workspace.is_deleted)
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
}

export function workspacesQueryOptions(connection: UsageConnection) {
  return queryOptions({
    queryKey: ['usage', 'workspaces', connectionId(connection)],
    queryFn: ({ signal }) => getWorkspaces(connection, signal),
    staleTime: 5 * 60_000,
  });
}

export function useWorkspaces() {
  const { connection } = useUsageConnection();
  return useQuery(workspacesQueryOptions(connection));
}
