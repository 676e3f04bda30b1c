import {
  API_PATHS,
  type UpdateCurrentUserRequest,
  type UpdateCurrentUserResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey } from '../../lib/api';
import { useChange } from '../../lib/change';
import { storage } from '../../lib/storage';

/**
 * POST /api/user/update-current-user. The server ends other sessions and returns a fresh
 * token, which replaces the stored one.
 */
async function updateCurrentUser(form: UpdateCurrentUserRequest, key: string) {
  const { data } = await api.post<UpdateCurrentUserResponse>(
    API_PATHS.updateCurrentUser,
    form,
    withIdempotencyKey(key),
  );
  expectSuccess(data);
  if (data.accessToken) storage.replaceToken(data.accessToken);
  return data;
}

export const useUpdateCurrentUser = () => useChange(updateCurrentUser);
