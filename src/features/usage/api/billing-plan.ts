import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { planGuard } from '@contracts/response-guards';
import type { Plan } from '@contracts/usage/pricing';
import { getFromUsageApi, sendToUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

const PLAN_PATH = '/orgs/current/billing/plan';

/** The organization's plan and prices (the server's default plan until an admin sets one). */
export async function getPlan(connection: UsageConnection, signal?: AbortSignal): Promise<Plan> {
  const response = await getFromUsageApi(connection, PLAN_PATH, undefined, signal);
  return planGuard(await response.json());
}

export function planQueryOptions(connection: UsageConnection) {
  return queryOptions({
    queryKey: ['usage', 'billing-plan', connectionId(connection)],
    queryFn: ({ signal }) => getPlan(connection, signal),
    // A server without plans (LangSmith itself) answers 404 at once: the default plan stands.
    retry: false,
    staleTime: 60_000,
  });
}

export function usePlan() {
  const { connection } = useUsageConnection();
  return useQuery(planQueryOptions(connection));
}

/** Saves the plan (admins only: usage-limits:manage), then every screen that prices reads it. */
export function usePutPlan() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (plan: Plan) =>
      planGuard(await (await sendToUsageApi(connection, 'PUT', PLAN_PATH, plan)).json()),
    onSuccess: async (plan) => {
      queryClient.setQueryData(planQueryOptions(connection).queryKey, plan);
      await queryClient.invalidateQueries({ queryKey: ['usage', 'invoice'] });
    },
  });
}
