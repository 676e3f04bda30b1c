import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip, gzipSync } from 'node:zlib';
import { text } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, type Database } from '../db/client.js';
import { MIGRATIONS_FOLDER } from '../db/migrate.js';
import { createFieldCipher, hashPassword } from '../lib/crypto.js';
import { withClient, withDatabase } from '../../test/global-setup.js';
import {
  addUser,
  appOnDatabase,
  authed,
  createTestContext,
  lateEntryReason,
  TEST_SECRETS,
  type TestContext,
} from '../../test/helpers.js';
import {
  BackupError,
  migrateUpTo,
  restoreBackup,
  writeBackup,
  type Manifest,
} from '../db/backup-file.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TODAY = '2026-02-10';
const clock = () => new Date(`${TODAY}T12:00:00+05:30`);
const AADHAAR = '234123412346';
const PANEL_TOKEN = 'panel-token-1928';
const cipher = createFieldCipher(TEST_SECRETS.dataKey);

let source: TestContext;
let token: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  source = await createTestContext({}, clock);
  await seed();
}, 60_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await source?.close();
});

const post = (ctx: { app: FastifyInstance }, url: string, payload: unknown, bearer = token) =>
  ctx.app.inject(
    authed(bearer, {
      method: 'POST',
      url: `/api${url}`,
      payload: payload as Record<string, string>,
    }),
  );
async function signIn(ctx: { app: FastifyInstance }, USERNAME: string, PASSWORD: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/login/verify',
    payload: { USERNAME, PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ accessToken: string }>().accessToken;
}
async function ok(response: Promise<{ statusCode: number; body: string; json(): unknown }>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json() as { data: Record<string, unknown> };
}

/** Every kind of data the shop has, made through the API as staff would, plus hard cases. */
async function seed() {
  await addUser(source, 'kavya', 'Kavya@1928');
  await addUser(source, 'ravi', 'Ravi@19280');
  token = await signIn(source, 'kavya', 'Kavya@1928');
  const customer = (mobileno: string, custname: string, aadhaar = '') =>
    ok(
      post(source, '/customers/update-customer-data', {
        formData: { mobileno, custname, aadhaar, city: 'Mumbai', dob: '1990-04-12' },
      }),
    );
  await customer('9800000001', 'Lakshmi Iyer', AADHAAR);
  await customer('9800000002', 'Arjun Mehta');
  await customer('9800000003', 'ज्योति शर्मा');
  const points = (MOBILENO: string, POINTS: string, CASHCR: string, NARRATION: string) =>
    ok(
      post(source, '/customers/update-points', {
        formData: { MOBILENO, POINTS, CASHCR, NARRATION, INVDATE: '2026-02-01' },
      }),
    );
  await points('9800000001', '500', 'CR', 'Diwali purchase');
  await points('9800000001', '120', 'DB', 'Redeemed');
  await points('9800000002', '75', 'CR', 'Ring');
  const [first] = await source.sql<{ mrn: number }>(
    'SELECT mrn FROM points_entries ORDER BY mrn LIMIT 1',
  );
  await ok(
    post(source, '/customers/update-statement', {
      formData: {
        MRN: first!.mrn,
        MOBILENO: '9800000001',
        POINTS: '550',
        CASHCR: 'CR',
        NARRATION: 'Diwali purchase (corrected)',
        INVDATE: '2026-02-01',
      },
    }),
  );
  const [lakshmi] = await source.sql<{ id: number }>(
    `SELECT id FROM customers WHERE mobileno = '9800000001'`,
  );
  const scheme = await ok(
    post(source, '/scheme/generate', {
      custid: lakshmi!.id,
      mobileno: '9800000001',
      custname: 'Lakshmi Iyer',
      startdt: '2025-12-05',
      amount: 5000,
      ...lateEntryReason('2025-12-05', clock()),
    }),
  );
  const schemeid = scheme.data.schemeid;
  await ok(
    post(source, '/scheme/activate', {
      schemeid,
      date: '2025-12-05',
      mode: 'cash',
      ...lateEntryReason('2025-12-05', clock()),
    }),
  );
  await ok(
    post(source, '/scheme/add-installment', {
      schemeid,
      date: '2026-01-05',
      mode: 'upi',
      reference: 'UTR 1',
      ...lateEntryReason('2026-01-05', clock()),
    }),
  );
  await ok(
    post(source, '/social/panel-setup', {
      formData: { instanceid: 'inst-1', token: PANEL_TOKEN, panel: 2, phone: '9800000009' },
    }),
  );
  // An image (bytea), uploaded as the web app does; then one deleted, so ids have a gap.
  for (const variant of ['first', 'second']) {
    const form = new FormData();
    form.append('type', 'banner');
    form.append(
      'file',
      new Blob([new Uint8Array(pngWith(variant))], { type: 'image/png' }),
      'b.png',
    );
    const request = new Request('http://kanak.test/', { method: 'POST', body: form });
    await ok(
      source.app.inject(
        authed(token, {
          method: 'POST',
          url: '/api/file/upload',
          payload: Buffer.from(await request.arrayBuffer()),
          headers: { 'content-type': request.headers.get('content-type')! },
        }),
      ),
    );
  }
  const [newest] = await source.sql<{ id: number; storage_key: string }>(
    'SELECT id, storage_key FROM app_images ORDER BY id DESC LIMIT 1',
  );
  await ok(post(source, '/file/delete', { id: newest!.id, path: newest!.storage_key }));
  // What COPY must escape: tab, newline, backslash, a line that reads "\." and a NUL-free jsonb.
  await source.sql(`UPDATE customers SET address = $1 WHERE mobileno = '9800000002'`, [
    'Flat 4\tWing B\nline two \\ back\n\\.\nend',
  ]);
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const pngWith = (tail: string) => Buffer.concat([PNG, Buffer.from(tail)]);

// ---- databases -----------------------------------------------------------------------------

/** An empty database of this test run (dropped by the global teardown if a test dies). */
async function emptyDatabase() {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `kanak_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE template0`),
  );
  const url = withDatabase(adminUrl, name);
  const database = connectDatabase(url, { max: 4 });
  cleanups.push(async () => {
    await database.close();
    await withClient(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    );
  });
  return { url, database };
}

