import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  BACKUP_MESSAGES,
  MESSAGES,
  type BackupEntry,
  type BackupsList,
  type Role,
} from '@kanak/contract';
import { ConfigError, loadConfig } from '../../config.js';
import { checkBackup, restoreBackup, writeBackup, BackupCheckError } from '../../db/backup-file.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { BACKUP_QUEUE, JOBS_SCHEMA, startJobs } from '../../jobs.js';
import { createFieldCipher } from '../../lib/crypto.js';
import { withClient, withDatabase } from '../../../test/global-setup.js';
import {
  appOnDatabase,
  authed,
  createTestDatabase,
  lateEntryReason,
  movableClock,
  servicesOn,
  signedIn,
  staffSession,
  TEST_SECRETS,
  type SignedIn,
} from '../../../test/helpers.js';
import { relayTo } from '../../../test/proxies.js';
import { BackupFailedError } from './backups.service.js';

const TODAY = '2026-03-10';
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function tempFolder() {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'kanak-backups-test-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

const backupFiles = async (folder: string) =>
  (await readdir(folder)).filter((name) => name.startsWith('kanak-backup-')).sort();

async function listOf(ctx: SignedIn, page = 1): Promise<BackupsList> {
  const response = await ctx.inject({ method: 'GET', url: `/api/backups?page=${page}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: BackupsList }>().data;
}

async function untilSettled(ctx: SignedIn, id: number): Promise<BackupEntry> {
  for (const until = Date.now() + 30_000; Date.now() < until; await sleep(100)) {
    const entry = (await listOf(ctx)).entries.find((row) => row.id === id);
    if (entry && entry.result !== 'running') return entry;
  }
  throw new Error(`backup ${id} still running after 30 s`);
}

/** Holds ACCESS EXCLUSIVE on a table in a transaction of its own: a backup waits at it. */
async function holdTable(url: string, table: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await client.query('COMMIT');
    await client.end();
  };
  cleanups.push(release);
  return release;
}

const databaseUrlOf = async (ctx: { sql: SignedIn['sql'] }) =>
  withDatabase(
    inject('adminDatabaseUrl'),
    (await ctx.sql<{ name: string }>('SELECT current_database() AS name'))[0]!.name,
  );

describe('BACKUP_AT, BACKUP_DIR and BACKUP_KEEP', () => {
  it('default to 02:30, DATA_DIR/backups (absolute) and 14', () => {
    const config = loadConfig({ DATA_DIR: 'some/data' });
    expect(config.backups).toEqual({
      at: '02:30',
      dir: path.resolve('some/data/backups'),
      keep: 14,
    });
  });

  it('refuse a time that is not HH:MM and a count below 1, naming the setting', () => {
    for (const [name, value] of [
      ['BACKUP_AT', '2:30'],
      ['BACKUP_AT', '24:00'],
      ['BACKUP_AT', '02:60'],
      ['BACKUP_AT', 'night'],
      ['BACKUP_KEEP', '0'],
      ['BACKUP_KEEP', 'all'],
      ['BACKUP_KEEP', '2.5'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect((error as Error).message).toContain(`${name}: must be`);
      }
    }
    expect(loadConfig({ BACKUP_AT: '23:59', BACKUP_KEEP: '1' }).backups).toMatchObject({
      at: '23:59',
      keep: 1,
    });
  });
});

describe('the daily backup (the job body)', () => {
  let ctx: SignedIn;
  let folder: string;
  const clock = movableClock(TODAY);
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    folder = path.join(await tempFolder(), 'made-here');
    env = { BACKUP_DIR: folder, BACKUP_KEEP: '2' };
    ctx = await signedIn('owner', { env, clock: clock.now });
    cleanups.push(() => ctx.close());
  });

  it('writes a good file, checks it, records it, and keeps only BACKUP_KEEP', async () => {
    const { background } = servicesOn(ctx.database, env, clock.now);
    const made: string[] = [];
    for (const day of ['2026-03-10', '2026-03-11', '2026-03-12']) {
      // 03:00 in the store: after the day's BACKUP_AT (02:30).
      clock.set(new Date(`${day}T03:00:00+05:30`));
      const done = await background.backUp();
      if ('skipped' in done) throw new Error(`skipped: ${done.skipped}`);
      made.push(path.basename(done.file));
      // Read back whole by the restore's reader, as the backup itself did before renaming it.
      const manifest = await checkBackup(done.file);
      expect(manifest.tables.map((table) => table.name)).toContain('backups');
      expect((await stat(done.file)).size).toBe(done.bytes);
      expect((await stat(done.file)).mode & 0o777).toBe(0o600);
    }
    // The folder was made for the backups, readable by Kanak's user alone.
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect(made).toEqual([
      'kanak-backup-20260309-213000.gz',
      'kanak-backup-20260310-213000.gz',
      'kanak-backup-20260311-213000.gz',
    ]);
    // The oldest went once the third was good; nothing half written is left.
    expect(await readdir(folder)).toEqual(made.slice(1));

    const rows = await ctx.sql<Record<string, unknown>>(
      `SELECT file_name, size_bytes::int AS size, result, reason, trigger, user_id,
              finished_at >= started_at AS finished, duration_ms >= 0 AS timed
         FROM backups ORDER BY id`,
    );
    expect(rows).toEqual(
      made.map((file_name) => ({
        file_name,
        size: expect.any(Number),
        result: 'good',
        reason: null,
        trigger: 'schedule',
        user_id: null,
        finished: true,
        timed: true,
      })),
    );

    // The screen: newest first, the pruned one listed without a file to download or restore.
    const list = await listOf(ctx);
    expect(list.entries.map((entry) => [entry.fileName, entry.path])).toEqual([
      [made[2], path.join(folder, made[2]!)],
      [made[1], path.join(folder, made[1]!)],
      [made[0], null],
    ]);
    expect(list).toMatchObject({
      total: 3,
      stale: false,
      running: false,
      lastGoodAt: '2026-03-11T21:30:00.000Z',
      schedule: { at: '02:30', folder, keep: 2 },
    });
  });

  it('backs up again only once BACKUP_AT has come round since the last good one', async () => {
    const { background } = servicesOn(ctx.database, env, clock.now);
    // Later the same day (a restart's catch-up, a retry): the night's backup stands.
    clock.set(new Date('2026-03-12T18:00:00+05:30'));
    expect(await background.backUp()).toEqual({ skipped: expect.any(String) });
    // Past midnight, before 02:30: still the same night's.
    clock.set(new Date('2026-03-13T02:00:00+05:30'));
    expect(await background.backUp()).toEqual({ skipped: expect.any(String) });
    // A server switched off at 02:30 backs up once it is on.
    clock.set(new Date('2026-03-14T09:00:00+05:30'));
    const done = await background.backUp();
    expect(done).toMatchObject({ file: path.join(folder, 'kanak-backup-20260314-033000.gz') });
    expect(await backupFiles(folder)).toHaveLength(2);
  });

  it('removes what a killed backup left, and marks its row failed, at the next run', async () => {
    const { background } = servicesOn(ctx.database, env, clock.now);
    const left = path.join(folder, 'kanak-backup-20260314-210000.gz.partial');
    await writeFile(left, 'half a backup');
    const [dead] = await ctx.sql<{ id: number }>(
      `INSERT INTO backups (started_at, result, trigger) VALUES (now(), 'running', 'schedule') RETURNING id`,
    );
    // Nobody holds the lock: the screen shows it failed at once.
    const shown = (await listOf(ctx)).entries.find((entry) => entry.id === dead!.id);
    expect(shown).toMatchObject({ result: 'failed', reason: BACKUP_MESSAGES.interrupted });

    clock.set(new Date('2026-03-15T03:00:00+05:30'));
    const done = await background.backUp();
    expect('file' in done).toBe(true);
    expect(await readdir(folder)).not.toContain(path.basename(left));
    expect(await ctx.sql(`SELECT result, reason FROM backups WHERE id = $1`, [dead!.id])).toEqual([
      { result: 'failed', reason: BACKUP_MESSAGES.interrupted },
    ]);
  });

  it('says the last good backup is stale after 26 hours, and when there is none', async () => {
    // The last good one began at 03:00 on the 15th.
    clock.set(new Date('2026-03-16T04:59:00+05:30'));
    expect((await listOf(ctx)).stale).toBe(false);
    clock.set(new Date('2026-03-16T05:01:00+05:30'));
    expect((await listOf(ctx)).stale).toBe(true);
    const fresh = await signedIn('owner', { env: { BACKUP_DIR: await tempFolder() } });
    cleanups.push(() => fresh.close());
    expect(await listOf(fresh)).toMatchObject({ lastGoodAt: null, stale: true, total: 0 });
  });

  it('shows the last good backup’s age to Prometheus, and none before the first', async () => {
    const TOKEN = 'backups-metrics-token-1928';
    const scrape = async (database: Database) => {
      const app = await appOnDatabase(database, { METRICS_TOKEN: TOKEN });
      try {
        const response = await app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(response.statusCode).toBe(200);
        return response.body;
      } finally {
        await app.close();
      }
    };
    const [row] = await ctx.sql<{ age: number }>(
      `SELECT extract(epoch FROM now() - max(started_at))::float8 AS age FROM backups
        WHERE result = 'good'`,
    );
    const text = await scrape(ctx.database);
    expect(text).toContain('kanak_scrape_source_up{source="backups"} 1');
    const shown = Number(/^kanak_backup_last_good_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(Math.abs(shown - row!.age)).toBeLessThan(60);

    const fresh = await signedIn('owner');
    cleanups.push(() => fresh.close());
    const none = await scrape(fresh.database);
    expect(none).toContain('kanak_scrape_source_up{source="backups"} 1');
    expect(none).not.toMatch(/^kanak_backup_last_good_age_seconds /m);
  });

  it('refuses a backup folder that cannot be made, records why, and leaves no file', async () => {
    const parent = await tempFolder();
    const notAFolder = path.join(parent, 'a-file');
    await writeFile(notAFolder, 'not a folder');
    const badDir = path.join(notAFolder, 'backups');
    const { background } = servicesOn(ctx.database, { BACKUP_DIR: badDir }, clock.now);
    clock.set(new Date('2026-03-17T03:00:00+05:30'));
    const failed = await background.backUp().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(BackupFailedError);
    expect((failed as BackupFailedError).reason).toBe(BACKUP_MESSAGES.notAFolder(badDir));
    const [row] = await ctx.sql(`SELECT result, reason, file_name FROM backups WHERE id = $1`, [
      (failed as BackupFailedError).id,
    ]);
    expect(row).toEqual({
      result: 'failed',
      reason: BACKUP_MESSAGES.notAFolder(badDir),
      file_name: null,
    });
    expect(await readdir(parent)).toEqual(['a-file']);
    // The good ones stay, in their folder and as the last good backup.
    expect(await backupFiles(folder)).toHaveLength(2);
  });
});

describe('a backup whose database is cut while it is written', () => {
  it('is recorded failed, leaves no partial file, and the older backups stay', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const { relay, url } = await relayTo(database.url);
    cleanups.push(() => relay.close());
    const connection = connectDatabase(url, { max: 4 });
    cleanups.push(() => connection.close());
    const folder = await tempFolder();
    const clock = movableClock(TODAY);
    const { backups, background } = servicesOn(
      connection,
      { BACKUP_DIR: folder, BACKUP_KEEP: '2' },
      clock.now,
    );
    for (const day of ['2026-03-10', '2026-03-11']) {
      clock.set(new Date(`${day}T03:00:00+05:30`));
      await background.backUp();
    }
    const older = await backupFiles(folder);
    expect(older).toHaveLength(2);

    // The backup waits at a table another session holds, its file begun; then the database
    // goes away under it.
    const release = await holdTable(database.url, 'customers');
    clock.set(new Date('2026-03-12T03:00:00+05:30'));
    const writing = background.backUp().catch((error: unknown) => error);
    for (const until = Date.now() + 20_000; ; await sleep(50)) {
      const names = await readdir(folder);
      if (names.some((name) => name.endsWith('.partial'))) break;
      if (Date.now() > until) throw new Error(`no partial file: ${names.join(', ')}`);
    }
    await relay.cut();
    const failed = await writing;
    expect(failed).toBeInstanceOf(BackupFailedError);
    expect((failed as BackupFailedError).reason).toBe(BACKUP_MESSAGES.databaseLost);
    expect(await readdir(folder)).toEqual(older);

    // The database back, the session that waited at the table ends and with it its lock.
    await relay.restore();
    await release();
    for (const until = Date.now() + 20_000; ; await sleep(100)) {
      const [held] = await database.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`,
      );
      if (held!.n === 0) break;
      if (Date.now() > until) throw new Error('the cut session still holds the lock');
    }
    expect(await database.sql(`SELECT result FROM backups ORDER BY id`)).toEqual([
      { result: 'good' },
      { result: 'good' },
      { result: 'running' },
    ]);
    expect((await backups.list(1)).entries[0]).toMatchObject({
      result: 'failed',
      reason: BACKUP_MESSAGES.interrupted,
    });

    // The next backup is good, marks the cut one failed for good, and only now prunes.
    clock.set(new Date('2026-03-13T03:00:00+05:30'));
    const next = await background.backUp();
    expect('file' in next).toBe(true);
    expect(await database.sql(`SELECT result, reason FROM backups ORDER BY id`)).toEqual([
      { result: 'good', reason: null },
      { result: 'good', reason: null },
      { result: 'failed', reason: BACKUP_MESSAGES.interrupted },
      { result: 'good', reason: null },
    ]);
    expect(await backupFiles(folder)).toEqual([
      older[1],
      path.basename((next as { file: string }).file),
    ]);
  }, 60_000);
});

