import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import {
  copyFile,
  mkdir,
  mkdtemp,
  open,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { MIGRATIONS_FOLDER } from './migrate.js';
import type { FieldCipher } from '../lib/crypto.js';
import { APP_VERSION } from '../lib/version.js';

/**
 * Kanak's logical backup: one gzip file holding
 *
 *   KANAK-BACKUP 1                     the format line
 *   {"format":1,"appVersion":…}        the manifest, one line of JSON
 *   <rows of the first table>          COPY text format, exactly as PostgreSQL writes it
 *   \.                                 end of that table (as in pg_dump's plain format)
 *   <rows of the next table> …
 *
 * Tables come in foreign-key order, all read in one REPEATABLE READ snapshot, so the file is
 * consistent while the server keeps working. `zcat file | head -2` shows what a file holds.
 * Why not pg_dump: docs/decisions.md ("Backups of the embedded database").
 */
export const BACKUP_FORMAT = 1;
const MAGIC = 'KANAK-BACKUP';
const END_OF_TABLE = '\\.';

export interface Manifest {
  format: number;
  appVersion: string;
  createdAt: string;
  postgresVersion: string;
  /** The last migration applied to the backed-up database. */
  migration: { tag: string | null; when: number };
  tables: { name: string; columns: string[]; rows: number }[];
  /** The identity sequences' last values, so a deleted record's id is never given again. */
  sequences: { table: string; column: string; lastValue: number }[];
}

/** A refusal or failure the operator can act on; the CLI prints just its message. */
export class BackupError extends Error {}

/** Columns of sealed fields: a restore checks that this DATA_KEY opens them. */
const SEALED_COLUMNS = [
  { table: 'customers', column: 'aadhaar_sealed' },
  { table: 'panel_config', column: 'token_sealed' },
] as const;

/**
 * Tables a backup lists empty, so that a restore empties them too. The replay store keeps each
 * change's answer for a day, for retries of that change: a restored shop needs none of it, and
 * a backup file, kept for months and copied off the machine, is no place for it.
 */
const LEFT_OUT = new Set(['idempotency_keys']);

const q = (name: string) => pg.escapeIdentifier(name);

/** A backup file written, read back, checked and under its final name. */
export interface WrittenBackup {
  file: string;
  manifest: Manifest;
  bytes: number;
}

export interface WriteOptions {
  /** The time the file is named after and its manifest gives. */
  now?: Date;
  /**
   * Called first in the snapshot's transaction, before any file is made. It may refuse by
   * throwing (another backup is under way); a lock it takes in this transaction is held until
   * the file is in place and `end` has run.
   */
  begin?(client: pg.PoolClient): Promise<void>;
  /** Called once the file is checked and renamed into place, still in the snapshot's transaction. */
  end?(written: WrittenBackup): Promise<void>;
}

/** The suffix of a file being written: it is renamed without it only once checked. */
export const PARTIAL_SUFFIX = '.partial';
/** A complete, checked backup's name: the UTC time it was made, and a number for a second one in the same second. */
export const BACKUP_FILE_NAME = /^kanak-backup-(\d{8}-\d{6})(?:-(\d+))?\.gz$/;

/** Raised when the file just written does not read back as written; the CLI prints its message. */
export class BackupCheckError extends BackupError {}

export async function writeBackup(
  pool: pg.Pool,
  folder: string,
  options: WriteOptions = {},
): Promise<WrittenBackup> {
  const now = options.now ?? new Date();
  // Mode 0700 when made here: the files hold password hashes and sealed Aadhaar numbers.
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const client = await pool.connect();
  let failed = false;
  let partial: string | undefined;
  let gzip: Gzip | undefined;
  let written: Promise<void> | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await options.begin?.(client);
    const file = await freeName(folder, now);
    // Written under another name, then renamed: a file with the final name is always complete
    // and has been read back whole.
    partial = `${file}${PARTIAL_SUFFIX}`;
    gzip = createGzip();
    // Mode 0600: the file holds password hashes and sealed Aadhaar numbers.
    written = pipeline(gzip, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    written.catch(() => undefined); // awaited below; this only keeps an early failure "handled"
    const manifest = await readManifest(client, now);
    await write(gzip, `${MAGIC} ${BACKUP_FORMAT}\n${JSON.stringify(manifest)}\n`);
    for (const table of manifest.tables) {
      if (!LEFT_OUT.has(table.name)) {
        const copy = `COPY ${q(table.name)} (${columnList(table)}) TO STDOUT`;
        const rows = client.query(copyTo(copy));
        for await (const chunk of rows) await write(gzip, chunk as Buffer);
        if (rows.rowCount !== table.rows)
          throw new Error(`${table.name}: copied ${rows.rowCount} rows of ${table.rows}`);
      }
      await write(gzip, `${END_OF_TABLE}\n`);
    }
    gzip.end();
    await written;
    // On the disk before it is read back: a disk that is full or failing says so here.
    await syncFile(partial);
    await checkBackup(partial, manifest);
    await rename(partial, file);
    await syncFolder(folder);
    const done = { file, manifest, bytes: (await stat(file)).size };
    await options.end?.(done);
    await client.query('COMMIT');
    return done;
  } catch (error) {
    failed = true;
    gzip?.destroy();
    await written?.catch(() => undefined);
    await client.query('ROLLBACK').catch(() => undefined);
    if (partial) await rm(partial, { force: true });
    throw error;
  } finally {
    // A connection that failed inside a COPY is not fit for reuse.
    client.release(failed);
  }
}

/**
 * Reads a backup file whole without writing anything, as a restore reads it: the gzip
 * stream's own checksum and length (CRC-32, checked as it ends), the format line and manifest
 * (the same as `expected`, when given), every table's rows up to its end mark against the
 * manifest's count, and nothing after the last table. Answers the manifest.
 */
export async function checkBackup(file: string, expected?: Manifest): Promise<Manifest> {
  const reader = openBackup(file);
  const damaged = (detail: string) => new BackupCheckError(detail);
  try {
    const manifest = await readHeader(reader);
    if (expected && JSON.stringify(manifest) !== JSON.stringify(expected))
      throw damaged('its manifest differs from the one written.');
    for (const table of manifest.tables) {
      let rows = 0;
      let complete = false;
      for (let line = await reader.next(); line !== undefined; line = await reader.next()) {
        if (isEndOfTable(line)) {
          complete = true;
          break;
        }
        rows++;
      }
      if (!complete) throw damaged(`it ends inside table ${table.name}.`);
      if (rows !== table.rows)
        throw damaged(`table ${table.name} has ${rows} rows, its manifest says ${table.rows}.`);
    }
    if ((await reader.next()) !== undefined)
      throw damaged('it holds more than its manifest lists.');
    return manifest;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
      throw damaged('it does not unzip (its gzip checksum or length is wrong, or it is cut off).');
    if (error instanceof BackupError && !(error instanceof BackupCheckError))
      throw damaged(error.message);
    throw error;
  } finally {
    reader.close();
  }
}

/** `kanak-backup-<UTC time>.gz`, or with `-2`, `-3` … when a backup of that second is there. */
async function freeName(folder: string, now: Date): Promise<string> {
  const base = `kanak-backup-${timestamp(now)}`;
  for (let n = 1; ; n++) {
    const file = path.join(folder, n === 1 ? `${base}.gz` : `${base}-${n}.gz`);
    const taken = await stat(file).then(
      () => true,
      () => false,
    );
    if (!taken) return file;
  }
}

async function syncFile(file: string) {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The rename itself on the disk; a system that cannot sync a folder (Windows) is let be. */
async function syncFolder(folder: string) {
  try {
    await syncFile(folder);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw error;
  }
}

/** What the snapshot holds: tables in foreign-key order with their columns and row counts. */
async function readManifest(client: pg.PoolClient, now: Date): Promise<Manifest> {
  const migration = await lastMigration(client);
  if (!migration) throw new BackupError('This database has no Kanak tables: nothing to back up.');
  const journal = await readJournal();
  const columns = await client.query<{ table: string; column: string }>(
    `SELECT c.relname AS table, a.attname AS column
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
        AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY c.relname, a.attnum`,
  );
  const tables = new Map<string, string[]>();
  for (const { table, column } of columns.rows)
    tables.set(table, [...(tables.get(table) ?? []), column]);

  const ordered = [];
  for (const name of await foreignKeyOrder(client, [...tables.keys()])) {
    const { rows } = LEFT_OUT.has(name)
      ? { rows: [{ n: '0' }] }
      : await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${q(name)}`);
    ordered.push({ name, columns: tables.get(name)!, rows: Number(rows[0]!.n) });
  }
  const sequences = await client.query<{ table: string; column: string; last: string | null }>(
    `SELECT c.relname AS table, a.attname AS column,
            pg_sequence_last_value(pg_get_serial_sequence(format('public.%I', c.relname), a.attname)::regclass) AS last
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0
        AND NOT a.attisdropped
        AND pg_get_serial_sequence(format('public.%I', c.relname), a.attname) IS NOT NULL
      ORDER BY 1, 2`,
  );
  const { rows: version } = await client.query<{ server_version: string }>('SHOW server_version');
  return {
    format: BACKUP_FORMAT,
    appVersion: APP_VERSION,
    createdAt: now.toISOString(),
    postgresVersion: version[0]!.server_version,
    migration: { tag: journal.find((m) => m.when === migration)?.tag ?? null, when: migration },
    tables: ordered,
    sequences: sequences.rows.map((s) => ({
      table: s.table,
      column: s.column,
      lastValue: Number(s.last ?? 0),
    })),
  };
}

/** Referenced tables before the tables that reference them; otherwise by name. */
async function foreignKeyOrder(client: pg.PoolClient, names: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent
       FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid
       JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace
        AND child.oid <> parent.oid`,
  );
  const ordered: string[] = [];
  const remaining = new Set([...names].sort());
  while (remaining.size > 0) {
    const ready = [...remaining].find((name) =>
      rows.every((fk) => fk.child !== name || !remaining.has(fk.parent)),
    );
    if (!ready) throw new BackupError(`Tables reference each other in a cycle: ${[...remaining]}`);
    ordered.push(ready);
    remaining.delete(ready);
  }
  return ordered;
}

export interface RestoreOptions {
  /** Replace whatever the database holds. Without it a database with users or customers is refused. */
  force?: boolean;
  /** Opens the backup's sealed fields; a key that cannot is refused (Aadhaar would be lost). */
  cipher: FieldCipher;
  /** Restore even though the key cannot open the sealed fields (the old key is lost for good). */
  skipKeyCheck?: boolean;
}

/**
 * Restores a backup into a database that holds no Kanak data: migrates it to the backup's
 * migration, loads every table in one transaction (nothing changes if any step fails), sets
 * the id sequences, checks the row counts, then applies this version's newer migrations.
 */
export async function restoreBackup(
  pool: pg.Pool,
  file: string,
  options: RestoreOptions,
): Promise<Manifest> {
  await stat(file).catch(() => {
    throw new BackupError(`There is no backup file at ${file}.`);
  });
  const reader = openBackup(file);
  try {
    const manifest = await readHeader(reader);
    const journal = await readJournal();
    if (!journal.some((m) => m.when === manifest.migration.when)) {
      throw new BackupError(
        `This backup was made by a newer Kanak (${manifest.appVersion}, database migration ` +
          `${manifest.migration.tag ?? manifest.migration.when}). Install that version or newer, then restore.`,
      );
    }
    await migrateTo(pool, manifest);

    const client = await pool.connect();
    let failed = false;
    try {
      await checkTarget(client, manifest, options.force === true);
      await client.query('BEGIN');
      // The migrations' own rows (the receipt counter) make way for the backup's.
      await client.query(
        `TRUNCATE ${manifest.tables.map((t) => q(t.name)).join(', ')} RESTART IDENTITY`,
      );
      await withoutChecksDuringLoad(client, async () => {
        for (const table of manifest.tables) await loadTable(client, reader, table);
      });
      if ((await reader.next()) !== undefined)
        throw new BackupError('The backup file holds more than its manifest lists: refused.');
      await setSequences(client, manifest);
      if (!options.skipKeyCheck) await checkKey(client, options.cipher);
      await client.query('COMMIT');
    } catch (error) {
      failed = true;
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(failed);
    }

    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_FOLDER });
    await pool.query('ANALYZE');
    return manifest;
  } catch (error) {
    throw readableError(error);
  } finally {
    reader.close();
  }
}

