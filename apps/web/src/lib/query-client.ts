import { QueryClient } from '@tanstack/react-query';
import { onSessionEnd } from './session';

/**
 * Server state for the screens under /home (the login page does without, to stay small).
 * axios-retry already retries what the spec allows, so TanStack Query never retries on top.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

// One user's data never shows to the next.
onSessionEnd(() => queryClient.clear());
