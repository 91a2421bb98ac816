import { queryOptions, useQuery } from '@tanstack/react-query';
import { roleMay, type ConsoleAction } from '@contracts/console-roles';
import { consoleSessionSchema, type ConsoleSession } from '@contracts/console-session';
import { toHttpError } from './http-error';

export async function getConsoleSession(signal?: AbortSignal): Promise<ConsoleSession> {
  const response = await fetch('/_console/auth/session', { signal });
  if (!response.ok) throw await toHttpError(response);
  return consoleSessionSchema.parse(await response.json());
}

/** Who is signed in; sign-in, sign-out and a refused request (401) refresh it. */
export function consoleSessionQueryOptions() {
  return queryOptions({
    queryKey: ['console', 'session'],
    queryFn: ({ signal }) => getConsoleSession(signal),
    staleTime: Infinity,
    // Unanswered, the shell shows the pages, which report what the server says.
    retry: false,
  });
}

export function useConsoleSession() {
  return useQuery(consoleSessionQueryOptions());
}

/**
 * Whether the signed-in user's role may do `action` (`contracts/console-roles.ts`), so that a
 * control they may not use is not offered. A console that signs no one in may do everything.
 */
export function useRoleMay(action: ConsoleAction): boolean {
  const { data } = useConsoleSession();
  // Unknown yet (the shell waits for it, so only outside the shell): the server still decides.
  if (!data || data.mode === 'none') return roleMay(null, action);
  return roleMay(data.user?.role ?? 'viewer', action);
}

/** Whether people sign in to this console: then no key is typed into (or kept by) the page. */
export function useSignsIn(): boolean {
  const { data } = useConsoleSession();
  return data !== undefined && data.mode !== 'none';
}
