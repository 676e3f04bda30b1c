import { BACKUP_LIMITS, type BackupResult, type BackupTrigger } from './schemas/backups.js';

/** The server's answers about backups, and the reasons a backup failed. */
export const BACKUP_MESSAGES = {
  running: 'A backup is being made now. Wait for it to finish, then try again.',
  started: 'Backup started. It shows as Good once it is written and checked.',
  noSuchBackup: (id: number) => `No backup with the number ${id}.`,
  notDownloadable:
    'Only a good backup whose file is still in the backups folder can be downloaded.',
  linkInvalid: 'This download link is not valid. Please press Download again.',
  linkExpired: 'This download link has expired. Please press Download again.',
  /** Why a backup failed. */
  diskFull: (folder: string) =>
    `The disk holding ${folder} is full. The older backups were kept; free some space.`,
  notWritable: (folder: string) =>
    `The backups folder ${folder} cannot be written to: ask whoever installed Kanak to let the server write there.`,
  notAFolder: (folder: string) =>
    `The backups folder ${folder} cannot be made: ask whoever installed Kanak to check where backups go.`,
  databaseLost: 'The connection to the database was lost while the backup was being written.',
  checkFailed: (detail: string) =>
    `The file did not read back as it was written, so it was removed: ${detail}`,
  interrupted:
    'Interrupted: the server stopped or lost the database before the backup finished. Its unfinished file was removed.',
  failed: (detail: string) => `The backup failed: ${detail}`,
} as const;

const resultLabels: Record<BackupResult, string> = {
  running: 'Running',
  good: 'Good',
  failed: 'Failed',
};
const triggerLabels: Record<BackupTrigger, string> = {
  schedule: 'Schedule',
  browser: 'Back up now',
  command: 'Command line',
};

/** A file's size in megabytes, en-IN grouping: "1,234.5 MB"; below 1 MB, "0.04 MB". */
export function formatMegabytes(bytes: number): string {
  const megabytes = bytes / 1024 / 1024;
  const digits = megabytes < 1 ? 2 : 1;
  return `${megabytes.toLocaleString('en-IN', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })} MB`;
}

/** How long a backup took: "0.8 s", "42 s", "3 min 05 s". */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60).toLocaleString('en-IN')} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** A path as one word of a shell command: quoted when it holds anything but safe characters. */
const shellWord = (path: string) =>
  /^[\w./:@%+=,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;

/** The Backups screen. */
export const BACKUPS_TEXTS = {
  intro: (at: string, folder: string, keep: number) =>
    `Kanak backs up the whole database every day at ${at} (store time) into ${folder}, and keeps the newest ${keep.toLocaleString('en-IN')} good backups. Each file is read back and checked before it counts as good.`,
  secrets:
    'A backup does not hold the shop’s secret keys (secrets.json in Kanak’s data folder, or the keys Kanak was started with): keep a copy of them apart from the backups. Without them the Aadhaar numbers cannot be read.',
  backUpNow: 'Back up now',
  backingUp: 'Backing up…',
  runningNow: 'A backup is being made now.',
  loading: 'Loading backups',
  loadFailed: 'Error in loading the backups.',
  startFailed: 'Error in starting the backup.',
  downloadFailed: 'Error in downloading the backup.',
  table: 'Backups',
  empty: 'No backup has been made yet.',
  columns: {
    when: 'When',
    size: 'Size',
    duration: 'Duration',
    result: 'Result',
    by: 'By',
    reason: 'Reason',
    file: 'File',
  },
  resultLabel: (result: BackupResult) => resultLabels[result],
  triggerLabel: (trigger: BackupTrigger, by: string | null) => by ?? triggerLabels[trigger],
  download: 'Download',
  downloadLabel: (when: string) => `Download the backup of ${when}`,
  fileGone: 'No longer kept',
  pageOf: (page: number, pages: number, total: number) =>
    `Page ${page} of ${pages} · ${total.toLocaleString('en-IN')} backups`,
  restoreHeading: 'Restore a backup',
  restoreSteps:
    'Stop Kanak, then run this in Kanak’s folder. It restores into an empty database only (a new data folder, or a new empty database); put the old secret keys in place first. See docs/operations.md.',
  restoreNone: 'The command to restore appears here once a good backup is kept.',
  restoreCommand: (path: string) => `npm run restore -- ${shellWord(path)}`,
  restoreOther: 'For an older backup, put its file in place of this one.',
  copy: 'Copy',
  copied: 'Copied.',
  copyFailed: 'Could not copy: select the command and copy it.',
} as const;

/** The owner's dashboard, when the shop's data has no recent backup. */
export const BACKUP_WARNING_TEXTS = {
  none: 'No backup of the shop’s data has been made yet.',
  stale: (when: string) =>
    `The last good backup was made on ${when}, more than ${BACKUP_LIMITS.staleAfterHours} hours ago.`,
  open: 'Open Backups',
} as const;
