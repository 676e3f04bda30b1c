import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { API_PATHS, type dashboardResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from '../../lib/api';

/** GET /api/dashboard: the figures and charts of one branch (its code), or the chain (''). */
export const dashboardQuery = (branch: string) =>
  queryOptions({
    queryKey: ['dashboard', branch] as const,
    queryFn: async () => {
      const { data } = await api.get<Answer<typeof dashboardResponse>>(API_PATHS.dashboard, {
        params: branch ? { branch } : {},
      });
      return expectSuccess(data).data;
    },
    // The other branch's figures stay on screen until this one's arrive.
    placeholderData: keepPreviousData,
    // Payments keep coming in: every visit asks again.
    staleTime: 0,
  });
