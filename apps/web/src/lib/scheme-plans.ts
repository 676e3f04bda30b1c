import { queryOptions } from '@tanstack/react-query';
import { API_PATHS, type schemePlansResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from './api';

export const schemePlanKeys = { all: ['scheme-plans'] as const };

/**
 * GET /api/scheme-plans: every plan, offered or not, with how many schemes use each. One cache
 * for the owner's Scheme plans screen and the plan picker where a scheme is started.
 */
export const schemePlansQuery = queryOptions({
  queryKey: schemePlanKeys.all,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof schemePlansResponse>>(API_PATHS.schemePlans);
    return expectSuccess(data).data;
  },
});
