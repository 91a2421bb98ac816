import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  anyLimitListSchema,
  scopedLimitSchema,
  type ScopedLimit,
} from '@contracts/usage/usage-limits';
import { limitStatusQueryOptions } from './get-limit-status';
import { getFromUsageApi, sendToUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** `GET /api/v1/usage-limits/org`: the project, user and spend limits among every readable one. */
export async function getScopedLimits(
  connection: UsageConnection,
  signal?: AbortSignal,
): Promise<ScopedLimit[]> {
  const response = await getFromUsageApi(connection, '/usage-limits/org', undefined, signal);
  return anyLimitListSchema
    .parse(await response.json())
    .filter((limit): limit is ScopedLimit => 'scope' in limit);
}

export function scopedLimitsQueryOptions(connection: UsageConnection) {
  return queryOptions({
    queryKey: ['usage', 'scoped-limits', connectionId(connection)],
    queryFn: ({ signal }) => getScopedLimits(connection, signal),
  });
}

export function useScopedLimits() {
  const { connection } = useUsageConnection();
  return useQuery(scopedLimitsQueryOptions(connection));
}

/** A project or user trace limit, or a workspace's spend in dollars with its extended share. */
export type ScopedLimitInput =
  | { workspaceId: string; scope: 'project' | 'user'; targetId: string; traces: number }
  | { workspaceId: string; scope: 'spend'; dollars: number; extendedShare: number };

/** `PUT /api/v1/usage-limits` of a project, user or spend limit (`X-Tenant-Id`: the workspace). */
export async function putScopedLimit(
  connection: UsageConnection,
  input: ScopedLimitInput,
): Promise<ScopedLimit> {
  const body =
    input.scope === 'spend'
      ? {
          limit_type: 'monthly_spend',
          limit_value: input.dollars,
          extended_share: input.extendedShare,
        }
      : {
          scope: input.scope,
          target_id: input.targetId,
          limit_type: 'monthly_traces',
          limit_value: input.traces,
        };
  const response = await sendToUsageApi(connection, 'PUT', '/usage-limits', body, {
    'x-tenant-id': input.workspaceId,
  });
  return scopedLimitSchema.parse(await response.json());
}

export function usePutScopedLimit() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScopedLimitInput) => putScopedLimit(connection, input),
    // The month's status lists these limits too (what they used so far).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: scopedLimitsQueryOptions(connection).queryKey }),
        queryClient.invalidateQueries({ queryKey: limitStatusQueryOptions(connection).queryKey }),
      ]),
  });
}
