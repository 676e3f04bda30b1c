import { useMutation } from '@tanstack/react-query';
import {
  API_PATHS,
  type UpdateCurrentUserRequest,
  type UpdateCurrentUserResponse,
} from '@kanak/contract';
import { api, expectSuccess } from '../../lib/api';
import { storage } from '../../lib/storage';

/**
 * POST /api/user/update-current-user. The server ends other sessions and returns a fresh
 * token, which replaces the stored one.
 */
async function updateCurrentUser(form: UpdateCurrentUserRequest) {
  const { data } = await api.post<UpdateCurrentUserResponse>(API_PATHS.updateCurrentUser, form);
  expectSuccess(data);
  if (data.accessToken) storage.replaceToken(data.accessToken);
  return data;
}

export const useUpdateCurrentUser = () => useMutation({ mutationFn: updateCurrentUser });
