import { useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, TIERS_TEXTS, type TiersFormInput, type tiersResponse } from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { tiersKey, tiersQuery } from '../../lib/tiers';

/** The tiers in force, lowest first, and when a tier falls (owner). */
export const useTiers = () => useQuery(tiersQuery);

/** POST /api/settings/tiers: the whole ladder, minimum spends in rupees; sales earn by it now. */
async function saveTiers(form: TiersFormInput, key: string) {
  const { data } = await api.post<Answer<typeof tiersResponse>>(
    API_PATHS.tiers,
    form,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useSaveTiers() {
  const queryClient = useQueryClient();
  return useChange(saveTiers, {
    onSuccess: (answer) => queryClient.setQueryData(tiersKey, answer.data),
    failed: TIERS_TEXTS.saveFailed,
    unmadeAsAlert: true,
  });
}
