import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { withClient, withDatabase } from '../../test/global-setup.js';
import { authed, TEST_SECRETS } from '../../test/helpers.js';
import { connectDatabase, type Database } from './client.js';
import { MIGRATIONS_FOLDER } from './migrate.js';

/**
 * A shop that ran before branches: its accounts, ledger, schemes, receipts and audit trail
 * move to the first branch, and its receipts keep the numbers printed on them.
 */
const adminUrl = inject('adminDatabaseUrl');
const name = `kanak_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
let database: Database;
let before: string;

const sql = async <T = Record<string, unknown>>(text: string, values?: unknown[]) =>
  (await database.pool.query(text, values)).rows as T[];

/** The migrations folder as it was before branches came. */
async function migrationsBeforeBranches() {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'kanak-migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith('_branches'));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

beforeAll(async () => {
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  database = connectDatabase(withDatabase(adminUrl, name), { max: 4 });
  before = await migrationsBeforeBranches();
  await migrate(database.db, { migrationsFolder: before });

  // What a shop had recorded: an account, a customer with a ledger row, a scheme with three
  // receipts (the counter at 3), and their audit rows.
  const [user] = await sql<{ id: number }>(
    `INSERT INTO users (username, password_hash, role, name) VALUES ('old', 'x', 'owner', 'Old') RETURNING id`,
  );
  const [customer] = await sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ('9811111111', 'Old Customer') RETURNING id`,
  );
  await sql(
    `INSERT INTO points_entries (customer_id, invdate, narration, credit, ts, created_by)
     VALUES ($1, '2025-05-01', 'Old sale', 10, 'M', $2)`,
    [customer!.id, user!.id],
  );
  const [scheme] = await sql<{ id: number }>(
    `INSERT INTO schemes (customer_id, startdt, matdt, amount, installments, status, created_by)
     VALUES ($1, '2025-05-01', '2026-04-30', 1000, 11, 'a', $2) RETURNING id`,
    [customer!.id, user!.id],
  );
  for (const [no, month] of [
    [1, '05'],
    [2, '06'],
    [3, '07'],
  ] as const) {
    await sql(
      `INSERT INTO scheme_installments (scheme_id, receipt_no, paid_on, period, amount, mode, created_by)
       VALUES ($1, $2, $3, $4, 1000, 'cash', $5)`,
      [scheme!.id, no, `2025-${month}-01`, `2025-${month}`, user!.id],
    );
  }
  await sql(`UPDATE receipt_counter SET last_no = 3`);
  await sql(
    `INSERT INTO audit_log (user_id, action, entity, entity_id) VALUES ($1, 'scheme.installment', 'scheme', $2), (NULL, 'user.add', 'user', $1)`,
    [user!.id, String(scheme!.id)],
  );
});

afterAll(async () => {
  await database?.close();
  await withClient(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  );
  if (before) await rm(before, { recursive: true, force: true });
});

describe('the branches migration', () => {
  it('gives every existing row the first branch, keeps receipt numbers, and continues its run', async () => {
    await migrate(database.db, { migrationsFolder: MIGRATIONS_FOLDER });

    expect(await sql(`SELECT id, code, name, address, phone FROM branches`)).toEqual([
      { id: 1, code: 'MAIN', name: 'Main showroom', address: '', phone: '' },
    ]);
    for (const table of ['users', 'points_entries', 'schemes', 'scheme_installments']) {
      expect(
        await sql(`SELECT DISTINCT branch_id FROM ${table}`),
        `${table} rows belong to the first branch`,
      ).toEqual([{ branch_id: 1 }]);
    }
    expect(
      await sql(`SELECT action, branch_id FROM audit_log ORDER BY id`),
      'staff changes belong to the first branch; the command line to none',
    ).toEqual([
      { action: 'scheme.installment', branch_id: 1 },
      { action: 'user.add', branch_id: null },
    ]);
    expect(
      await sql(
        `SELECT receipt_no::int AS receipt_no, receipt FROM scheme_installments ORDER BY 1`,
      ),
    ).toEqual([
      { receipt_no: 1, receipt: '1' },
      { receipt_no: 2, receipt: '2' },
      { receipt_no: 3, receipt: '3' },
    ]);
    expect(await sql(`SELECT branch_id, last_no::int AS last_no FROM receipt_counter`)).toEqual([
      { branch_id: 1, last_no: 3 },
    ]);

    // The first start fills the branch's address from SHOP_ADDRESS and SHOP_PHONE; the next
    // receipt continues the run with the branch's code, and the old ones read as before.
    const app = await buildApp({
      config: loadConfig({
        DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-app-')),
        LOG_LEVEL: 'silent',
        WEB_DIST: '/nonexistent',
        SHOP_ADDRESS: '7 Old Market Road, Pune 411002',
        SHOP_PHONE: '+91 20 2445 0000',
      }),
      db: database.db,
      pool: database.pool,
      secrets: TEST_SECRETS,
      clock: () => new Date('2025-08-05T12:00:00+05:30'),
    });
    try {
      await app.ready();
      expect(await sql(`SELECT address, phone FROM branches`)).toEqual([
        { address: '7 Old Market Road, Pune 411002', phone: '+91 20 2445 0000' },
      ]);
      const [user] = await sql<{ id: number }>(`SELECT id FROM users WHERE username = 'old'`);
      const token = app.signSessionToken({ id: user!.id, username: 'old', tokenVersion: 0 }, false);
      const [scheme] = await sql<{ id: number }>(`SELECT id FROM schemes`);
      const paid = await app.inject(
        authed(token, {
          method: 'POST',
          url: '/api/scheme/add-installment',
          payload: { schemeid: scheme!.id, date: '2025-08-01', mode: 'cash' },
        }),
      );
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().data).toMatchObject({
        receiptNo: 'MAIN-000004',
        branch: { code: 'MAIN', address: '7 Old Market Road, Pune 411002' },
      });
      const statement = await app.inject(
        authed(token, {
          method: 'POST',
          url: '/api/scheme/generate-statement',
          payload: { schemeid: scheme!.id },
        }),
      );
      expect(statement.json().data.map((row: { receiptNo: string }) => row.receiptNo)).toEqual([
        '1',
        '2',
        '3',
        'MAIN-000004',
      ]);
    } finally {
      await app.close();
    }
  });
});