/** Per table: row count and an md5 of every row's text, in a stable order. */
async function fingerprints(pool: Database['pool']) {
  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ('public', 'drizzle') AND c.relkind = 'r' ORDER BY 1`,
  );
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await pool.query<{ n: string; md5: string }>(
      `SELECT count(*) AS n, md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS md5
         FROM ${name} t`,
    );
    result[name] = `${rows[0]!.n} rows ${rows[0]!.md5}`;
  }
  // The restore sets foreign keys and indexes aside while loading: they must all be back.
  const { rows: schema } = await pool.query<{ definition: string }>(
    `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL
     SELECT pg_get_indexdef(indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
      WHERE c.relnamespace = 'public'::regnamespace
     ORDER BY 1`,
  );
  result.schema = schema.map((row) => row.definition).join('\n');
  return result;
}

/**
 * What a backup carries: every table but the replay store, which backups leave out, and the
 * backups' own history, which each backup adds to after its snapshot.
 */
async function backedUp(pool: Database['pool']) {
  const {
    'public.idempotency_keys': _replays,
    'public.backups': _backups,
    ...tables
  } = await fingerprints(pool);
  return tables;
}

async function appOn(database: Database) {
  const app = await appOnDatabase(database, {}, clock);
  cleanups.push(() => app.close());
  return { app };
}

async function tempFolder() {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'kanak-backup-test-'));
  // The embedded PostgreSQL runs as the `postgres` user when the tests run as root.
  await chmod(folder, 0o755);
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

const restore = (pool: Database['pool'], file: string, options: { force?: boolean } = {}) =>
  restoreBackup(pool, file, { cipher, ...options });

// ---- tests ---------------------------------------------------------------------------------

describe('writeBackup and restoreBackup', () => {
  let file: string;
  let manifest: Manifest;

  beforeAll(async () => {
    ({ file, manifest } = await writeBackup(source.database.pool, await tempFolder()));
  });

  it('writes one gzip file whose manifest names every table with its rows, in foreign-key order', async () => {
    expect(path.basename(file)).toMatch(/^kanak-backup-\d{8}-\d{6}\.gz$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [magic, json] = (await text(createReadStream(file).pipe(createGunzip()))).split('\n');
    expect(magic).toBe('KANAK-BACKUP 1');
    expect(JSON.parse(json!)).toEqual(manifest);
    expect(manifest.migration.tag).toMatch(/^\d{4}_/);
    const counts = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
    expect(counts).toMatchObject({ users: 2, customers: 3, points_entries: 3, app_images: 1 });
    expect(counts.points_entry_history).toBe(1);
    expect(counts.scheme_installments).toBe(2);
    expect(counts.audit_log).toBeGreaterThan(5);
    const order = manifest.tables.map((t) => t.name);
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('customers'));
    expect(order.indexOf('customers')).toBeLessThan(order.indexOf('points_entries'));
    expect(order.indexOf('points_entries')).toBeLessThan(order.indexOf('points_entry_history'));
    expect(order.indexOf('schemes')).toBeLessThan(order.indexOf('scheme_installments'));
  });

  it('restores every table row for row into an empty database', async () => {
    const target = await emptyDatabase();
    await restore(target.database.pool, file);
    expect(await backedUp(target.database.pool)).toEqual(await backedUp(source.database.pool));
    const [address] = await target.database.pool
      .query<{ address: string }>(`SELECT address FROM customers WHERE mobileno = '9800000002'`)
      .then((r) => r.rows);
    expect(address!.address).toBe('Flat 4\tWing B\nline two \\ back\n\\.\nend');
  });

  it('gives an app on the restored database everything back, and new records fresh ids and the next receipt', async () => {
    const target = await emptyDatabase();
    await restore(target.database.pool, file);
    const restored = await appOn(target.database);
    const bearer = await signIn(restored, 'kavya', 'Kavya@1928');

    // Sealed with DATA_KEY: the token comes back readable, the Aadhaar masked as always.
    const panel = await restored.app.inject(
      authed(bearer, { method: 'GET', url: '/api/social/get-panel-config' }),
    );
    expect(panel.json().data).toMatchObject({ token: PANEL_TOKEN, panel: 2 });
    const lakshmi = await ok(
      post(restored, '/customers/get-customer-data', { mobileno: '9800000001' }, bearer),
    );
    expect(lakshmi.data).toMatchObject({ aadhaar: `XXXXXXXX${AADHAAR.slice(-4)}`, points: 430 });
    const [sealed] = (
      await target.database.pool.query<{ s: string }>(
        `SELECT aadhaar_sealed AS s FROM customers WHERE mobileno = '9800000001'`,
      )
    ).rows;
    expect(cipher.decrypt(sealed!.s)).toBe(AADHAAR);

    // Sequences continue after the backup's last values: no id is given twice.
    const maxIds = async () =>
      (
        await target.database.pool.query<Record<string, number>>(
          `SELECT (SELECT max(id) FROM customers) AS customers, (SELECT max(mrn) FROM points_entries) AS mrn,
                  (SELECT max(id) FROM audit_log) AS audit, (SELECT max(receipt_no) FROM scheme_installments) AS receipt`,
        )
      ).rows[0]!;
    const before = await maxIds();
    await ok(
      post(
        restored,
        '/customers/update-customer-data',
        { formData: { mobileno: '9800000004', custname: 'Meena Rao' } },
        bearer,
      ),
    );
    await ok(
      post(
        restored,
        '/customers/update-points',
        {
          formData: {
            MOBILENO: '9800000004',
            POINTS: '10',
            CASHCR: 'CR',
            NARRATION: '',
            INVDATE: '2026-02-10',
          },
        },
        bearer,
      ),
    );
    const [scheme] = (
      await target.database.pool.query<{ id: number }>('SELECT id FROM schemes LIMIT 1')
    ).rows;
    await ok(
      post(
        restored,
        '/scheme/add-installment',
        { schemeid: scheme!.id, date: '2026-02-05', mode: 'cash' },
        bearer,
      ),
    );
    const after = await maxIds();
    expect(after.customers).toBe(before.customers! + 1);
    expect(after.mrn).toBe(before.mrn! + 1);
    expect(after.audit).toBeGreaterThan(before.audit!);
    // Receipt numbers stay gapless across the restore.
    expect(after.receipt).toBe(before.receipt! + 1);

    // A new image never takes the id of the deleted one (its URL may still be cached).
    const ids = manifest.sequences.find((s) => s.table === 'app_images')!;
    const [image] = await source.sql<{ id: number }>('SELECT max(id) AS id FROM app_images');
    expect(ids.lastValue).toBe(image!.id + 1);
    const { rows: sequence } = await target.database.pool.query<{ last: number }>(
      `SELECT pg_sequence_last_value(pg_get_serial_sequence('app_images', 'id')) AS last`,
    );
    expect(sequence[0]!.last).toBe(ids.lastValue);
  });

  it('refuses a database that already holds data, changing nothing; --force replaces it', async () => {
    const target = await emptyDatabase();
    await restore(target.database.pool, file);
    await target.database.pool.query(`UPDATE customers SET city = 'Pune'`);
    const changed = await fingerprints(target.database.pool);

    await expect(restore(target.database.pool, file)).rejects.toThrow(
      /already holds data \(2 users, 3 customers\).*--force/,
    );
    expect(await fingerprints(target.database.pool)).toEqual(changed);

    await restore(target.database.pool, file, { force: true });
    expect(await backedUp(target.database.pool)).toEqual(await backedUp(source.database.pool));
  });

  it('refuses a DATA_KEY that cannot open the sealed fields, restoring nothing', async () => {
    const target = await emptyDatabase();
    const otherKey = createFieldCipher('22'.repeat(32));
    await expect(restoreBackup(target.database.pool, file, { cipher: otherKey })).rejects.toThrow(
      /cannot open the backup's sealed customers\.aadhaar_sealed.*Nothing was restored/,
    );
    const { rows } = await target.database.pool.query('SELECT * FROM customers');
    expect(rows).toEqual([]);
    // The operator who has lost the old key for good may still restore the rest.
    await restoreBackup(target.database.pool, file, { cipher: otherKey, skipKeyCheck: true });
    expect((await target.database.pool.query('SELECT * FROM customers')).rowCount).toBe(3);
  });

  it('refuses a damaged, cut-off or foreign file with a message, restoring nothing', async () => {
    const target = await emptyDatabase();
    const folder = await tempFolder();
    const whole = await text(createReadStream(file).pipe(createGunzip()));
    const [magic, json, ...data] = whole.split('\n');
    const withManifest = (change: (m: Manifest) => Manifest) =>
      gzipSync([magic, JSON.stringify(change(JSON.parse(json!) as Manifest)), ...data].join('\n'));
    const write = async (name: string, content: Buffer) => {
      await writeFile(path.join(folder, name), content);
      return path.join(folder, name);
    };
    const cases: [string, RegExp][] = [
      [
        await write('plain.txt', Buffer.from('hello')),
        /damaged or incomplete \(it does not unzip\)/,
      ],
      [await write('cut.gz', (await readFile(file)).subarray(0, 600)), /damaged or incomplete/],
      [await write('other.gz', gzipSync('PGDMP custom format')), /not a Kanak backup/],
      [
        await write('future.gz', gzipSync(whole.replace('KANAK-BACKUP 1', 'KANAK-BACKUP 2'))),
        /format 2; this Kanak reads format 1/,
      ],
      [
        await write('short.gz', gzipSync(whole.slice(0, whole.lastIndexOf('\\.')))),
        /incomplete: it ends inside table/,
      ],
      [
        await write(
          'newer.gz',
          withManifest((m) => ({ ...m, migration: { tag: '9999_future', when: 99999999999999 } })),
        ),
        /made by a newer Kanak/,
      ],
      [
        await write(
          'rows.gz',
          withManifest((m) => ({
            ...m,
            tables: m.tables.map((t) => (t.name === 'users' ? { ...t, rows: 3 } : t)),
          })),
        ),
        /table users has 2 rows, its manifest says 3/,
      ],
    ];
    for (const [bad, message] of cases) {
      const error = await restore(target.database.pool, bad).catch((e: unknown) => e);
      expect(error, path.basename(bad)).toBeInstanceOf(BackupError);
      expect((error as Error).message, path.basename(bad)).toMatch(message);
      // Refused before migrating (no tables yet), or rolled back (empty tables but the rows
      // the migrations make: the receipt counter, the first branch and the default points
      // rules, the standard scheme plan).
      const madeByMigrations = [
        'public.receipt_counter',
        'public.branches',
        'public.points_rules',
        'public.scheme_plans',
      ];
      const tables = await fingerprints(target.database.pool);
      for (const [table, fingerprint] of Object.entries(tables)) {
        if (table.startsWith('public.') && !madeByMigrations.includes(table))
          expect(fingerprint, `${path.basename(bad)}: ${table}`).toMatch(/^0 rows/);
      }
    }
  });

  it('restores a backup made before the points accounts and brings its data up to date', async () => {
    const journal = JSON.parse(
      await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: { tag: string; when: number }[] };
    // The last version that kept the balance in the customers row, and every migration since.
    const accounts = journal.entries.findIndex((entry) => entry.tag === '0027_points_accounts');
    const older = journal.entries[accounts - 1];
    const newest = journal.entries.at(-1);
    const old = await emptyDatabase();
    await migrateUpTo(old.database.pool, older!.when);
    // Data as the previous version kept it, written with SQL (its app is not at hand).
    await old.database.pool.query(
      `INSERT INTO users (username, password_hash) VALUES ('veena', $1)`,
      [await hashPassword('Veena@1928')],
    );
    await old.database.pool.query(
      `INSERT INTO customers (mobileno, custname, points_balance) VALUES ('9811111111', 'Veena Pillai', 40);
       INSERT INTO points_entries (customer_id, invdate, narration, credit, ts)
       SELECT id, '2025-03-01', 'Anklet', 40, 'S' FROM customers`,
    );
    const { file: oldFile, manifest: oldManifest } = await writeBackup(
      old.database.pool,
      await tempFolder(),
    );
    expect(oldManifest.migration).toEqual({ tag: older!.tag, when: older!.when });

    const target = await emptyDatabase();
    await restore(target.database.pool, oldFile);
    const { rows: applied } = await target.database.pool.query<{ when: number }>(
      'SELECT max(created_at) AS when FROM drizzle.__drizzle_migrations',
    );
    expect(applied[0]!.when).toBe(newest!.when);
    const restored = await appOn(target.database);
    const bearer = await signIn(restored, 'veena', 'Veena@1928');
    const veena = await ok(
      post(restored, '/customers/get-customer-data', { mobileno: '9811111111' }, bearer),
    );
    expect(veena.data).toMatchObject({ custname: 'Veena Pillai', points: 40 });
  });

  it('takes one consistent snapshot while staff keep crediting points', async () => {
    const busy = await createTestContext({}, clock);
    cleanups.push(() => busy.close());
    await addUser(busy, 'kavya', 'Kavya@1928');
    const bearer = await signIn(busy, 'kavya', 'Kavya@1928');
    await ok(
      post(
        busy,
        '/customers/update-customer-data',
        { formData: { mobileno: '9800000001', custname: 'Lakshmi' } },
        bearer,
      ),
    );
    // A long ledger, so that copying it takes a while.
    await busy.sql(
      `INSERT INTO points_entries (customer_id, invdate, narration, credit, ts)
       SELECT id, '2025-01-01', 'old sale ' || n, 1, 'S' FROM customers, generate_series(1, 150000) n`,
    );
    await busy.sql(`UPDATE points_accounts SET balance = 150000`);

    let backingUp = true;
    let creditsDuring = 0;
    const credits = (async () => {
      while (backingUp) {
        await ok(
          post(
            busy,
            '/customers/update-points',
            {
              formData: {
                MOBILENO: '9800000001',
                POINTS: '1',
                CASHCR: 'CR',
                NARRATION: '',
                INVDATE: '2026-02-10',
              },
            },
            bearer,
          ),
        );
        creditsDuring++;
      }
    })();
    const writing = writeBackup(busy.database.pool, await tempFolder());
    // The credits start before the backup and end after it.
    const { file: snapshot } = await writing.finally(() => (backingUp = false));
    await credits;
    expect(creditsDuring).toBeGreaterThan(0);
    const [{ n: ledgerNow }] = (await busy.sql<{ n: string }>(
      'SELECT count(*) AS n FROM points_entries',
    )) as [{ n: string }];

    const target = await emptyDatabase();
    await restore(target.database.pool, snapshot);
    const { rows } = await target.database.pool.query<{ balance: number; ledger: number }>(
      `SELECT a.balance, (SELECT sum(credit - debit) FROM points_entries WHERE customer_id = a.customer_id) AS ledger
         FROM points_accounts a`,
    );
    expect(rows[0]!.balance).toBe(Number(rows[0]!.ledger));
    expect(rows[0]!.balance).toBeGreaterThanOrEqual(150000);
    // Credits made after the snapshot began are not in it.
    const { rows: copied } = await target.database.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM points_entries',
    );
    expect(Number(copied[0]!.n)).toBeLessThan(Number(ledgerNow));
  }, 60_000);
});

// ---- the commands ---------------------------------------------------------------------------

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run -s <script>` from the repository root, as an operator would. */
function npmRun(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', script, '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', DATA_KEY: TEST_SECRETS.dataKey, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run backup and npm run restore', () => {
  it('backs up DATABASE_URL, restores into a new embedded DATA_DIR, backs that up and restores it on DATABASE_URL', async () => {
    const folder = await tempFolder();
    const embeddedDir = path.join(folder, 'data');
    const sourceUrl = withDatabase(inject('adminDatabaseUrl'), await databaseName(source));

    const first = await npmRun('backup', ['--out', path.join(folder, 'out1')], {
      DATABASE_URL: sourceUrl,
      DATA_DIR: path.join(folder, 'unused'),
    });
    expect(first.code, first.stderr).toBe(0);
    const [file1] = await readdir(path.join(folder, 'out1'));
    expect(first.stdout).toContain(`Backup written: ${path.join(folder, 'out1', file1!)}`);

    const restored = await npmRun('restore', [path.join(folder, 'out1', file1!)], {
      DATABASE_URL: '',
      DATA_DIR: embeddedDir,
    });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored .*: \d+ tables, \d+ rows/);

    // The default folder is DATA_DIR/backups.
    const second = await npmRun('backup', [], { DATABASE_URL: '', DATA_DIR: embeddedDir });
    expect(second.code, second.stderr).toBe(0);
    const [file2] = await readdir(path.join(embeddedDir, 'backups'));

    const target = await emptyDatabase();
    const back = await npmRun('restore', [path.join(embeddedDir, 'backups', file2!)], {
      DATABASE_URL: target.url,
      DATA_DIR: path.join(folder, 'unused'),
    });
    expect(back.code, back.stderr).toBe(0);
    expect(await backedUp(target.database.pool)).toEqual(await backedUp(source.database.pool));

    // Again into the same database: refused with the reason, exit code 1.
    const again = await npmRun('restore', [path.join(embeddedDir, 'backups', file2!)], {
      DATABASE_URL: target.url,
      DATA_DIR: path.join(folder, 'unused'),
    });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toMatch(/^This database already holds data/);
  }, 90_000);
});

// ---- PostgreSQL's own tools ----------------------------------------------------------------

/** Runs a PostgreSQL client tool; a missing one fails the test with what to install. */
function pgTool(tool: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${tool} is not on PATH: install the PostgreSQL client tools (apt-get install postgresql-client).`,
            )
          : error,
      ),
    );
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function databaseName(ctx: TestContext) {
  const { rows } = await ctx.database.pool.query<{ name: string }>(
    'SELECT current_database() AS name',
  );
  return rows[0]!.name;
}

describe('pg_dump -Fc and pg_restore (an external PostgreSQL)', () => {
  it('restores a dump into a new database with every table identical', async (context) => {
    // pg_dump refuses a newer server: without TEST_DATABASE_URL the tests run on the embedded
    // PostgreSQL 18, and Debian's client is 15. CI points TEST_DATABASE_URL at PostgreSQL 15.
    const client = Number(/(\d+)/.exec((await pgTool('pg_dump', ['--version'])).stdout)?.[1]);
    const { rows } = await source.database.pool.query<{ major: string }>(
      `SELECT current_setting('server_version_num')::int / 10000 AS major`,
    );
    if (client < Number(rows[0]!.major))
      context.skip(`pg_dump ${client} cannot dump PostgreSQL ${rows[0]!.major}`);
    const folder = await tempFolder();
    const dump = path.join(folder, 'kanak.dump');
    const sourceUrl = withDatabase(inject('adminDatabaseUrl'), await databaseName(source));
    const dumped = await pgTool('pg_dump', ['-Fc', '--no-owner', '-d', sourceUrl, '-f', dump]);
    expect(
      dumped.code,
      `pg_dump failed; its major version must be the server's or newer (run the tests with ` +
        `TEST_DATABASE_URL on a PostgreSQL of pg_dump's version):\n${dumped.stderr}`,
    ).toBe(0);

    const target = await emptyDatabase();
    const restored = await pgTool('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '-d',
      target.url,
      dump,
    ]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await fingerprints(target.database.pool)).toEqual(
      await fingerprints(source.database.pool),
    );
    // And the app runs on it: sign-in works and the sequences continue.
    const restoredApp = await appOn(target.database);
    const bearer = await signIn(restoredApp, 'ravi', 'Ravi@19280');
    await ok(
      post(
        restoredApp,
        '/customers/update-customer-data',
        { formData: { mobileno: '9800000005', custname: 'New' } },
        bearer,
      ),
    );
  }, 60_000);
});
