import { useMutation, useQueryClient } from '@tanstack/react-query';
import { consoleSessionSchema, type ApiKeySignIn } from '@contracts/console-session';
import { consoleSessionQueryOptions } from '@/lib/console-session';
import { toHttpError } from '@/lib/http-error';

/** `POST /_console/auth/sign-in`: the key goes to the server once and never comes back. */
export async function signInWithApiKey(body: ApiKeySignIn) {
  const response = await fetch('/_console/auth/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await toHttpError(response);
  return consoleSessionSchema.parse(await response.json());
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithApiKey,
    onSuccess: (session) => {
      // Whatever was read before belongs to no one now: read it again as the new user.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'console' });
      queryClient.setQueryData(consoleSessionQueryOptions().queryKey, session);
    },
  });
}
