import { useMutation, useQueryClient } from '@tanstack/react-query';
import { limitStatusQueryOptions } from './get-limit-status';
import { sendToUsageApi } from './usage-api-client';
import { useUsageConnection, type UsageConnection } from './usage-connection';

/** LangSmith's `DELETE /api/v1/usage-limits/{id}`: the workspace's own limit is gone. */
export async function deleteUsageLimit(connection: UsageConnection, id: string): Promise<void> {
  await sendToUsageApi(connection, 'DELETE', `/usage-limits/${encodeURIComponent(id)}`, undefined);
}

/** Removes a limit, then reads the status again (an org default may now be in force). */
export function useDeleteUsageLimit() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteUsageLimit(connection, id),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: limitStatusQueryOptions(connection).queryKey }),
  });
}
