import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiKeyInfoSchema,
  apiKeyListSchema,
  createdApiKeySchema,
  type ApiKeyRole,
} from '@contracts/usage/admin-schema';
import { getFromUsageApi, sendToUsageApi } from '@/features/usage/api/usage-api-client';
import {
  connectionId,
  useUsageConnection,
  type UsageConnection,
} from '@/features/usage/api/usage-connection';
import { auditLogKey } from './audit-log';

export function apiKeysQueryOptions(connection: UsageConnection) {
  return queryOptions({
    queryKey: ['admin', 'api-keys', connectionId(connection)],
    queryFn: async ({ signal }) =>
      apiKeyListSchema.parse(
        await (await getFromUsageApi(connection, '/api-key', undefined, signal)).json(),
      ),
  });
}

/** LangSmith's `GET /api/v1/api-key`: the keys made with a role, never the keys themselves. */
export function useApiKeys() {
  const { connection } = useUsageConnection();
  return useQuery(apiKeysQueryOptions(connection));
}

/** Makes a key; the answer holds the key, shown once. The list and the audit log are read again. */
export function useCreateApiKey() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { description: string; role: ApiKeyRole }) =>
      createdApiKeySchema.parse(
        await (await sendToUsageApi(connection, 'POST', '/api-key', body)).json(),
      ),
    onSuccess: () => invalidate(queryClient, connection),
  });
}

/** Revokes a key: it is refused from the next request on. */
export function useRevokeApiKey() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      apiKeyInfoSchema.parse(
        await (
          await sendToUsageApi(
            connection,
            'DELETE',
            `/api-key/${encodeURIComponent(id)}`,
            undefined,
          )
        ).json(),
      ),
    onSuccess: () => invalidate(queryClient, connection),
  });
}

function invalidate(queryClient: ReturnType<typeof useQueryClient>, connection: UsageConnection) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions(connection).queryKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey(connection) }),
  ]);
}
