import { queryOptions } from '@tanstack/react-query';
import { API_PATHS, type financialYearResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from './api';

/**
 * GET /api/customers/get-fyear: 1 April of the current financial year (store's time zone).
 * The default "Date from" of the points statement and the scheme summary.
 */
export const financialYearQuery = queryOptions({
  queryKey: ['financial-year'] as const,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof financialYearResponse>>(API_PATHS.financialYear);
    const { sfdate } = expectSuccess(data).data;
    if (!sfdate) throw new Error('get-fyear answered without sfdate');
    return sfdate;
  },
  staleTime: 60 * 60 * 1000,
});
