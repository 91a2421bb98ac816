import { queryOptions, useQuery } from '@tanstack/react-query';
import { alertDeliveryListSchema, type AlertDelivery } from '@contracts/usage/usage-limits';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** The latest webhook delivery attempts of usage-limit alerts, newest first. */
export async function getAlertDeliveries(
  connection: UsageConnection,
  signal?: AbortSignal,
): Promise<AlertDelivery[]> {
  const response = await getFromUsageApi(
    connection,
    '/usage-limits/org/deliveries',
    undefined,
    signal,
  );
  return alertDeliveryListSchema.parse(await response.json());
}

export function alertDeliveriesQueryOptions(connection: UsageConnection, enabled: boolean) {
  return queryOptions({
    queryKey: ['usage', 'alert-deliveries', connectionId(connection)],
    queryFn: ({ signal }) => getAlertDeliveries(connection, signal),
    enabled,
  });
}

/** Read only when the log is opened. */
export function useAlertDeliveries(enabled: boolean) {
  const { connection } = useUsageConnection();
  return useQuery(alertDeliveriesQueryOptions(connection, enabled));
}