describe('checking a file before it counts as good', () => {
  it('refuses a file cut short or with a damaged byte, by the gzip checksum and the row counts', async () => {
    const ctx = await signedIn('owner');
    cleanups.push(() => ctx.close());
    const folder = await tempFolder();
    const { file, manifest } = await writeBackup(ctx.database.pool, folder);
    expect(await checkBackup(file, manifest)).toEqual(manifest);
    const bytes = await readFile(file);

    const damaged = path.join(folder, 'damaged.gz');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0x55;
    await writeFile(damaged, flipped);
    await expect(checkBackup(damaged)).rejects.toBeInstanceOf(BackupCheckError);

    const cut = path.join(folder, 'cut.gz');
    await writeFile(cut, bytes);
    await truncate(cut, Math.floor(bytes.length * 0.7));
    await expect(checkBackup(cut)).rejects.toThrow(/does not unzip|ends inside table/);

    // A manifest other than the one written (a file mixed up with another).
    await expect(
      checkBackup(file, { ...manifest, createdAt: '2020-01-01T00:00:00.000Z' }),
    ).rejects.toThrow(/manifest differs/);
  });
});

describe('Back up now, the list and the download', () => {
  let ctx: SignedIn;
  let folder: string;

  beforeAll(async () => {
    folder = await tempFolder();
    ctx = await signedIn('owner', { env: { BACKUP_DIR: folder } });
    cleanups.push(() => ctx.close());
  });

  it('starts one of two at once, refuses the other with 409, and audits it', async () => {
    const release = await holdTable(await databaseUrlOf(ctx), 'customers');
    const [first, second] = await Promise.all([ctx.post('/api/backups'), ctx.post('/api/backups')]);
    const answers = [first, second].sort((a, b) => a.statusCode - b.statusCode);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 409]);
    expect(answers[1]!.json()).toEqual({ success: false, message: BACKUP_MESSAGES.running });
    const started = answers[0]!.json<{ message: string; data: BackupEntry }>();
    expect(started.message).toBe(BACKUP_MESSAGES.started);
    expect(started.data).toMatchObject({
      result: 'running',
      trigger: 'browser',
      by: ctx.username,
      path: null,
    });
    // While it runs: the list says so, and another press is refused too.
    expect((await listOf(ctx)).running).toBe(true);
    expect((await ctx.post('/api/backups')).statusCode).toBe(409);

    await release();
    const done = await untilSettled(ctx, started.data.id);
    expect(done).toMatchObject({ result: 'good', reason: null, by: ctx.username });
    expect(done.path).toBe(path.join(folder, done.fileName!));
    expect(done.sizeBytes).toBe((await stat(done.path!)).size);
    expect((await listOf(ctx)).running).toBe(false);
    expect(
      await ctx.sql(
        `SELECT action, entity, entity_id FROM audit_log WHERE action LIKE 'backup.%' ORDER BY id`,
      ),
    ).toEqual([{ action: 'backup.run', entity: 'backup', entity_id: String(started.data.id) }]);
  });

  it('answers a repeat of the same press with the backup as it is now, starting none', async () => {
    const key = crypto.randomUUID();
    const first = await ctx.post('/api/backups', undefined, key);
    expect(first.statusCode).toBe(200);
    const id = first.json<{ data: BackupEntry }>().data.id;
    await untilSettled(ctx, id);
    const again = await ctx.post('/api/backups', undefined, key);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: BackupEntry }>().data).toMatchObject({ id, result: 'good' });
    expect(await ctx.sql(`SELECT count(*)::int AS n FROM backups`)).toEqual([{ n: 2 }]);
  });

  async function ticketFor(id: number, token = ctx.token) {
    const response = await ctx.app.inject(
      authed(token, { method: 'POST', url: '/api/backups/ticket', payload: { id } }),
    );
    return response;
  }

  it('downloads a good backup once by its ticket, as the file it is, and audits it', async () => {
    const [newest] = (await listOf(ctx)).entries;
    const made = await ticketFor(newest!.id);
    expect(made.statusCode, made.body).toBe(200);
    const { url, expiresInSeconds } = made.json<{
      data: { url: string; expiresInSeconds: number };
    }>().data;
    expect(expiresInSeconds).toBe(60);
    expect(url).toMatch(/^\/api\/backups\/download\?ticket=[\w-]{43}$/);

    // No bearer token: the ticket stands for the owner.
    const download = await ctx.app.inject({ method: 'GET', url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="${newest!.fileName}"`,
    );
    expect(download.rawPayload.equals(await readFile(newest!.path!))).toBe(true);
    expect(
      await ctx.sql(`SELECT user_id, entity_id FROM audit_log WHERE action = 'backup.download'`),
    ).toEqual([{ user_id: expect.any(Number), entity_id: String(newest!.id) }]);

    const again = await ctx.app.inject({ method: 'GET', url });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(BACKUP_MESSAGES.linkInvalid);
    // Only the hash of a ticket is kept.
    expect(await ctx.sql(`SELECT ticket_hash FROM backup_tickets`)).toEqual([]);
  });

  it('refuses an expired ticket, a forged one and a backup with no file', async () => {
    const [newest] = (await listOf(ctx)).entries;
    const { url } = (await ticketFor(newest!.id)).json<{ data: { url: string } }>().data;
    await ctx.sql(`UPDATE backup_tickets SET expires_at = now() - interval '1 second'`);
    const expired = await ctx.app.inject({ method: 'GET', url });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toBe(BACKUP_MESSAGES.linkExpired);

    for (const forged of ['', 'x'.repeat(43), '../../etc/passwd', 'a'.repeat(500)]) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/backups/download?ticket=${encodeURIComponent(forged)}`,
      });
      expect(response.statusCode, forged).toBe(
        forged.length > 100 || forged.includes('/') ? 400 : 404,
      );
    }

    const [failed] = await ctx.sql<{ id: number }>(
      `INSERT INTO backups (started_at, finished_at, result, reason, trigger)
       VALUES (now(), now(), 'failed', 'test', 'schedule') RETURNING id`,
    );
    const refused = await ticketFor(failed!.id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(BACKUP_MESSAGES.notDownloadable);
    expect((await ticketFor(999_999)).json().message).toBe(BACKUP_MESSAGES.noSuchBackup(999_999));
  });

  it('refuses a ticket whose owner is no longer the owner', async () => {
    const { user, token } = await staffSession(ctx, 'promoted', 'owner');
    const newest = (await listOf(ctx)).entries.find((entry) => entry.path);
    const { url } = (await ticketFor(newest!.id, token)).json<{ data: { url: string } }>().data;
    await ctx.sql(`UPDATE users SET role = 'manager' WHERE id = $1`, [user.id]);
    const refused = await ctx.app.inject({ method: 'GET', url });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.notAllowed);
  });

  it.each(['manager', 'cashier'] as Role[])(
    'refuses a %s every backups route with 403',
    async (role) => {
      const { token } = await staffSession(ctx, `${role}-b`, role);
      const before = await ctx.sql(`SELECT count(*)::int AS n FROM backups`);
      const calls = [
        { method: 'GET' as const, url: '/api/backups' },
        { method: 'POST' as const, url: '/api/backups' },
        { method: 'POST' as const, url: '/api/backups/ticket', payload: { id: 1 } },
      ];
      for (const call of calls) {
        const response = await ctx.app.inject(authed(token, call));
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
        expect(response.json().message).toBe(MESSAGES.notAllowed);
      }
      expect(await ctx.sql(`SELECT count(*)::int AS n FROM backups`)).toEqual(before);
    },
  );
});

