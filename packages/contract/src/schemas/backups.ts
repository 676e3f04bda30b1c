import { z } from 'zod';
import { dataResponse, pageParam } from './common.js';

/** The Backups screen's paging, and when the owner's dashboard warns. */
export const BACKUP_LIMITS = {
  pageSize: 20,
  maxPages: 500,
  /** No good backup for this long, or none at all: the owner's dashboard says so. */
  staleAfterHours: 26,
} as const;

export const BACKUP_RESULTS = ['running', 'good', 'failed'] as const;
export type BackupResult = (typeof BACKUP_RESULTS)[number];

/** Who began a backup: the daily schedule, the owner's "Back up now", or `npm run backup`. */
export const BACKUP_TRIGGERS = ['schedule', 'browser', 'command'] as const;
export type BackupTrigger = (typeof BACKUP_TRIGGERS)[number];

/** `GET /api/backups?page=`: newest first. */
export const backupsQuery = z.object({ page: pageParam(BACKUP_LIMITS.maxPages, 'backups') });
export type BackupsQuery = z.input<typeof backupsQuery>;

/** One backup, made or tried. */
export const backupEntry = z.object({
  id: z.number(),
  startedAt: z.string(),
  /** None while it runs. */
  finishedAt: z.string().nullable(),
  /** The file's name in the backups folder; none when it failed before one was made. */
  fileName: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  durationMs: z.number().nullable(),
  result: z.enum(BACKUP_RESULTS),
  /** Why it failed. */
  reason: z.string().nullable(),
  trigger: z.enum(BACKUP_TRIGGERS),
  /** The staff member who pressed "Back up now"; none for the schedule and the command line. */
  by: z.string().nullable(),
  /**
   * The file's whole path on the server, while a good backup's file is still in the backups
   * folder (the newest BACKUP_KEEP are kept): it may be downloaded and restored.
   */
  path: z.string().nullable(),
});
export type BackupEntry = z.infer<typeof backupEntry>;

export const backupsResponse = dataResponse(
  z.object({
    entries: z.array(backupEntry),
    total: z.number(),
    /** When the last good backup began; none while there is none. */
    lastGoodAt: z.string().nullable(),
    /** No good backup in the last BACKUP_LIMITS.staleAfterHours hours. */
    stale: z.boolean(),
    /** A backup is being made now (on any instance). */
    running: z.boolean(),
    /** BACKUP_AT, BACKUP_DIR and BACKUP_KEEP, as the server runs them. */
    schedule: z.object({ at: z.string(), folder: z.string(), keep: z.number() }),
  }),
);
export type BackupsList = z.infer<typeof backupsResponse>['data'];

/** `POST /api/backups`: "Back up now". Answers once the backup has begun (or failed at once). */
export const backupNowResponse = dataResponse(backupEntry);

/** `POST /api/backups/ticket`: a single-use link to download one good backup. */
const backupIdRule = 'Backup number must be a whole number.';
export const backupTicketRequest = z.object({
  // A number, or its digits as text; never a boolean, an exponent or hex that coercion takes.
  id: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,10}$/, { error: backupIdRule }),
      ],
      {
        error: backupIdRule,
      },
    )
    .transform(Number)
    .refine((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647, {
      error: backupIdRule,
    }),
});
export const backupTicketResponse = dataResponse(
  z.object({ url: z.string(), expiresInSeconds: z.number() }),
);