async function readHeader(reader: LineReader): Promise<Manifest> {
  const magic = (await reader.next())?.toString('utf8') ?? '';
  if (!magic.startsWith(`${MAGIC} `)) throw new BackupError('This is not a Kanak backup file.');
  if (magic !== `${MAGIC} ${BACKUP_FORMAT}`) {
    throw new BackupError(
      `This backup has format ${magic.slice(MAGIC.length + 1)}; this Kanak reads format ` +
        `${BACKUP_FORMAT}. Restore it with the Kanak version that made it.`,
    );
  }
  const line = (await reader.next())?.toString('utf8') ?? '';
  try {
    return JSON.parse(line) as Manifest;
  } catch {
    throw new BackupError('The backup file is damaged: its manifest cannot be read.');
  }
}

/** Brings the database to exactly the backup's migration, so its tables fit the rows. */
async function migrateTo(pool: pg.Pool, manifest: Manifest) {
  const current = await lastMigration(pool);
  if (current !== undefined && current > manifest.migration.when) {
    throw new BackupError(
      'This database has newer tables than the backup. Restore into an empty database ' +
        '(a new DATA_DIR, or a new database for DATABASE_URL); the restore brings it up to date.',
    );
  }
  await migrateUpTo(pool, manifest.migration.when);
}

