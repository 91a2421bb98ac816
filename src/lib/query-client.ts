import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { WireFormatError } from '@contracts/wire-guard';
import { consoleSessionQueryOptions } from './console-session';
import { HttpError } from './http-error';

export function createQueryClient() {
  // A 401 means the sign-in ended (expired, revoked): asking who is signed in again lets the
  // shell show the sign-in page instead of an error in every panel.
  const onError = (error: unknown) => {
    if (error instanceof HttpError && error.status === 401) {
      void client.invalidateQueries({ queryKey: consoleSessionQueryOptions().queryKey });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // A 4xx, or an answer that breaks the API's contract, will not fix itself: show it at
        // once instead of after three silent retries.
        retry: (failureCount, error) =>
          !(error instanceof HttpError && error.status < 500) &&
          !(error instanceof WireFormatError) &&
          failureCount < 2,
      },
    },
  });
  return client;
}
