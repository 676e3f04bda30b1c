import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type pg from 'pg';
import {
  addDays,
  API_PATHS,
  API_PREFIX,
  BACKUP_LIMITS,
  BACKUP_MESSAGES,
  mayCall,
  MESSAGES,
  todayIn,
  type BackupEntry,
  type BackupsList,
  type BackupTrigger,
} from '@kanak/contract';
import {
  BACKUP_FILE_NAME,
  BackupCheckError,
  BackupError,
  PARTIAL_SUFFIX,
  writeBackup,
  type Manifest,
} from '../../db/backup-file.js';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { storeMoment } from '../../lib/dates.js';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from '../../lib/errors.js';
import { errorInBrief } from '../../lib/logging.js';
import { isDatabaseUnavailable } from '../../lib/pg-errors.js';
import type { SessionUser } from '../../plugins/types.js';
import { backupsRepo, backupTicketsRepo, type BackupRow } from './backups.repo.js';

/**
 * The advisory lock every backup holds while it writes, in its snapshot's transaction: the
 * daily job (one at a time by its queue's singleton policy), "Back up now" and `npm run backup`
 * never overlap, on one instance or many. A transaction's lock, so that it also holds through
 * a pooler in transaction mode, and goes with the transaction when a process dies.
 */
export const BACKUP_LOCK_KEY = 0x4b4e4b42;
/** Long enough for the browser to start the download, short enough to be useless later. */
export const BACKUP_TICKET_SECONDS = 60;

export type BackupsService = ReturnType<typeof createBackupsService>;

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

interface Deps {
  db: Db;
  pool: pg.Pool;
  /** BACKUP_AT (HH:MM store time), BACKUP_DIR (absolute), BACKUP_KEEP. */
  settings: { at: string; dir: string; keep: number };
  timeZone: string;
  now: () => Date;
  log: Log;
  /** The users module's session check: an active user, the current token version, not logged out. */
  findSessionUser(
    id: number,
    tokenVersion: number,
    jti: string | undefined,
  ): Promise<SessionUser | undefined>;
}

/** A backup that ended without a good file: its row says why. The CLI prints the reason. */
export class BackupFailedError extends BackupError {
  constructor(
    readonly reason: string,
    /** Its row; none when not even the failure could be recorded. */
    readonly id: number | undefined,
    options: { cause: unknown },
  ) {
    super(reason, options);
  }
}

export interface GoodBackup {
  id: number;
  file: string;
  bytes: number;
  manifest: Manifest;
  durationMs: number;
  /** Older files taken out of the backups folder to keep BACKUP_KEEP. */
  pruned: string[];
}

interface RunOptions {
  trigger: BackupTrigger;
  actor?: SessionUser;
  /** Another folder than BACKUP_DIR (`npm run backup -- --out`): nothing is pruned there. */
  folder?: string;
  /** Called once the backup holds the lock and its row is written. */
  begun?(id: number): void;
}

