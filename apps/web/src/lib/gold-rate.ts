import { queryOptions } from '@tanstack/react-query';
import { API_PATHS, type goldRateTodayResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from './api';

/** Every gold rate call's cache starts with this, so a saved rate refreshes them all. */
export const goldRateKeys = {
  all: ['gold-rates'] as const,
  today: ['gold-rates', 'today'] as const,
  history: (from: string, to: string) => ['gold-rates', 'history', from, to] as const,
};

/**
 * GET /api/gold-rates/today: today's 22K and 24K rate, or null before anyone entered it. One
 * cache for the dashboard and the screens that quote the rate.
 */
export const todayGoldRateQuery = queryOptions({
  queryKey: goldRateKeys.today,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof goldRateTodayResponse>>(API_PATHS.goldRateToday);
    return expectSuccess(data).data;
  },
});
