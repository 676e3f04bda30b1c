import { useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, POINTS_RULES_TEXTS, type pointsRulesResponse } from '@kanak/contract';
import type { z } from 'zod';
import { api, expectSuccess, withIdempotencyKey } from '../../lib/api';
import { useChange } from '../../lib/change';

type RulesAnswer = z.infer<typeof pointsRulesResponse>;

const rulesKey = ['points-rules'] as const;

/** GET /api/settings/points: the rules in force and their earlier versions (owner). */
export const usePointsRules = () =>
  useQuery({
    queryKey: rulesKey,
    queryFn: async (): Promise<RulesAnswer['data']> => {
      const { data } = await api.get<z.infer<typeof pointsRulesResponse>>(API_PATHS.pointsRules);
      return expectSuccess(data).data;
    },
  });

/** The rules as sent: amounts in rupees. */
export interface RulesForm {
  rupeesPerPoint: number;
  excludedCategories: string[];
  pointValue: number;
  minRedeemPoints: number;
  expiryMonths: number;
}

/** POST /api/settings/points: a new version of the rules, in force from now on. */
async function saveRules(form: RulesForm, key: string) {
  const { data } = await api.post<z.infer<typeof pointsRulesResponse>>(
    API_PATHS.pointsRules,
    form,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useSavePointsRules() {
  const queryClient = useQueryClient();
  return useChange(saveRules, {
    onSuccess: (answer) => queryClient.setQueryData(rulesKey, answer.data),
    failed: POINTS_RULES_TEXTS.saveFailed,
  });
}
