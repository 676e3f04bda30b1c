import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, API_PREFIX } from '@kanak/contract';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.js';
import {
  post,
  signIn,
  startServer,
  storeToday,
  tempDir,
  type ServerProcess,
} from '../../test/processes.js';
import { startDroppingProxy, type DroppingProxy } from '../../test/proxies.js';

/**
 * Lost answers at the counter: a proxy between a billing system (POS) and a real server
 * process cuts off every third answer after the server has sent it in full. The POS sends the
 * same document again until it hears an answer; each invoice, return and redemption must be
 * in the ledger exactly once, with the balances exact.
 */

const CUSTOMERS = 4;
const SALES_EACH = 10;

let db: TestDatabase;
let dir: ReturnType<typeof tempDir>;
let server: ServerProcess;
let proxy: DroppingProxy;
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = tempDir('kanak-pos-lost-');
  server = await startServer({ dataDir: dir.path, env: { DATABASE_URL: db.url, JOBS: 'off' } });
  const token = await signIn(server.url);
  const made = await post<{ data: { key: string } }>(
    server.url,
    API_PATHS.apiKeys,
    { label: 'Lossy counter', branch: 'MAIN' },
    { token },
  );
  key = made.body.data.key;
  proxy = await startDroppingProxy(server.url, { drop: (n) => n % 3 === 0 });
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
  await db?.drop();
  dir?.remove();
});

/** The POS's own retry: the same document again until an answer arrives. */
async function send(path: string, body: object) {
  for (let attempt = 1; attempt <= 10; attempt++) {
    try {
      const response = await fetch(`${proxy.url}${API_PREFIX}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { data: never } };
    } catch {
      // The answer was lost: send the same document again.
    }
  }
  throw new Error(`no answer to ${path} after 10 attempts`);
}

describe('lost answers to the POS', () => {
  it('post each sale, return and redemption once however often it is sent', async () => {
    const today = storeToday();
    await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, c) => {
        const mobile = `98765${String(c).padStart(5, '0')}`;
        for (let s = 0; s < SALES_EACH; s++) {
          const answer = await send(API_PATHS.posSales, {
            invoiceNo: `L-${c}-${s}`,
            invoiceDate: today,
            mobile,
            name: `Lossy ${c}`,
            lines: [{ description: 'Chain', category: 'gold', amount: 10_000 }],
          });
          expect(answer.status).toBe(200);
        }
        const returned = await send(API_PATHS.posReturns, {
          returnNo: `LR-${c}`,
          invoiceNo: `L-${c}-0`,
          returnDate: today,
          lines: [{ description: 'Chain', category: 'gold', amount: 5_000 }],
        });
        expect(returned.body.data).toMatchObject({ points: 50, unrecovered: 0 });
        const redeemed = await send(API_PATHS.posRedemptions, {
          invoiceNo: `LD-${c}`,
          mobile,
          points: 200,
        });
        expect(redeemed.status).toBe(200);
        expect(redeemed.body.data).toMatchObject({ points: 200 });
      }),
    );
    expect(proxy.stats.dropped).toBeGreaterThan(10);
    const counts = await db.sql<{ ts: string; n: number }>(
      `SELECT ts, count(*)::int AS n FROM points_entries GROUP BY ts ORDER BY ts`,
    );
    expect(counts).toEqual([
      { ts: 'R', n: CUSTOMERS },
      { ts: 'S', n: CUSTOMERS * SALES_EACH },
      { ts: 'X', n: CUSTOMERS },
    ]);
    const balances = await db.sql<{ b: number }>(
      `SELECT a.balance::int AS b FROM customers c JOIN points_accounts a ON a.customer_id = c.id
        ORDER BY c.mobileno`,
    );
    expect(balances).toEqual(Array(CUSTOMERS).fill({ b: SALES_EACH * 100 - 50 - 200 }));
  }, 120_000);
});
