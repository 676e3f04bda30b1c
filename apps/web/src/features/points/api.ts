import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  LEDGER_TEXTS,
  MESSAGES,
  type CashCr,
  type CounterRedemptionRequest,
  type counterRedemptionResponse,
  type PointsStatementFilter,
  type customerProfileResponse,
  type messageResponse,
  type pointsStatementResponse,
  type pointsUpdateResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';

/** The loyalty-points form as the screens hold it; POINTS stays text. */
export interface PointsFormValues {
  CUSTNAME: string;
  MOBILENO: string;
  POINTS: string;
  NARRATION: string;
  INVDATE: string;
  /** No choice until the user makes one. */
  CASHCR: CashCr | '';
}

export type PointsEntry = Omit<PointsFormValues, 'CASHCR'> & { CASHCR: CashCr };

export const pointsKeys = {
  balance: (mobileno: string) => ['points', 'balance', mobileno] as const,
  statements: ['points', 'statement'] as const,
  statement: (filter: PointsStatementFilter | null) => ['points', 'statement', filter] as const,
};

/** The chosen customer's points balance, from POST /api/customers/get-customer-data. */
/** A customer's balance, its rupee value and the points expiring within 30 days. */
export interface PointsBalance {
  points: number;
  pointsValue?: number;
  pointsExpiringIn30Days?: number;
}

export const balanceQuery = (mobileno: string) =>
  queryOptions({
    queryKey: pointsKeys.balance(mobileno),
    queryFn: async (): Promise<PointsBalance> => {
      const { data } = await api.post<Answer<typeof customerProfileResponse>>(
        API_PATHS.customerData,
        { mobileno },
      );
      const { points, pointsValue, pointsExpiringIn30Days } = expectSuccess(data).data;
      return { points, pointsValue, pointsExpiringIn30Days };
    },
    enabled: mobileno !== '',
    staleTime: 0,
  });

export { financialYearQuery } from '../../lib/financial-year';

/** POST /api/customers/generate-statement for the submitted filter. */
export const statementQuery = (filter: PointsStatementFilter | null) =>
  queryOptions({
    queryKey: pointsKeys.statement(filter),
    queryFn: async () => {
      const { data } = await api.post<Answer<typeof pointsStatementResponse>>(
        API_PATHS.pointsStatement,
        filter,
      );
      return expectSuccess(data).data;
    },
    enabled: filter !== null,
    staleTime: 0,
  });

async function updatePoints(formData: PointsEntry, key: string) {
  const { data } = await api.post<Answer<typeof pointsUpdateResponse>>(
    API_PATHS.updatePoints,
    { formData },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

async function updateStatement(formData: PointsEntry & { MRN: number }, key: string) {
  const { data } = await api.post<Answer<typeof messageResponse>>(
    API_PATHS.updateStatement,
    { formData },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** After a change: balances and statements on screen are asked for again. */
function useRefreshPoints() {
  const queryClient = useQueryClient();
  return () => {
    void refetchAfterChange(queryClient, ['points', 'balance']);
    void refetchAfterChange(queryClient, pointsKeys.statements);
  };
}

/** `keptAs`: the screen's draft name, so an unsure press keeps its key with the draft. */
export function useUpdatePoints(keptAs?: string) {
  const refresh = useRefreshPoints();
  return useChange(updatePoints, {
    onSuccess: refresh,
    keptAs,
    failed: MESSAGES.pointsUpdateFailed,
  });
}

export function useUpdateStatement() {
  const refresh = useRefreshPoints();
  return useChange(updateStatement, {
    onSuccess: refresh,
    failed: MESSAGES.statementUpdateFailed,
  });
}

/** A customer's balance, its worth and the minimum, before a counter redemption. */
export { redeemTermsQuery } from '../../lib/redeem-terms';

async function redeemPoints(redemption: CounterRedemptionRequest, key: string) {
  const { data } = await api.post<Answer<typeof counterRedemptionResponse>>(
    API_PATHS.redeemPoints,
    redemption,
    withIdempotencyKey(key),
  );
  return expectSuccess(data).data;
}

/** POST /api/points/redeem: one press, one redemption, whatever happens to the answer. */
export function useRedeemPoints() {
  const refresh = useRefreshPoints();
  return useChange(redeemPoints, {
    onSuccess: refresh,
    failed: LEDGER_TEXTS.redeem.failed,
    unmadeAsAlert: true,
  });
}
