import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { toHttpError } from './http-error';

/** The secret-free configuration the server publishes at `/_console/config`. */
const consoleConfigSchema = z.object({
  usage: z.object({
    source: z.enum(['embedded', 'langsmith']),
    upstream: z.string().nullable(),
    deploymentMode: z.enum(['cloud', 'self-hosted']),
  }),
  deployment: z.object({
    source: z.enum(['embedded', 'remote']),
    upstream: z.string().nullable(),
  }),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

export async function getConsoleConfig(signal?: AbortSignal): Promise<ConsoleConfig> {
  const response = await fetch('/_console/config', { signal });
  if (!response.ok) throw await toHttpError(response);
  return consoleConfigSchema.parse(await response.json());
}

export function consoleConfigQueryOptions() {
  return queryOptions({
    queryKey: ['console', 'config'],
    queryFn: ({ signal }) => getConsoleConfig(signal),
    staleTime: Infinity,
  });
}
