import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUser,
  appOnDatabase,
  authed,
  createTestDatabase,
  login,
  pointsBalance,
  TEST_SECRETS,
  type TestDatabase,
} from '../../test/helpers.js';
import { connectDatabase, type Database } from '../db/client.js';
import { expireDueLots } from '../modules/points/points.expiry.js';

/**
 * `npm run check-ledger` run for real, as a child process on a database of its own: it passes
 * after every kind of posting (staff credits, debits and edits, a counter's sale, return,
 * redemption and its cancel, the expiry) and on the demo data, and fails, naming the customer,
 * once a balance or a lot is changed behind the ledger's back.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Today is 15 June 2025 in Kolkata. */
const now = new Date('2025-06-15T12:00:00+05:30');

async function run(script: string, url: string, args: string[] = []) {
  const env = {
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-check-')),
    JWT_SECRET: TEST_SECRETS.jwtSecret,
    DATA_KEY: TEST_SECRETS.dataKey,
  };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'npx',
      ['tsx', '--conditions=@kanak/source', path.join('apps/server/src/cli', script), ...args],
      { cwd: ROOT, env, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
const checkLedger = (url: string) => run('check-ledger.ts', url);

describe('npm run check-ledger, after every kind of posting', () => {
  let database: TestDatabase;
  let connection: Database;
  let app: FastifyInstance;
  let owner: string;
  let posKey: string;

  const staff = (url: string, payload: unknown) =>
    app.inject(
      authed(owner, { method: 'POST', url, payload: payload as InjectOptions['payload'] }),
    );
  const pos = (url: string, payload: unknown) =>
    app.inject({
      method: 'POST',
      url,
      payload: payload as InjectOptions['payload'],
      headers: { 'x-api-key': posKey },
    });
  const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
    const done = await response;
    expect(done.statusCode, done.body).toBe(200);
    return done;
  };
  const points = (MOBILENO: string, CASHCR: 'CR' | 'DB', POINTS: number, INVDATE = '2025-06-01') =>
    ok(
      staff('/api/customers/update-points', {
        formData: { MOBILENO, POINTS: String(POINTS), INVDATE, CASHCR, NARRATION: '' },
      }),
    );
  const idOf = async (mobile: string) =>
    (
      await database.sql<{ id: number }>(`SELECT id FROM customers WHERE mobileno = $1`, [mobile])
    )[0]!.id;

  beforeAll(async () => {
    database = await createTestDatabase();
    connection = connectDatabase(database.url, { max: 4 });
    app = await appOnDatabase(connection, {}, () => now);
    const ctx = {
      app,
      database: connection,
      sql: async (text: string, values?: unknown[]) =>
        (await connection.pool.query(text, values)).rows,
      close: async () => {},
    };
    await addUser(ctx, 'owner1', 'Kanak@1928x', 'owner');
    owner = await login(ctx, 'owner1', 'Kanak@1928x');
    const made = await ok(staff('/api/settings/api-keys', { label: 'Counter 1' }));
    posKey = JSON.parse(made.body).data.key;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await connection?.close();
    await database?.drop();
  });

  it('passes on an empty database', async () => {
    const result = await checkLedger(database.url);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toMatch(/^Points books agree: 0 customers, 0 points held/);
  }, 60_000);

  it('passes after credits, debits, edits, moves, sales, returns, redemptions, cancels and the expiry', async () => {
    // A counter's sales, one old enough that its lot has expired by today.
    const [asha, bina] = ['9810000001', '9810000002'];
    const sale = (invoiceNo: string, mobile: string, invoiceDate: string, amount: number) =>
      ok(
        pos('/api/pos/sales', {
          invoiceNo,
          invoiceDate,
          mobile,
          name: 'Asha Rao',
          lines: [
            { description: 'Ring', category: 'gold', amount },
            { description: 'Coin', category: 'coin', amount: 5000 },
          ],
        }),
      );
    await sale('S-1', asha, '2023-06-01', 30_000); // 300 points, expired on 2025-06-01
    await sale('S-2', asha, '2025-06-02', 20_000); // 200 points
    await sale('S-3', bina, '2025-06-03', 15_000); // 150 points
    // A return takes back from its own invoice's lot.
    await ok(
      pos('/api/pos/returns', {
        returnNo: 'X-1',
        invoiceNo: 'S-2',
        returnDate: '2025-06-10',
        lines: [{ description: 'Ring', category: 'gold', amount: 5000 }],
      }),
    );
    // A redemption and a cancelled one.
    await ok(pos('/api/pos/redemptions', { invoiceNo: 'R-1', mobile: asha, points: 120 }));
    await ok(pos('/api/pos/redemptions', { invoiceNo: 'R-2', mobile: bina, points: 100 }));
    await ok(pos('/api/pos/redemptions/cancel', { invoiceNo: 'R-2' }));
    // Staff credits and debits.
    await points(asha, 'CR', 80, '2025-06-05');
    await points(bina, 'DB', 30, '2025-06-06');
    await points(bina, 'CR', 40, '2025-06-07');
    // Edits: a credit grown, a debit moved to the other customer, a credit turned into a debit.
    const manual = await database.sql<{
      mrn: number;
      credit: number;
      debit: number;
      mobileno: string;
    }>(
      `SELECT e.mrn, e.credit, e.debit, c.mobileno FROM points_entries e
         JOIN customers c ON c.id = e.customer_id WHERE e.ts = 'M' ORDER BY e.mrn`,
    );
    const edit = (mrn: number, MOBILENO: string, CASHCR: 'CR' | 'DB', POINTS: number) =>
      ok(
        staff('/api/customers/update-statement', {
          formData: {
            MRN: mrn,
            MOBILENO,
            POINTS: String(POINTS),
            INVDATE: '2025-06-08',
            CASHCR,
            NARRATION: '',
          },
        }),
      );
    await edit(manual[0]!.mrn, asha, 'CR', 90);
    await edit(manual[1]!.mrn, asha, 'DB', 10);
    await edit(manual[2]!.mrn, bina, 'DB', 5);
    // The expiry of the lots due by today.
    const expired = await expireDueLots({ db: connection.db }, '2025-06-15');
    expect(expired.lots).toBeGreaterThanOrEqual(1);

    const kinds = await database.sql<{ ts: string }>(
      `SELECT DISTINCT ts FROM points_entries ORDER BY ts`,
    );
    expect(kinds.map((row) => row.ts)).toEqual(['E', 'M', 'R', 'S', 'X']);
    const result = await checkLedger(database.url);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stdout).toMatch(/^Points books agree: 2 customers, \d+ points held/);
  }, 120_000);

  it('fails, naming the customer and the three figures, when a balance is changed behind the ledger', async () => {
    const asha = await idOf('9810000001');
    const held = (await pointsBalance(database, asha))!;
    await database.sql(
      `UPDATE points_accounts SET balance = balance + 500 WHERE customer_id = $1`,
      [asha],
    );
    try {
      const result = await checkLedger(database.url);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`\n${asha}\t${held + 500}\t${held}\t${held}\t0\n`);
      expect(result.stdout).toMatch(/Points books disagree for 1 of 2 customers/);
      // The customer's mobile number is personal data: never printed.
      expect(result.stdout).not.toContain('9810000001');
    } finally {
      await database.sql(
        `UPDATE points_accounts SET balance = balance - 500 WHERE customer_id = $1`,
        [asha],
      );
    }
    expect((await checkLedger(database.url)).code).toBe(0);
  }, 120_000);

  it('fails when a lot is taken beyond what it holds, or a debit takes more than it is', async () => {
    const bina = await idOf('9810000002');
    // A lot given back more than it was ever given.
    const [lot] = await database.sql<{ id: number }>(
      `SELECT id FROM points_lots WHERE customer_id = $1 ORDER BY id LIMIT 1`,
      [bina],
    );
    await database.sql(`UPDATE points_lots SET remaining = points + 1 WHERE id = $1`, [lot!.id]);
    const result = await checkLedger(database.url);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`\\n${bina}\\t\\d+\\t\\d+\\t\\d+\\t1\\n`));
    expect(result.stdout).toMatch(/Points books disagree for 1 of 2 customers/);

    // A debit's takes from the lots adding up to more than the debit.
    const [take] = await database.sql<{ id: number }>(
      `SELECT t.id FROM points_lot_takes t JOIN points_entries e ON e.mrn = t.entry_mrn
        WHERE e.customer_id = $1 ORDER BY t.id LIMIT 1`,
      [await idOf('9810000001')],
    );
    expect(take).toBeDefined();
    await database.sql(`UPDATE points_lot_takes SET points = points + 1000 WHERE id = $1`, [
      take!.id,
    ]);
    const both = await checkLedger(database.url);
    expect(both.code).toBe(1);
    expect(both.stdout).toMatch(/Points books disagree for 2 of 2 customers/);
  }, 120_000);
});

describe('npm run check-ledger on the demo data', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    const seeded = await run('seed-demo.ts', database.url);
    expect(seeded.code, seeded.stderr).toBe(0);
  }, 180_000);
  afterAll(() => database?.drop());

  it('passes', async () => {
    const result = await checkLedger(database.url);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stdout).toMatch(/^Points books agree: 300 customers, \d+ points held/);
  }, 120_000);
});