/** Applies the committed migrations up to and including the one made at `when`. */
export async function migrateUpTo(pool: pg.Pool, when: number) {
  const journal = JSON.parse(await readFile(journalFile(MIGRATIONS_FOLDER), 'utf8')) as Journal;
  const count = journal.entries.findIndex((entry) => entry.when === when) + 1;
  if (count === 0) throw new Error(`No migration of this version was made at ${when}.`);
  // drizzle migrates to the end of a migrations folder: give it one that ends there.
  const folder = await mkdtemp(path.join(os.tmpdir(), 'kanak-migrations-'));
  try {
    await mkdir(path.join(folder, 'meta'));
    const entries = journal.entries.slice(0, count);
    await writeFile(journalFile(folder), JSON.stringify({ ...journal, entries }));
    for (const { tag } of entries) {
      await copyFile(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), path.join(folder, `${tag}.sql`));
    }
    await migrate(drizzle(pool), { migrationsFolder: folder });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function checkTarget(client: pg.PoolClient, manifest: Manifest, force: boolean) {
  const { rows } = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1`,
  );
  const here = rows.map((r) => r.name).join(', ');
  const there = manifest.tables
    .map((t) => t.name)
    .sort()
    .join(', ');
  if (here !== there) {
    throw new BackupError(`The backup's tables (${there}) differ from this database's (${here}).`);
  }
  const { rows: held } = await client.query<{ users: string; customers: string }>(
    'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM customers) AS customers',
  );
  const { users, customers } = held[0]!;
  if (!force && (Number(users) > 0 || Number(customers) > 0)) {
    throw new BackupError(
      `This database already holds data (${users} users, ${customers} customers). Restore into ` +
        'an empty database, or add --force to replace everything in it with the backup.',
    );
  }
}

async function loadTable(client: pg.PoolClient, reader: LineReader, table: Manifest['tables'][0]) {
  const copy = client.query(copyFrom(`COPY ${q(table.name)} (${columnList(table)}) FROM STDIN`));
  const done = once(copy, 'finish');
  done.catch(() => undefined); // awaited below; PostgreSQL may refuse a row before that
  // Lines go to PostgreSQL in batches: one write per line would be slow for millions of rows.
  let batch: Buffer[] = [];
  let size = 0;
  let complete = false;
  for (let line = await reader.next(); line !== undefined; line = await reader.next()) {
    if (isEndOfTable(line)) {
      complete = true;
      break;
    }
    batch.push(line, NEWLINE);
    size += line.length + 1;
    if (size >= 256 * 1024) {
      await write(copy, Buffer.concat(batch));
      batch = [];
      size = 0;
    }
  }
  if (size > 0) await write(copy, Buffer.concat(batch));
  copy.end();
  await done;
  if (!complete)
    throw new BackupError(`The backup file is incomplete: it ends inside table ${table.name}.`);
  if (copy.rowCount !== table.rows) {
    throw new BackupError(
      `The backup file is damaged: table ${table.name} has ${copy.rowCount} rows, its manifest says ${table.rows}.`,
    );
  }
}

/**
 * Loads with the foreign keys and the secondary indexes set aside and builds them again after,
 * in the same transaction, as pg_restore does: checking each row as it arrives is several times
 * slower. A row that breaks one of them still fails the whole restore, when it is rebuilt.
 * Our own triggers are off meanwhile: the summaries they keep (the dashboard's daily totals,
 * each scheme's installments paid) come in the backup as they were, and loading the rows they
 * summarise must not add to them a second time.
 */
async function withoutChecksDuringLoad(client: pg.PoolClient, load: () => Promise<void>) {
  const { rows: triggered } = await client.query<{ table: string }>(
    `SELECT DISTINCT format('%I.%I', n.nspname, c.relname) AS table
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT t.tgisinternal AND n.nspname = 'public'`,
  );
  for (const { table } of triggered)
    await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  await withoutConstraintsDuringLoad(client, load);
  for (const { table } of triggered) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
}

async function withoutConstraintsDuringLoad(client: pg.PoolClient, load: () => Promise<void>) {
  const { rows: foreignKeys } = await client.query<{ table: string; name: string; def: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS table, k.conname AS name,
            pg_get_constraintdef(k.oid) AS def
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = 'public'`,
  );
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `SELECT format('%I.%I', n.nspname, x.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = x.relnamespace
      WHERE n.nspname = 'public' AND NOT EXISTS (
            SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype <> 'f')`,
  );
  for (const fk of foreignKeys) {
    await client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${q(fk.name)}`);
  }
  for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
  await load();
  for (const index of indexes) await client.query(index.def);
  for (const fk of foreignKeys) {
    await client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${q(fk.name)} ${fk.def}`);
  }
}