/** The session a ticket is made in; the ticket is good only while that session is. */
export interface TicketSession {
  userId: number;
  tokenVersion: number;
  jti: string | undefined;
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** Newest first, by the time in the name, then by its number within the second. */
function newestFirst(a: string, b: string): number {
  const [, stampA = '', nA = '1'] = BACKUP_FILE_NAME.exec(a) ?? [];
  const [, stampB = '', nB = '1'] = BACKUP_FILE_NAME.exec(b) ?? [];
  return stampA === stampB ? Number(nB) - Number(nA) : stampB.localeCompare(stampA);
}

const exists = (file: string) =>
  stat(file).then(
    (found) => found.isFile(),
    () => false,
  );

/** Why a backup failed, in words the owner can act on. */
function reasonOf(error: unknown, folder: string): string {
  if (error instanceof BackupCheckError) return BACKUP_MESSAGES.checkFailed(error.message);
  const { code, syscall } = error as { code?: string; syscall?: string };
  if (code === 'ENOSPC' || code === 'EDQUOT') return BACKUP_MESSAGES.diskFull(folder);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return BACKUP_MESSAGES.notWritable(folder);
  if (code === 'ENOTDIR' || (code === 'EEXIST' && syscall === 'mkdir'))
    return BACKUP_MESSAGES.notAFolder(folder);
  if (isDatabaseUnavailable(error)) return BACKUP_MESSAGES.databaseLost;
  const message = error instanceof Error ? error.message : String(error);
  return BACKUP_MESSAGES.failed(message.slice(0, 500));
}

/**
 * The backups: each one writes the existing backup file (db/backup-file.ts), reads it back
 * whole and checks it before renaming it into place, and only then counts it good; the
 * oldest files beyond BACKUP_KEEP go after a new good one, never before, so a full disk or a
 * lost database leaves the older backups as they were. One path for the daily job, "Back up
 * now" and `npm run backup`.
 */
export function createBackupsService(deps: Deps) {
  const { db, pool, settings, timeZone, now, log } = deps;
  const [hour, minute] = settings.at.split(':').map(Number) as [number, number];
  /** Backups this process began from the browser, still being written. */
  const inFlight = new Set<Promise<unknown>>();

  /** The last moment the schedule came round (BACKUP_AT today, or yesterday if not yet). */
  function lastScheduled(at: Date): Date {
    const today = todayIn(timeZone, at);
    const moment = storeMoment(timeZone, today, hour, minute);
    return moment <= at ? moment : storeMoment(timeZone, addDays(today, -1), hour, minute);
  }

  /** Files an interrupted backup left half written: only ever called with the lock held. */
  async function removePartials(folder: string) {
    const names = await readdir(folder);
    const partials = names.filter(
      (name) => name.startsWith('kanak-backup-') && name.endsWith(PARTIAL_SUFFIX),
    );
    for (const name of partials) await rm(path.join(folder, name), { force: true });
    if (partials.length > 0)
      log.warn({ files: partials }, 'backups: removed what an interrupted backup left');
  }

  /** Keeps the newest BACKUP_KEEP backup files of the folder; answers the names taken out. */
  async function prune(folder: string): Promise<string[]> {
    const names = (await readdir(folder)).filter((name) => BACKUP_FILE_NAME.test(name));
    const gone = names.sort(newestFirst).slice(settings.keep);
    for (const name of gone) await rm(path.join(folder, name), { force: true });
    return gone;
  }

  async function run(options: RunOptions): Promise<GoodBackup> {
    const folder = options.folder ?? settings.dir;
    const startedAt = now();
    const clock = performance.now();
    const elapsed = () => Math.round(performance.now() - clock);
    let id: number | undefined;
    let pruned: string[] = [];
    try {
      const written = await writeBackup(pool, folder, {
        now: startedAt,
        begin: async (client) => {
          const { rows } = await client.query<{ locked: boolean }>(
            'SELECT pg_try_advisory_xact_lock($1::bigint) AS locked',
            [BACKUP_LOCK_KEY],
          );
          if (!rows[0]?.locked) throw new ConflictError(BACKUP_MESSAGES.running);
          await removePartials(folder);
          id = await db.transaction(async (tx) => {
            await backupsRepo.failInterrupted(tx, BACKUP_MESSAGES.interrupted, now());
            const made = await backupsRepo.insertRunning(tx, {
              startedAt,
              trigger: options.trigger,
              userId: options.actor?.id ?? null,
            });
            if (options.actor)
              await recordAudit(tx, {
                userId: options.actor.id,
                action: 'backup.run',
                entity: 'backup',
                entityId: made,
              });
            return made;
          });
          options.begun?.(id);
        },
        end: async ({ file, bytes }) => {
          await backupsRepo.finish(db, id!, {
            result: 'good',
            finishedAt: now(),
            durationMs: elapsed(),
            fileName: path.basename(file),
            sizeBytes: bytes,
          });
          // Only once a new good one is in place; a failure here leaves one file too many.
          if (folder === settings.dir)
            pruned = await prune(folder).catch((error: unknown) => {
              log.warn({ err: errorInBrief(error) }, 'backups: older files not removed');
              return [];
            });
        },
      });
      return { id: id!, ...written, durationMs: elapsed(), pruned };
    } catch (error) {
      if (error instanceof ConflictError) throw error;
      const reason = reasonOf(error, folder);
      const failed = { finishedAt: now(), durationMs: elapsed(), reason };
      try {
        if (id === undefined)
          id = await backupsRepo.insertFailed(db, {
            ...failed,
            startedAt,
            trigger: options.trigger,
            userId: options.actor?.id ?? null,
          });
        else await backupsRepo.finish(db, id, { ...failed, result: 'failed' });
      } catch (recording) {
        // The next backup marks a row left running as interrupted.
        log.error({ err: errorInBrief(recording) }, 'backups: the failure could not be recorded');
      }
      throw new BackupFailedError(reason, id, { cause: error });
    }
  }

  async function entryOf(row: BackupRow): Promise<BackupEntry> {
    // Only a backup's own name, never a path that could lead out of the folder.
    const file =
      row.fileName && BACKUP_FILE_NAME.test(row.fileName)
        ? path.join(settings.dir, row.fileName)
        : null;
    return {
      id: row.id,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      fileName: row.fileName,
      sizeBytes: row.sizeBytes,
      durationMs: row.durationMs,
      result: row.result,
      reason: row.reason,
      trigger: row.trigger,
      by: row.by,
      path: row.result === 'good' && file && (await exists(file)) ? file : null,
    };
  }

  async function get(id: number): Promise<BackupEntry> {
    const row = await backupsRepo.byId(db, id);
    if (!row) throw new NotFoundError(BACKUP_MESSAGES.noSuchBackup(id));
    return entryOf(row);
  }

  return {
    settings,

    /**
     * The daily job's run: a backup, unless a good one began since the schedule last came
     * round (a catch-up after a start that finds the night's backup made, or a retry after a
     * good run), or another backup is being written.
     */
    async scheduled(): Promise<GoodBackup | { skipped: string }> {
      const since = lastScheduled(now());
      if (await backupsRepo.goodSince(db, since))
        return { skipped: `a good backup began since ${since.toISOString()}` };
      try {
        return await run({ trigger: 'schedule' });
      } catch (error) {
        if (error instanceof ConflictError) return { skipped: 'another backup is being made' };
        throw error;
      }
    },

    /** `npm run backup`: the whole backup, into BACKUP_DIR or the folder given. */
    command: (folder?: string) => run({ trigger: 'command', folder }),

    /**
     * "Back up now": answers once the backup holds the lock and its row is written (or once it
     * has failed before that); the file is written after. Refused (409) while one is written.
     */
    async start(actor: SessionUser): Promise<BackupEntry> {
      let begun: (id: number) => void = () => undefined;
      const started = new Promise<number>((resolve) => (begun = resolve));
      const running = run({ trigger: 'browser', actor, begun });
      inFlight.add(running);
      void running
        .then(
          (good) =>
            log.info(
              { id: good.id, bytes: good.bytes, durationMs: good.durationMs, pruned: good.pruned },
              'backups: backup written and checked',
            ),
          (error: unknown) => {
            if (!(error instanceof ConflictError))
              log.warn({ err: errorInBrief(error) }, 'backups: the backup failed');
          },
        )
        .finally(() => inFlight.delete(running));
      try {
        return await get(await Promise.race([started, running.then((good) => good.id)]));
      } catch (error) {
        if (error instanceof BackupFailedError && error.id !== undefined) return get(error.id);
        if (error instanceof BackupFailedError) throw error.cause;
        throw error;
      }
    },

    /** Until the backups this process began from the browser have ended (a graceful stop). */
    async settled(): Promise<void> {
      await Promise.allSettled([...inFlight]);
    },

    get,

    async list(page: number): Promise<BackupsList> {
      const at = now();
      // The lock is asked after before the rows and again after them: a backup finishing marks
      // its row good, then lets the lock go, so a row read as running while nobody held the
      // lock, before or after, was left by a process that died or lost the database. (Asked
      // once beside the rows, a backup that had just finished read as interrupted.)
      const lockedBefore = await backupsRepo.locked(db, BACKUP_LOCK_KEY);
      const [rows, total, lastGood] = await Promise.all([
        backupsRepo.page(db, (page - 1) * BACKUP_LIMITS.pageSize, BACKUP_LIMITS.pageSize),
        backupsRepo.total(db),
        backupsRepo.lastGoodAt(db),
      ]);
      const running = await backupsRepo.locked(db, BACKUP_LOCK_KEY);
      const entries = await Promise.all(
        rows.map(async (row) => {
          const entry = await entryOf(row);
          return entry.result === 'running' && !lockedBefore && !running
            ? { ...entry, result: 'failed' as const, reason: BACKUP_MESSAGES.interrupted }
            : entry;
        }),
      );
      const staleMs = BACKUP_LIMITS.staleAfterHours * 3_600_000;
      return {
        entries,
        total,
        lastGoodAt: lastGood?.toISOString() ?? null,
        stale: !lastGood || at.getTime() - lastGood.getTime() > staleMs,
        running,
        schedule: { at: settings.at, folder: settings.dir, keep: settings.keep },
      };
    },

    /** When the last good backup began, if any (the metrics' age of it). */
    lastGoodAt: () => backupsRepo.lastGoodAt(db),

    /** A single-use link to download one good backup whose file is still kept. */
    async issueTicket(
      session: TicketSession,
      id: number,
    ): Promise<{ url: string; expiresInSeconds: number }> {
      const backup = await get(id);
      if (!backup.path) throw new NotFoundError(BACKUP_MESSAGES.notDownloadable);
      const ticket = randomBytes(32).toString('base64url');
      await db.transaction(async (tx) => {
        await backupTicketsRepo.deleteExpired(tx);
        await backupTicketsRepo.insert(
          tx,
          {
            ticketHash: hashOf(ticket),
            backupId: id,
            userId: session.userId,
            tokenVersion: session.tokenVersion,
            jti: session.jti ?? null,
          },
          BACKUP_TICKET_SECONDS,
        );
      });
      return {
        url: `${API_PREFIX}${API_PATHS.backupDownload}?ticket=${ticket}`,
        expiresInSeconds: BACKUP_TICKET_SECONDS,
      };
    },

    /**
     * Uses the ticket up and opens its backup's file. Unknown, used, expired, or made in a
     * session that has since ended, or by someone no longer the owner: refused. The download
     * is audited.
     */
    async download(
      ticket: string,
    ): Promise<{ user: SessionUser; fileName: string; bytes: number; stream: Readable }> {
      const row = ticket ? await backupTicketsRepo.take(db, hashOf(ticket)) : undefined;
      if (!row) throw new NotFoundError(BACKUP_MESSAGES.linkInvalid);
      if (row.expired) throw new NotFoundError(BACKUP_MESSAGES.linkExpired);
      const user = await deps.findSessionUser(row.userId, row.tokenVersion, row.jti ?? undefined);
      if (!user) throw new UnauthorizedError(MESSAGES.sessionExpired);
      // The role may have changed since the link was made.
      if (!mayCall(user.role, 'backupTicket')) throw new ForbiddenError(MESSAGES.notAllowed);
      const backup = await get(row.backupId);
      if (!backup.path || !backup.fileName)
        throw new NotFoundError(BACKUP_MESSAGES.notDownloadable);
      const { size } = await stat(backup.path);
      // Opened before it is audited: a file pruned meanwhile is refused, not half sent.
      const stream = createReadStream(backup.path);
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      }).catch(() => {
        throw new NotFoundError(BACKUP_MESSAGES.notDownloadable);
      });
      try {
        await recordAudit(db, {
          userId: user.id,
          action: 'backup.download',
          entity: 'backup',
          entityId: backup.id,
          detail: { fileName: backup.fileName, sizeBytes: size },
        });
      } catch (error) {
        stream.destroy();
        throw error;
      }
      return { user, fileName: backup.fileName, bytes: size, stream };
    },
  };
}
