import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConsoleConfig } from '@contracts/console-config';
import { consoleConfigGuard } from '@contracts/response-guards';
import { toHttpError } from './http-error';

export async function getConsoleConfig(signal?: AbortSignal): Promise<ConsoleConfig> {
  const response = await fetch('/_console/config', { signal });
  if (!response.ok) throw await toHttpError(response);
  return consoleConfigGuard(await response.json());
}

/** Read once per visit: the server's configuration does not change while it runs. */
export function consoleConfigQueryOptions() {
  return queryOptions({
    queryKey: ['console', 'config'],
    queryFn: ({ signal }) => getConsoleConfig(signal),
    staleTime: Infinity,
  });
}

export function useConsoleConfig() {
  return useQuery(consoleConfigQueryOptions());
}