/** Each id sequence continues after the backup's last value, never below an existing id. */
async function setSequences(client: pg.PoolClient, manifest: Manifest) {
  for (const { table, column, lastValue } of manifest.sequences) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), next, true)
         FROM (SELECT GREATEST($3::bigint, max(${q(column)})) AS next FROM ${q(table)}) s
        WHERE next > 0`,
      [`public.${q(table)}`, column, lastValue],
    );
  }
}

async function checkKey(client: pg.PoolClient, cipher: FieldCipher) {
  for (const { table, column } of SEALED_COLUMNS) {
    const { rows } = await client.query<{ sealed: string }>(
      `SELECT ${q(column)} AS sealed FROM ${q(table)} WHERE ${q(column)} IS NOT NULL LIMIT 1`,
    );
    if (!rows[0]) continue;
    try {
      cipher.decrypt(rows[0].sealed);
    } catch {
      throw new BackupError(
        `This DATA_KEY cannot open the backup's sealed ${table}.${column}: it was made with ` +
          "another key. Set DATA_KEY (or put the old installation's secrets.json in DATA_DIR) " +
          'and restore again. Nothing was restored.',
      );
    }
  }
}

async function lastMigration(db: pg.Pool | pg.PoolClient): Promise<number | undefined> {
  const { rows } = await db.query<{ exists: boolean }>(
    `SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`,
  );
  if (!rows[0]?.exists) return undefined;
  const last = await db.query<{ when: string | null }>(
    'SELECT max(created_at) AS when FROM drizzle.__drizzle_migrations',
  );
  return last.rows[0]?.when == null ? undefined : Number(last.rows[0].when);
}

