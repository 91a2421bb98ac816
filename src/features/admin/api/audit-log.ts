import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { auditLogPageSchema } from '@contracts/usage/admin-schema';
import { getFromUsageApi } from '@/features/usage/api/usage-api-client';
import {
  connectionId,
  useUsageConnection,
  type UsageConnection,
} from '@/features/usage/api/usage-connection';

export const AUDIT_PAGE_SIZE = 50;
const AUDIT_PATH = '/orgs/current/audit-log';

export const auditLogKey = (connection: UsageConnection) => [
  'admin',
  'audit-log',
  connectionId(connection),
];

export function auditLogQueryOptions(connection: UsageConnection, offset: number) {
  return queryOptions({
    queryKey: [...auditLogKey(connection), offset],
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({
        limit: String(AUDIT_PAGE_SIZE),
        offset: String(offset),
      });
      const response = await getFromUsageApi(connection, AUDIT_PATH, params, signal);
      return auditLogPageSchema.parse(await response.json());
    },
    placeholderData: keepPreviousData,
  });
}

/** One page of the audit log, newest first. */
export function useAuditLog(offset: number) {
  const { connection } = useUsageConnection();
  return useQuery(auditLogQueryOptions(connection, offset));
}

/** The whole log as CSV, fetched with the connection's key and saved as a file. */
export async function downloadAuditCsv(connection: UsageConnection): Promise<void> {
  const response = await getFromUsageApi(connection, `${AUDIT_PATH}/export`, undefined, undefined);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'audit-log.csv';
  link.click();
  URL.revokeObjectURL(url);
}