describe('the daily backup as a pg-boss job, and a restore of its file', () => {
  it('is scheduled at BACKUP_AT, catches up after a start, and restores with the same ledger sums', async () => {
    const ctx = await signedIn('owner', { clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
    cleanups.push(() => ctx.close());
    await seedLedger(ctx);
    const folder = await tempFolder();
    const url = await databaseUrlOf(ctx);
    const jobs = await startJobs({
      connectionString: url,
      log: pino({ level: 'silent' }),
      catchUpAfterSeconds: 0,
      services: servicesOn(ctx.database, { BACKUP_DIR: folder, BACKUP_AT: '03:15' }),
    });
    let file: string | undefined;
    try {
      for (const until = Date.now() + 60_000; !file; await sleep(200)) {
        const [good] = await ctx.sql<{ file_name: string }>(
          `SELECT file_name FROM backups WHERE result = 'good' AND trigger = 'schedule'`,
        );
        if (good) file = path.join(folder, good.file_name);
        else if (Date.now() > until) throw new Error('no scheduled backup within 60 s');
      }
      expect(
        await ctx.sql(`SELECT cron, timezone FROM ${JOBS_SCHEMA}.schedule WHERE name = $1`, [
          BACKUP_QUEUE,
        ]),
      ).toEqual([{ cron: '15 3 * * *', timezone: 'Asia/Kolkata' }]);
    } finally {
      await jobs.stop();
    }

    const restored = await emptyDatabase();
    await restoreBackup(restored.pool, file, { cipher: createFieldCipher(TEST_SECRETS.dataKey) });
    const sums = async (pool: pg.Pool) =>
      (
        await pool.query(
          `SELECT (SELECT json_agg(t ORDER BY t.mobileno) FROM (
                    SELECT c.mobileno, sum(e.credit)::int AS credit, sum(e.debit)::int AS debit,
                           a.balance
                      FROM customers c JOIN points_entries e ON e.customer_id = c.id
                      JOIN points_accounts a ON a.customer_id = c.id
                     GROUP BY c.mobileno, a.balance) t) AS ledger,
                  (SELECT sum(amount)::int FROM scheme_installments) AS installments,
                  (SELECT count(*)::int FROM scheme_installments) AS receipts`,
        )
      ).rows[0];
    const before = await sums(ctx.database.pool);
    expect(before.ledger).toHaveLength(2);
    expect(before.installments).toBeGreaterThan(0);
    expect(await sums(restored.pool)).toEqual(before);
  }, 90_000);
});

/** Customers with credits and debits, and a scheme with installments, made through the API. */
async function seedLedger(ctx: SignedIn) {
  const ok = async (url: string, payload: unknown) => {
    const response = await ctx.post(url, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: Record<string, unknown> }>();
  };
  for (const [mobileno, custname] of [
    ['9800000101', 'Lakshmi Iyer'],
    ['9800000102', 'Arjun Mehta'],
  ])
    await ok('/api/customers/update-customer-data', { formData: { mobileno, custname } });
  const points = (MOBILENO: string, POINTS: string, CASHCR: string) =>
    ok('/api/customers/update-points', {
      formData: { MOBILENO, POINTS, CASHCR, NARRATION: 'Purchase', INVDATE: TODAY },
    });
  await points('9800000101', '500', 'CR');
  await points('9800000101', '120', 'DB');
  await points('9800000102', '75', 'CR');
  const [lakshmi] = await ctx.sql<{ id: number }>(
    `SELECT id FROM customers WHERE mobileno = '9800000101'`,
  );
  const now = new Date(`${TODAY}T12:00:00+05:30`);
  const scheme = await ok('/api/scheme/generate', {
    custid: lakshmi!.id,
    mobileno: '9800000101',
    custname: 'Lakshmi Iyer',
    startdt: '2026-01-05',
    amount: 5000,
    ...lateEntryReason('2026-01-05', now),
  });
  const schemeid = scheme.data.schemeid;
  await ok('/api/scheme/activate', {
    schemeid,
    date: '2026-01-05',
    mode: 'cash',
    ...lateEntryReason('2026-01-05', now),
  });
  await ok('/api/scheme/add-installment', {
    schemeid,
    date: '2026-02-05',
    mode: 'upi',
    reference: 'UTR 1',
    ...lateEntryReason('2026-02-05', now),
  });
}

/** An empty database of this test run (dropped with the others when the run ends). */
async function emptyDatabase(): Promise<Database> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `kanak_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE template0`),
  );
  const database = connectDatabase(withDatabase(adminUrl, name), { max: 4 });
  cleanups.push(async () => {
    await database.close();
    await withClient(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    );
  });
  return database;
}
