import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { invoiceSchema, type Invoice } from '@contracts/usage/billing-schema';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** `GET /orgs/current/billing/invoices?month=YYYY-MM`: a month's invoice (a draft until it ends). */
export async function getInvoice(
  connection: UsageConnection,
  month: string,
  signal?: AbortSignal,
): Promise<Invoice> {
  const response = await getFromUsageApi(
    connection,
    '/orgs/current/billing/invoices',
    new URLSearchParams({ month }),
    signal,
  );
  return invoiceSchema.parse(await response.json());
}

export function invoiceQueryOptions(connection: UsageConnection, month: string) {
  return queryOptions({
    queryKey: ['usage', 'invoice', connectionId(connection), month],
    queryFn: ({ signal }) => getInvoice(connection, month, signal),
    // The month before stays on screen while another loads.
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export function useInvoice(month: string) {
  const { connection } = useUsageConnection();
  return useQuery(invoiceQueryOptions(connection, month));
}
