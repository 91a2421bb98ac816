import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  orgDefaultLimitListSchema,
  type LimitType,
  type OrgDefaultLimit,
} from '@contracts/usage/usage-limits';
import { limitStatusQueryOptions } from './get-limit-status';
import { getFromUsageApi, sendToUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** `GET /api/v1/usage-limits/org/default`: the default per limit type (none set: empty). */
export async function getOrgDefaultLimits(
  connection: UsageConnection,
  signal?: AbortSignal,
): Promise<OrgDefaultLimit[]> {
  const response = await getFromUsageApi(
    connection,
    '/usage-limits/org/default',
    undefined,
    signal,
  );
  return orgDefaultLimitListSchema.parse(await response.json());
}

export function orgDefaultLimitsQueryOptions(connection: UsageConnection) {
  return queryOptions({
    queryKey: ['usage', 'org-default-limits', connectionId(connection)],
    queryFn: ({ signal }) => getOrgDefaultLimits(connection, signal),
  });
}

export function useOrgDefaultLimits() {
  const { connection } = useUsageConnection();
  return useQuery(orgDefaultLimitsQueryOptions(connection));
}

export interface OrgDefaultInput {
  limitType: LimitType;
  limitValue: number;
  /** Also give it now to each workspace without its own limit of that type. */
  applyToExisting: boolean;
}

/** `PUT /api/v1/usage-limits/org/default` (`apply_to` as the checkbox says). */
export async function putOrgDefaultLimit(
  connection: UsageConnection,
  input: OrgDefaultInput,
): Promise<void> {
  await sendToUsageApi(connection, 'PUT', '/usage-limits/org/default', {
    limit_type: input.limitType,
    limit_value: input.limitValue,
    apply_to: input.applyToExisting ? 'existing_without_limit' : 'new_workspaces',
  });
}

/** Saves the default, then reads the defaults and the status again. */
export function usePutOrgDefaultLimit() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OrgDefaultInput) => putOrgDefaultLimit(connection, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({
          queryKey: orgDefaultLimitsQueryOptions(connection).queryKey,
        }),
        queryClient.invalidateQueries({ queryKey: limitStatusQueryOptions(connection).queryKey }),
      ]),
  });
}
