import { queryOptions } from '@tanstack/react-query';
import { API_PATHS, type tiersResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from './api';

export const tiersKey = ['tiers'] as const;

/**
 * GET /api/settings/tiers (owner): the tiers in force, lowest first, and when a tier falls.
 * One cache for the Tiers screen and the choice of a tier set by hand.
 */
export const tiersQuery = queryOptions({
  queryKey: tiersKey,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof tiersResponse>>(API_PATHS.tiers);
    return expectSuccess(data).data;
  },
});
