import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  type MarkOnlineRefundRequest,
  type dashboardResponse,
  type messageResponse,
  type onlineRefundsResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';

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

const refundKeys = ['online-refunds'] as const;

/** GET /api/online-payments/refunds: online payments that bought no installment. */
export const onlineRefundsQuery = queryOptions({
  queryKey: refundKeys,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof onlineRefundsResponse>>(API_PATHS.onlineRefunds);
    return expectSuccess(data).data;
  },
  staleTime: 0,
});

/** POST /api/online-payments/refunds/mark: one refunded at the gateway, with its refund id. */
async function markRefunded(request: MarkOnlineRefundRequest, key: string) {
  const { data } = await api.post<Answer<typeof messageResponse>>(
    API_PATHS.markOnlineRefund,
    request,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** Notes a refund; the list asks again. */
export function useMarkRefunded() {
  const queryClient = useQueryClient();
  return useChange(markRefunded, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: refundKeys }),
  });
}
