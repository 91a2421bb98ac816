import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usageLimitSchema, type LimitType, type UsageLimit } from '@contracts/usage/usage-limits';
import { limitStatusQueryOptions } from './get-limit-status';
import { sendToUsageApi } from './usage-api-client';
import { useUsageConnection, type UsageConnection } from './usage-connection';

export interface UsageLimitInput {
  workspaceId: string;
  limitType: LimitType;
  limitValue: number;
  /** Percent thresholds alerted; the stored ones (50/80/100 for a new limit) when absent. */
  alertThresholds?: number[];
}

/** LangSmith's `PUT /api/v1/usage-limits`, the workspace named by `X-Tenant-Id`. */
export async function putUsageLimit(
  connection: UsageConnection,
  input: UsageLimitInput,
): Promise<UsageLimit> {
  const response = await sendToUsageApi(
    connection,
    'PUT',
    '/usage-limits',
    {
      limit_type: input.limitType,
      limit_value: input.limitValue,
      ...(input.alertThresholds ? { alert_thresholds: input.alertThresholds } : {}),
    },
    { 'x-tenant-id': input.workspaceId },
  );
  return usageLimitSchema.parse(await response.json());
}

/** Saves a limit, then reads the status again (the bar, the projection and the alerts move). */
export function usePutUsageLimit() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UsageLimitInput) => putUsageLimit(connection, input),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: limitStatusQueryOptions(connection).queryKey }),
  });
}
