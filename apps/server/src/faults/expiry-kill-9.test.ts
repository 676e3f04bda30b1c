import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../db/client.js';
import { expireDueLots } from '../modules/points/points.expiry.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.js';
import { REPO_ROOT } from '../../test/processes.js';

/**
 * `kill -9` during the points expiry: a process expiring thousands of due lots is killed
 * outright midway. A rerun must finish the work: every due lot expired exactly once (one E row
 * each), the balances equal to the ledger and to the lots, none below zero.
 */

const CUSTOMERS = 5_000;
const LOTS_EACH = 3; // two due, one not

let database: TestDatabase;
let connection: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = connectDatabase(database.url, { max: 4 });
  await database.sql(`
    INSERT INTO customers (mobileno, custname)
    SELECT (9000000000 + n)::text, 'Expiry ' || n FROM generate_series(1, ${CUSTOMERS}) n`);
  await database.sql(`UPDATE points_accounts SET balance = ${LOTS_EACH * 10}`);
  await database.sql(`
    INSERT INTO points_entries (customer_id, invdate, narration, credit, ts)
    SELECT c.id, date '2023-01-01' + k, 'Credit ' || k, 10, 'M'
      FROM customers c, generate_series(1, ${LOTS_EACH}) k`);
  await database.sql(`
    INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
    SELECT e.customer_id, e.mrn, e.invdate,
           CASE WHEN e.narration = 'Credit ${LOTS_EACH}' THEN NULL ELSE e.invdate + 700 END, 10, 10
      FROM points_entries e`);
});
afterAll(async () => {
  await connection.close();
  await database.drop();
});

const count = async (sql: string) => Number((await database.sql<{ n: string }>(sql))[0]!.n);

describe('kill -9 during the points expiry', () => {
  it('leaves whole batches only; a rerun finishes, nothing expired twice, the books agree', async () => {
    const script = `
      import { connectDatabase } from './apps/server/src/db/client.ts';
      import { expireDueLots } from './apps/server/src/modules/points/points.expiry.ts';
      const { db } = connectDatabase(process.env.URL, { max: 2 });
      await expireDueLots({ db }, '2025-06-15');`;
    const child = spawn(
      process.execPath,
      ['--conditions=@kanak/source', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: REPO_ROOT, env: { ...process.env, URL: database.url }, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed once some batches are in, well before all are.
    for (const until = Date.now() + 60_000; Date.now() < until;) {
      if ((await count(`SELECT count(*) AS n FROM points_entries WHERE ts = 'E'`)) >= 400) break;
      await sleep(10);
    }
    child.kill('SIGKILL');
    await exited;
    const midway = await count(`SELECT count(*) AS n FROM points_entries WHERE ts = 'E'`);
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(CUSTOMERS * 2);

    const rest = await expireDueLots({ db: connection.db }, '2025-06-15');
    expect(rest.lots).toBe(CUSTOMERS * 2 - midway);
    expect(await count(`SELECT count(*) AS n FROM points_entries WHERE ts = 'E'`)).toBe(
      CUSTOMERS * 2,
    );
    // One E row per lot, never two: each of the customer's two due lots, once.
    expect(
      await count(`SELECT count(*) AS n FROM (SELECT customer_id FROM points_entries WHERE ts = 'E'
                    GROUP BY customer_id HAVING count(*) <> 2 OR sum(debit) <> 20) odd`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM customers c JOIN points_accounts a ON a.customer_id = c.id
         WHERE balance <> 10
            OR balance <> (SELECT sum(credit - debit) FROM points_entries e WHERE e.customer_id = c.id)
            OR balance <> (SELECT sum(remaining) FROM points_lots l WHERE l.customer_id = c.id)`),
    ).toBe(0);
    expect(await expireDueLots({ db: connection.db }, '2025-06-15')).toEqual({
      lots: 0,
      points: 0,
    });
  }, 120_000);
});
