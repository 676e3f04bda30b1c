import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  STAFF_TEXTS,
  type StaffAccount,
  type StaffAddRequest,
  type StaffUpdateRequest,
  type messageResponse,
  type staffListResponse,
  type temporaryPasswordResponse,
} from '@kanak/contract';
import type { z } from 'zod';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';

export const staffQuery = queryOptions({
  queryKey: ['staff'] as const,
  queryFn: async (): Promise<StaffAccount[]> => {
    const { data } = await api.get<z.infer<typeof staffListResponse>>(API_PATHS.staff);
    return expectSuccess(data).data;
  },
});

/** GET /api/staff: the accounts the signed-in owner or manager manages. */
export const useStaff = () => useQuery(staffQuery);

/** A staff change answered with a message (update, disable, enable). */
const answeredWithMessage =
  <TBody>(path: string) =>
  async (body: TBody, key: string) => {
    const { data } = await api.post<Answer<typeof messageResponse>>(
      path,
      body,
      withIdempotencyKey(key),
    );
    return expectSuccess(data);
  };

/** A staff change answered with the account's temporary password (add, reset), shown once. */
const answeredWithPassword =
  <TBody>(path: string) =>
  async (body: TBody, key: string) => {
    const { data } = await api.post<Answer<typeof temporaryPasswordResponse>>(
      path,
      body,
      withIdempotencyKey(key),
    );
    return expectSuccess(data);
  };

/** A staff change; the list is read again after it. */
function useStaffChange<TBody, TAnswer>(send: (body: TBody, key: string) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useChange(send, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQuery.queryKey }),
    failed: STAFF_TEXTS.changeFailed,
  });
}

export const useAddStaff = () =>
  useStaffChange(answeredWithPassword<StaffAddRequest>(API_PATHS.staffAdd));
export const useUpdateStaff = () =>
  useStaffChange(answeredWithMessage<StaffUpdateRequest>(API_PATHS.staffUpdate));
export const useDisableStaff = () =>
  useStaffChange(answeredWithMessage<{ username: string }>(API_PATHS.staffDisable));
export const useEnableStaff = () =>
  useStaffChange(answeredWithMessage<{ username: string }>(API_PATHS.staffEnable));
export const useResetStaffPassword = () =>
  useStaffChange(answeredWithPassword<{ username: string }>(API_PATHS.staffResetPassword));
