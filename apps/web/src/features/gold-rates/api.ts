import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  GOLD_RATE_TEXTS,
  type GoldRateSaveRequest,
  type goldRateSaveResponse,
  type goldRatesResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { goldRateKeys } from '../../lib/gold-rate';

/** GET /api/gold-rates?from=&to=: the rates entered in those dates, newest first. */
export const goldRatesQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: goldRateKeys.history(from, to),
    queryFn: async () => {
      const { data } = await api.get<Answer<typeof goldRatesResponse>>(API_PATHS.goldRates, {
        params: { from, to },
      });
      return expectSuccess(data).data;
    },
    placeholderData: keepPreviousData,
  });

/** POST /api/gold-rates: a date's rate, entered or corrected. */
async function saveGoldRate(request: GoldRateSaveRequest, key: string) {
  const { data } = await api.post<Answer<typeof goldRateSaveResponse>>(
    API_PATHS.saveGoldRate,
    request,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** Saves a rate; today's card and every history shown ask again. */
export function useSaveGoldRate() {
  const queryClient = useQueryClient();
  return useChange(saveGoldRate, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: goldRateKeys.all }),
    failed: GOLD_RATE_TEXTS.saveFailed,
    unmadeAsAlert: true,
  });
}
