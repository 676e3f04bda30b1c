import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ACCESS, API_PATHS, mayCall, type meResponse } from '@kanak/contract';
import type { z } from 'zod';
import { api, expectSuccess } from './api';
import type { Screen } from './paths';

/** GET /api/me: who is signed in, with their role. Cleared with the rest at a session's end. */
export const meQuery = queryOptions({
  queryKey: ['me'] as const,
  queryFn: async () => {
    const { data } = await api.get<z.infer<typeof meResponse>>(API_PATHS.me);
    return expectSuccess(data).data;
  },
  staleTime: 5 * 60 * 1000,
});

/** Who is signed in: username, name, role and branch (undefined until GET /api/me answers). */
export const useMe = () => useQuery(meQuery);

/** May the signed-in staff member open this screen? False until the role is known. */
export function useMayOpen(): (screen: Screen) => boolean {
  const { data: me } = useQuery(meQuery);
  return (screen) =>
    screen.access === undefined || (me !== undefined && mayCall(me.role, screen.access));
}

/**
 * May the signed-in staff member make this call? False until the role is known, so a control
 * the role may not use never shows, not even for a moment.
 */
export function useMayCall(call: keyof typeof ACCESS): boolean {
  const { data: me } = useQuery(meQuery);
  return me !== undefined && mayCall(me.role, call);
}
