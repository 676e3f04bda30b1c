import { queryOptions } from '@tanstack/react-query';
import { API_PATHS, type myDayResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from '../../lib/api';

/** GET /api/reports/my-day: the installments the signed-in staff member took today. */
export const myDayQuery = queryOptions({
  queryKey: ['my-day'] as const,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof myDayResponse>>(API_PATHS.myDay);
    return expectSuccess(data).data;
  },
  // Each visit to the counter home asks again: the last customer's receipt must be there.
  staleTime: 0,
});
