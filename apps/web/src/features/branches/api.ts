import { useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  BRANCH_TEXTS,
  type BranchSaveRequest,
  type branchSaveResponse,
} from '@kanak/contract';
import type { z } from 'zod';
import { api, expectSuccess, withIdempotencyKey } from '../../lib/api';
import { branchesQuery, useBranchList } from '../../lib/branches';
import { useChange } from '../../lib/change';

/** GET /api/branches: the shop's branches (owner). */
export const useBranches = () => useBranchList();

/** POST /api/branches: add a branch, or update the one with this code. */
async function saveBranch(form: BranchSaveRequest, key: string) {
  const { data } = await api.post<z.infer<typeof branchSaveResponse>>(
    API_PATHS.saveBranch,
    form,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useSaveBranch() {
  const queryClient = useQueryClient();
  return useChange(saveBranch, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: branchesQuery.queryKey }),
    failed: BRANCH_TEXTS.saveFailed,
  });
}
