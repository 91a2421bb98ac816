import { QueryClient } from '@tanstack/react-query';
import { HttpError } from './http-error';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // A 4xx will not fix itself: show it at once instead of after three silent retries.
        retry: (failureCount, error) =>
          !(error instanceof HttpError && error.status < 500) && failureCount < 2,
      },
    },
  });
}
