import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  INTEGRATION_TEXTS,
  type apiKeyAddResponse,
  type apiKeyListResponse,
  type messageResponse,
} from '@kanak/contract';
import type { z } from 'zod';
import { api, expectSuccess, withIdempotencyKey } from '../../lib/api';
import { useChange } from '../../lib/change';

export type ApiKey = z.infer<typeof apiKeyListResponse>['data'][number];

const keysKey = ['api-keys'] as const;

/** GET /api/settings/api-keys: every key made, active or revoked (owner). */
export const useApiKeys = () =>
  useQuery({
    queryKey: keysKey,
    queryFn: async (): Promise<ApiKey[]> => {
      const { data } = await api.get<z.infer<typeof apiKeyListResponse>>(API_PATHS.apiKeys);
      return expectSuccess(data).data;
    },
  });

export interface NewApiKey {
  label: string;
  branch: string;
}

/** POST /api/settings/api-keys: the answer carries the whole key, this once. */
async function addApiKey(form: NewApiKey, key: string) {
  const { data } = await api.post<z.infer<typeof apiKeyAddResponse>>(
    API_PATHS.apiKeys,
    form,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** POST /api/settings/api-keys/revoke. */
async function revokeApiKey(id: number, key: string) {
  const { data } = await api.post<z.infer<typeof messageResponse>>(
    API_PATHS.apiKeyRevoke,
    { id },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useAddApiKey() {
  const queryClient = useQueryClient();
  return useChange(addApiKey, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey }),
    failed: INTEGRATION_TEXTS.saveFailed,
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useChange(revokeApiKey, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey }),
    failed: INTEGRATION_TEXTS.revokeFailed,
  });
}
