import { QueryClient, type QueryKey } from '@tanstack/react-query';
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

/**
 * After a change, what the screens read before it is asked for again. A first fetch still in
 * flight may have read before the change, and invalidating would reuse it (TanStack reuses a
 * running fetch of a query that has no data yet) and then count its answer as fresh: a
 * customer saved while the search for its mobile was on its way stayed "No matching
 * customers". So running fetches are cancelled first.
 */
export async function refetchAfterChange(client: QueryClient, queryKey: QueryKey) {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
