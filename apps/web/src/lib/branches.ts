import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Branch, type branchesResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from './api';

/** GET /api/branches: the shop's branches (the owner's call), one cache for every screen. */
export const branchesQuery = queryOptions({
  queryKey: ['branches'] as const,
  queryFn: async (): Promise<Branch[]> => {
    const { data } = await api.get<Answer<typeof branchesResponse>>(API_PATHS.branches);
    return expectSuccess(data).data;
  },
});

/** The branches, asked only when `enabled` (a manager keeps their own branch and asks nothing). */
export const useBranchList = (enabled = true) => useQuery({ ...branchesQuery, enabled });
