import { queryOptions } from '@tanstack/react-query';
import { API_PATHS, type counterCustomerResponse, type myDayResponse } from '@kanak/contract';
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

/**
 * POST /api/counter/customer: the chosen customer's points and those expiring soon, their tier,
 * and their running schemes with what is overdue and what may be taken today.
 */
export const counterCustomerQuery = (mobile: string) =>
  queryOptions({
    queryKey: ['counter', 'customer', mobile] as const,
    queryFn: async () => {
      const { data } = await api.post<Answer<typeof counterCustomerResponse>>(
        API_PATHS.counterCustomer,
        { mobile },
      );
      return expectSuccess(data).data;
    },
    enabled: mobile !== '',
    // Asked again at each choice and each visit: a payment taken elsewhere must show.
    staleTime: 0,
  });
