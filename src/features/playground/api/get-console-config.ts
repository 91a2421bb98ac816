import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { toHttpError } from '@/lib/http-error';

/** The part of `GET /_console/config` the playground reads: what the embedded setting reaches. */
const consoleConfigSchema = z.looseObject({
  deployment: z.object({
    source: z.enum(['embedded', 'remote']),
    upstream: z.string().nullable(),
  }),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

export async function getConsoleConfig({ signal }: { signal?: AbortSignal } = {}) {
  const response = await fetch('/_console/config', { signal });
  if (!response.ok) throw await toHttpError(response);
  return consoleConfigSchema.parse(await response.json());
}

export const consoleConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['console-config'],
    queryFn: ({ signal }) => getConsoleConfig({ signal }),
    staleTime: Infinity,
  });

export function useConsoleConfig() {
  return useQuery(consoleConfigQueryOptions());
}
