import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  type CashCr,
  type CustomerRecord,
  type PointsStatementFilter,
  type StatementRow,
} from '@kanak/contract';
import { api, expectSuccess, readFailure, withIdempotencyKey, type Envelope } from '../../lib/api';
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
export const balanceQuery = (mobileno: string) =>
  queryOptions({
    queryKey: pointsKeys.balance(mobileno),
    queryFn: async () => {
      const { data } = await api.post<Envelope & { data?: CustomerRecord }>(
        API_PATHS.customerData,
        { mobileno },
      );
      return expectSuccess(data).data?.points ?? 0;
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
      const { data } = await api.post<Envelope & { data?: StatementRow[] }>(
        API_PATHS.pointsStatement,
        filter,
      );
      return expectSuccess(data).data ?? [];
    },
    enabled: filter !== null,
    staleTime: 0,
  });

async function updatePoints(formData: PointsEntry, key: string) {
  const { data } = await api.post<Envelope & { data?: { balance: number } }>(
    API_PATHS.updatePoints,
    { formData },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

async function updateStatement(formData: PointsEntry & { MRN: number }, key: string) {
  const { data } = await api.post<Envelope>(
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

export function useUpdatePoints() {
  const refresh = useRefreshPoints();
  return useChange(updatePoints, { onSuccess: refresh });
}

export function useUpdateStatement() {
  const refresh = useRefreshPoints();
  return useChange(updateStatement, { onSuccess: refresh });
}

/**
 * The message for a failed points change: the server's own words when it refused (e.g.
 * "Insufficient points. Available balance: 70."), else the screen's fixed text.
 */
export function pointsFailureMessage(error: unknown, fixed: string): string | null {
  const failure = readFailure(error);
  if (failure.kind === 'sessionExpired') return null;
  return failure.kind === 'refused' && failure.message ? failure.message : fixed;
}
