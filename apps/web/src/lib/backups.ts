import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { API_PATHS, type backupsResponse } from '@kanak/contract';
import { api, expectSuccess, type Answer } from './api';

/** Every backups call's cache starts with this, so a backup begun refreshes them all. */
export const backupsKey = ['backups'] as const;

/** While a backup is being made, the list is asked for again this often until it has ended. */
const RUNNING_POLL_MS = 2_000;

/**
 * GET /api/backups: one page of backups, newest first, whether one is being made, and whether
 * the last good one is too old. One cache for the Backups screen and the owner's dashboard.
 */
export const backupsQuery = (page: number) =>
  queryOptions({
    queryKey: [...backupsKey, page] as const,
    queryFn: async () => {
      const { data } = await api.get<Answer<typeof backupsResponse>>(API_PATHS.backups, {
        params: { page },
      });
      return expectSuccess(data).data;
    },
    placeholderData: keepPreviousData,
    // Backups are made in the background: every visit asks again.
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.running ? RUNNING_POLL_MS : false),
  });
