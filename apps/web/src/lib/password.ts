import {
  API_PATHS,
  MESSAGES,
  type UpdateCurrentUserRequest,
  type UpdateCurrentUserResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey } from './api';
import { useChange } from './change';
import { storage } from './storage';

/**
 * POST /api/user/update-current-user, from My Profile and from the first sign-in with a
 * temporary password. The server ends the user's other sessions and answers a fresh token,
 * which replaces the stored one. (Not imported by the login page, which must stay small.)
 */
async function changePassword(form: UpdateCurrentUserRequest, key: string) {
  const { data } = await api.post<UpdateCurrentUserResponse>(
    API_PATHS.updateCurrentUser,
    form,
    withIdempotencyKey(key),
  );
  expectSuccess(data);
  if (data.accessToken) storage.replaceToken(data.accessToken);
  return data;
}

export const useChangePassword = () =>
  useChange(changePassword, { failed: MESSAGES.updateUserFailed });
