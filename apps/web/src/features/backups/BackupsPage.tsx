import { useEffect, useState } from 'react';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import BackupIcon from '@mui/icons-material/BackupOutlined';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import { useQuery } from '@tanstack/react-query';
import {
  BACKUP_LIMITS,
  BACKUPS_TEXTS,
  DEFAULT_STORE_TIMEZONE,
  PAGE_TITLES,
  formatAuditTime,
  formatDuration,
  formatMegabytes,
  type BackupEntry,
  type BackupResult,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { ListPage } from '../../components/ListPage';
import { NumbersUnbroken } from '../../components/NumbersUnbroken';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { useBranding } from '../../lib/branding';
import { reportFailure } from '../../lib/failure';
import { backupsQuery } from '../../lib/backups';
import { useBackUpNow, useDownloadBackup } from './api';
import { RestoreCommand } from './RestoreCommand';

const texts = BACKUPS_TEXTS;
const c = texts.columns;

const RESULT_COLOURS: Record<BackupResult, ChipProps['color']> = {
  running: 'info',
  good: 'success',
  failed: 'error',
};

/** "24/11/2026," and "14:05" each stay whole. */
const DATE_WITH_COMMA = /(\d[\d./:-]*\d,?)/;

/**
 * Backups (/home/backups, the owner): every backup made or tried, newest first, with its size,
 * how long it took and how it ended; "Back up now"; a download of each good file still kept;
 * and the command that restores one.
 */
export function BackupsPage() {
  const timeZone = useBranding().branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
  const [page, setPage] = useState(1);
  const backups = useQuery(backupsQuery(page));
  const backUp = useBackUpNow();
  const download = useDownloadBackup();
  // The backup whose download is being asked for (one at a time).
  const downloading = download.isPending ? download.variables.id : null;

  useEffect(() => {
    if (backups.error) reportFailure(backups.error, texts.loadFailed, 'warn');
  }, [backups.error, backups.errorUpdatedAt]);

  const list = backups.isError ? undefined : backups.data;
  const running = list?.running ?? false;
  const rows = list?.entries ?? [];
  const total = list?.total ?? 0;
  const pages = Math.min(
    BACKUP_LIMITS.maxPages,
    Math.max(1, Math.ceil(total / BACKUP_LIMITS.pageSize)),
  );
  const when = (iso: string) => formatAuditTime(iso, timeZone);

  const backUpNow = () =>
    backUp.submit(null, {
      onSuccess: (answer) => {
        if (answer.data.result === 'failed' && answer.data.reason)
          showAlert('error', answer.data.reason);
        else if (answer.message) showAlert('success', answer.message);
      },
      onError: (error) => reportFailure(error, texts.startFailed),
    });

  const downloadOne = (backup: BackupEntry) =>
    download.mutate(backup, {
      onError: (error) => reportFailure(error, texts.downloadFailed),
    });

  const columns: DataColumn<BackupEntry>[] = [
    {
      key: 'when',
      header: c.when,
      width: 'minmax(96px, 1fr)',
      cell: (b) => <NumbersUnbroken text={when(b.startedAt)} keep={DATE_WITH_COMMA} />,
    },
    {
      key: 'size',
      header: c.size,
      width: '96px',
      align: 'right',
      nowrap: true,
      cell: (b) => (b.sizeBytes === null ? '' : formatMegabytes(b.sizeBytes)),
    },
    {
      key: 'duration',
      header: c.duration,
      width: '88px',
      align: 'right',
      nowrap: true,
      cell: (b) => (b.durationMs === null ? '' : formatDuration(b.durationMs)),
    },
    {
      key: 'result',
      header: c.result,
      width: '88px',
      cell: (b) => (
        <Chip size="small" color={RESULT_COLOURS[b.result]} label={texts.resultLabel(b.result)} />
      ),
    },
    {
      key: 'by',
      header: c.by,
      width: 'minmax(88px, 1fr)',
      cell: (b) => texts.triggerLabel(b.trigger, b.by),
    },
    {
      key: 'reason',
      header: c.reason,
      width: 'minmax(120px, 2.5fr)',
      cell: (b) => (b.reason ? <NumbersUnbroken text={b.reason} /> : ''),
    },
    {
      key: 'file',
      header: c.file,
      width: '128px',
      align: 'center',
      cell: (b) =>
        b.path ? (
          <SubmitButton
            type="button"
            variant="outlined"
            size="small"
            startIcon={<DownloadIcon />}
            aria-label={texts.downloadLabel(when(b.startedAt))}
            pending={downloading === b.id}
            pendingLabel={texts.download}
            disabled={download.isPending}
            onClick={() => downloadOne(b)}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {texts.download}
          </SubmitButton>
        ) : b.result === 'good' ? (
          <Typography variant="body2" color="text.secondary">
            {texts.fileGone}
          </Typography>
        ) : (
          ''
        ),
    },
  ];

  const newestKept = rows.find((b) => b.path);

  return (
    <ListPage
      title={PAGE_TITLES.backups}
      actions={
        <SubmitButton
          type="button"
          startIcon={<BackupIcon />}
          pending={backUp.isPending || running}
          pendingLabel={texts.backingUp}
          onClick={backUpNow}
        >
          {texts.backUpNow}
        </SubmitButton>
      }
      intro={
        <>
          {list && (
            <Typography sx={{ mb: 1, overflowWrap: 'anywhere' }}>
              {texts.intro(list.schedule.at, list.schedule.folder, list.schedule.keep)}
            </Typography>
          )}
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {texts.secrets}
          </Typography>
          {running && (
            <Typography role="status" sx={{ mb: 2, fontWeight: 600 }}>
              {texts.runningNow}
            </Typography>
          )}
        </>
      }
      table={{
        label: texts.table,
        columns,
        rows,
        rowKey: (b) => b.id,
        bodyHeight: 420,
        minWidth: 840,
        emptyText: texts.empty,
        loading: backups.isFetching,
        loadingLabel: texts.loading,
      }}
      pager={
        total > BACKUP_LIMITS.pageSize
          ? { page, pages, status: texts.pageOf(page, pages, total), onPage: setPage }
          : null
      }
      below={list && <RestoreCommand path={newestKept?.path ?? null} />}
    />
  );
}
