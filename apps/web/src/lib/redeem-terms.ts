import { queryOptions } from '@tanstack/react-query';
import { API_PATHS, type redeemTermsResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from './api';

/** Every customer's look-up; a change to a customer's tier asks them all again. */
export const redeemTermsKey = ['points', 'balance', 'redeem-terms'] as const;

/**
 * POST /api/points/redeem-terms: a customer's balance, its worth, the rules' minimum and, while
 * tiers are set, where the customer stands. One cache for every screen that looks a customer
 * up; under the points balances, so a change to the points asks again.
 */
export const redeemTermsQuery = (mobile: string) =>
  queryOptions({
    queryKey: [...redeemTermsKey, mobile] as const,
    queryFn: async () => {
      const { data } = await api.post<Answer<typeof redeemTermsResponse>>(API_PATHS.redeemTerms, {
        mobile,
      });
      return expectSuccess(data).data;
    },
    enabled: mobile !== '',
    staleTime: 0,
  });
