import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  BACKUPS_TEXTS,
  type BackupEntry,
  type backupNowResponse,
  type backupTicketResponse,
} from '@kanak/contract';
import { downloadUrl } from '../../components/saveFile';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { backupsKey } from '../../lib/backups';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';

/** POST /api/backups: "Back up now"; answers once the backup has begun. */
async function backUpNow(_input: null, key: string) {
  const { data } = await api.post<Answer<typeof backupNowResponse>>(
    API_PATHS.backupNow,
    undefined,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** Starts a backup, then asks for the list again (it shows the new one, running). */
export function useBackUpNow() {
  const queryClient = useQueryClient();
  return useChange(backUpNow, {
    onSuccess: () => refetchAfterChange(queryClient, backupsKey),
    failed: BACKUPS_TEXTS.startFailed,
  });
}

/**
 * Download: POST /api/backups/ticket answers a single-use link, which the browser downloads
 * itself: a backup of a large shop streams to disk, never through this tab's memory.
 */
async function downloadBackup(backup: BackupEntry) {
  const { data } = await api.post<Answer<typeof backupTicketResponse>>(API_PATHS.backupTicket, {
    id: backup.id,
  });
  const link = expectSuccess(data).data;
  // The link is relative to the API server's origin, wherever that is.
  const apiBase = new URL(api.defaults.baseURL ?? '/', window.location.href);
  downloadUrl(new URL(link.url, apiBase).href, backup.fileName ?? 'kanak-backup.gz');
}

export const useDownloadBackup = () => useMutation({ mutationFn: downloadBackup });
