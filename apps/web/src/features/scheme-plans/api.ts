import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  SCHEME_PLAN_TEXTS,
  type SchemePlanSaveRequest,
  type schemePlanSaveResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';
import { schemePlanKeys, schemePlansQuery } from '../../lib/scheme-plans';

/** GET /api/scheme-plans: every plan, with how many schemes use it. */
export const useSchemePlans = () => useQuery(schemePlansQuery);

/** POST /api/scheme-plans: adds a plan, or changes the one with the code (owner). */
async function saveSchemePlan(plan: SchemePlanSaveRequest, key: string) {
  const { data } = await api.post<Answer<typeof schemePlanSaveResponse>>(
    API_PATHS.saveSchemePlan,
    plan,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** Saves a plan; the list, and the picker where schemes start, read the plans again. */
export function useSaveSchemePlan() {
  const queryClient = useQueryClient();
  return useChange(saveSchemePlan, {
    onSuccess: () => refetchAfterChange(queryClient, schemePlanKeys.all),
    failed: SCHEME_PLAN_TEXTS.saveFailed,
  });
}
