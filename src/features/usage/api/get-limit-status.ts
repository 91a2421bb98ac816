import { queryOptions, useQuery } from '@tanstack/react-query';
import { limitStatusListGuard } from '@contracts/response-guards';
import type { LimitStatus } from '@contracts/usage/usage-limits';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** This month's standing of every limit of every workspace the key reads (one request). */
export async function getLimitStatus(
  connection: UsageConnection,
  signal?: AbortSignal,
): Promise<LimitStatus[]> {
  const response = await getFromUsageApi(connection, '/usage-limits/org/status', undefined, signal);
  return limitStatusListGuard(await response.json());
}

export function limitStatusQueryOptions(connection: UsageConnection) {
  return queryOptions({
    queryKey: ['usage', 'limit-status', connectionId(connection)],
    queryFn: ({ signal }) => getLimitStatus(connection, signal),
    // Counts move while traces arrive: look again every half minute while the tab is open.
    refetchInterval: 30_000,
  });
}

export function useLimitStatus() {
  const { connection } = useUsageConnection();
  return useQuery(limitStatusQueryOptions(connection));
}
