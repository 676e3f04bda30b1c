import { QueryClient } from '@tanstack/react-query';

/** axios-retry already retries what the spec allows, so TanStack Query never retries on top. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
