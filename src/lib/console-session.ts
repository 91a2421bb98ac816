import { queryOptions, useQuery } from '@tanstack/react-query';
import { roleMay, type ConsoleAction } from '@contracts/console-roles';
import type { ConsoleSession } from '@contracts/console-session';
import { consoleSessionGuard } from '@contracts/response-guards';
import { toHttpError } from './http-error';

export async function getConsoleSession(signal?: AbortSignal): Promise<ConsoleSession> {
  const response = await fetch('/_console/auth/session', { signal });
  if (!response.ok) throw await toHttpError(response);
  return consoleSessionGuard(await response.json());
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
 * The answer the shell asked for, without asking again: the controls below the shell render
 * only once it is known (or the console signs no one in), and never send a request of their own.
 */
function useKnownSession() {
  return useQuery({ ...consoleSessionQueryOptions(), enabled: false }).data;
}

/**
 * Whether the signed-in user's role may do `action` (`contracts/console-roles.ts`), so that a
 * control they may not use is not offered. A console that signs no one in may do everything.
 */
export function useRoleMay(action: ConsoleAction): boolean {
  const data = useKnownSession();
  // Not known yet (no answer so far, or a control tested alone): the server still decides.
  if (!data || data.mode === 'none') return roleMay(null, action);
  return roleMay(data.user?.role ?? 'viewer', action);
}

/** Whether people sign in to this console: then no key is typed into (or kept by) the page. */
export function useSignsIn(): boolean {
  const data = useKnownSession();
  return data !== undefined && data.mode !== 'none';
}
