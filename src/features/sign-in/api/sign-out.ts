import { useMutation, useQueryClient } from '@tanstack/react-query';
import { consoleSessionSchema } from '@contracts/console-session';
import { consoleSessionQueryOptions } from '@/lib/console-session';
import { toHttpError } from '@/lib/http-error';

/** `POST /_console/auth/sign-out`: the server forgets the session and clears the cookie. */
export async function signOut() {
  const response = await fetch('/_console/auth/sign-out', { method: 'POST' });
  if (!response.ok) throw await toHttpError(response);
  return consoleSessionSchema.parse(await response.json());
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: (session) => {
      // Nothing the signed-out user read may stay on screen or in the cache.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'console' });
      queryClient.setQueryData(consoleSessionQueryOptions().queryKey, session);
    },
  });
}