interface JournalEntry {
  tag: string;
  when: number;
}
interface Journal {
  entries: JournalEntry[];
}

const journalFile = (folder: string) => path.join(folder, 'meta', '_journal.json');

async function readJournal(): Promise<JournalEntry[]> {
  const journal = JSON.parse(await readFile(journalFile(MIGRATIONS_FOLDER), 'utf8')) as Journal;
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

function readableError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') {
    return new BackupError(
      'The backup file is damaged or incomplete (it does not unzip). Nothing was restored.',
    );
  }
  return error;
}

const NEWLINE = Buffer.from('\n');

const isEndOfTable = (line: Buffer) =>
  line.length === 2 && line.toString('latin1') === END_OF_TABLE;

/** The file's lines, unzipped as they are read. */
function openBackup(file: string): LineReader {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  return new LineReader(input.pipe(gunzip));
}

/** The file's lines, one at a time, from the gunzip stream. */
class LineReader {
  private lines: Buffer[] = [];
  private next_ = 0;
  private rest: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(private readonly source: NodeJS.ReadableStream & { destroy(): void }) {
    this.chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  async next(): Promise<Buffer | undefined> {
    while (this.next_ >= this.lines.length) {
      if (this.ended) return undefined;
      const { value, done } = await this.chunks.next();
      this.lines = [];
      this.next_ = 0;
      if (done) {
        this.ended = true;
        if (this.rest.length > 0) this.lines.push(this.rest);
        continue;
      }
      const data = this.rest.length > 0 ? Buffer.concat([this.rest, value]) : value;
      let start = 0;
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
        this.lines.push(data.subarray(start, end));
        start = end + 1;
      }
      this.rest = data.subarray(start);
    }
    return this.lines[this.next_++];
  }

  close() {
    this.source.destroy();
  }
}

async function write(stream: Writable, chunk: Buffer | string) {
  if (stream.destroyed) throw stream.errored ?? new Error('The stream was closed early.');
  if (!stream.write(chunk)) await drained(stream);
}

/**
 * Until the stream takes more; a stream that fails or closes meanwhile (a full disk) rejects,
 * where waiting for 'drain' alone would wait for ever.
 */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error | null) => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(stream.errored ?? new Error('The stream was closed early.'));
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

const columnList = (table: { columns: string[] }) => table.columns.map(q).join(', ');

/** 2026-11-22T07:25:00Z -> 20261122-072500 (UTC). */
function timestamp(date: Date) {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}
