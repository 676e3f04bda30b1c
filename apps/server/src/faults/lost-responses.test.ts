import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AxiosInstance, AxiosResponse } from 'axios';
import pg from 'pg';
import { API_PATHS, API_PREFIX, IDEMPOTENCY_HEADER, MESSAGES } from '@kanak/contract';
import { createTestDatabase, lateEntryReason, type TestDatabase } from '../../test/helpers.js';
import {
  addCustomer,
  firstOfMonth,
  post,
  signIn,
  startServer,
  storeToday,
  tempDir,
  type ServerProcess,
} from '../../test/processes.js';
import { startDroppingProxy, type DroppingProxy } from '../../test/proxies.js';

/**
 * Lost answers: a proxy between the web app's own API client and a real server
 * process cuts off every third answer after the server has sent it in full. The client
 * retries with the same Idempotency-Key; the ledger and the installments must hold exactly
 * one row per call, and the balances must be exact.
 */

const DROP_EVERY = 3;
const POINTS_CUSTOMERS = 5;
const POINTS_CALLS_EACH = 40; // 200 update-points calls
const SCHEMES = 5;
const INSTALLMENTS_EACH = 10; // 50 add-installment calls (month 0 is the activation)
const SCHEME_AMOUNT = 5_000;

let db: TestDatabase;
let dir: ReturnType<typeof tempDir>;
let server: ServerProcess;
let proxy: DroppingProxy;
let api: AxiosInstance;
let token: string;

/** The browser storage the web client keeps its token in, for a test that runs in Node. */
class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key = (index: number) => [...this.items.keys()][index] ?? null;
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, String(value));
  removeItem = (key: string) => void this.items.delete(key);
  clear = () => this.items.clear();
}

/**
 * The web app's client module, loaded as the app loads it. The path is built at run time so
 * that the server's type check does not compile the web app's sources.
 */
async function loadWebClient(accessToken: string, baseURL: string) {
  Object.assign(globalThis, {
    window: { localStorage: new MemoryStorage(), sessionStorage: new MemoryStorage() },
  });
  const lib = new URL('../../../web/src/lib/', import.meta.url).pathname;
  const { storage } = (await import(`${lib}storage.ts`)) as {
    storage: { saveSession(session: object): void };
  };
  const client = (await import(`${lib}api.ts`)) as { api: AxiosInstance };
  storage.saveSession({ accessToken, user: 'admin', stayLoggedIn: false });
  client.api.defaults.baseURL = baseURL;
  return client.api;
}

/** A small deterministic random source, so every run makes the same calls. */
function seeded(seed: number) {
  return () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
}

interface Call {
  narration: string;
  path: string;
  body: object;
}

interface Outcome {
  call: Call;
  key: string;
  ok: boolean;
  detail: string;
}

/** Credits and deductions for one customer; a deduction never exceeds the balance so far. */
function pointsCalls(mobileno: string, index: number, random: () => number) {
  const calls: Call[] = [];
  let balance = 0;
  for (let i = 0; i < POINTS_CALLS_EACH; i++) {
    const deduct = balance > 0 && random() < 0.4;
    const points = deduct
      ? 1 + Math.floor(random() * Math.min(balance, 300))
      : 1 + Math.floor(random() * 500);
    balance += deduct ? -points : points;
    const narration = `lost-answer p${index}-${i}`;
    calls.push({
      narration,
      path: API_PATHS.updatePoints,
      body: {
        formData: {
          MOBILENO: mobileno,
          POINTS: String(points),
          CASHCR: deduct ? 'DB' : 'CR',
          INVDATE: storeToday(),
          NARRATION: narration,
        },
      },
    });
  }
  return { calls, balance };
}

/** One call through the web client; the key is the one its interceptor chose. */
async function send(call: Call): Promise<Outcome> {
  try {
    const response: AxiosResponse<{ success: boolean; message?: string }> = await api.post(
      call.path,
      call.body,
    );
    const key = String(response.config.headers.get(IDEMPOTENCY_HEADER));
    return { call, key, ok: response.data.success === true, detail: String(response.data.message) };
  } catch (error) {
    const { config, response, code } = error as {
      config?: { headers: { get(name: string): unknown } };
      response?: { status: number; data: unknown };
      code?: string;
    };
    const key = String(config?.headers.get(IDEMPOTENCY_HEADER));
    const detail = response ? `HTTP ${response.status} ${JSON.stringify(response.data)}` : code;
    return { call, key, ok: false, detail: String(detail) };
  }
}

/** Each list runs in order (a customer's deductions rely on its credits); lists run side by side. */
async function runSideBySide(lists: Call[][]) {
  const outcomes = await Promise.all(
    lists.map(async (calls) => {
      const done: Outcome[] = [];
      for (const call of calls) done.push(await send(call));
      return done;
    }),
  );
  return outcomes.flat();
}

const pointsCustomers: { mobileno: string; expected: number; calls: Call[] }[] = [];
const schemeIds: number[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dir = tempDir('kanak-fault-lost-');
  server = await startServer({ dataDir: dir.path, env: { DATABASE_URL: db.url } });
  token = await signIn(server.url);
  proxy = await startDroppingProxy(server.url, { drop: (n) => n % DROP_EVERY === 0 });
  api = await loadWebClient(token, `${proxy.url}${API_PREFIX}`);

  // Setup goes straight to the server: only the calls under test pass the proxy.
  const random = seeded(1928);
  for (let c = 0; c < POINTS_CUSTOMERS; c++) {
    const mobileno = `90000000${String(c).padStart(2, '0')}`;
    await addCustomer(server.url, token, mobileno, `Points Customer ${c}`);
    const { calls, balance } = pointsCalls(mobileno, c, random);
    pointsCustomers.push({ mobileno, calls, expected: balance });
  }
  const startdt = firstOfMonth(-INSTALLMENTS_EACH);
  for (let s = 0; s < SCHEMES; s++) {
    const mobileno = `91000000${String(s).padStart(2, '0')}`;
    const custid = await addCustomer(server.url, token, mobileno, `Scheme Customer ${s}`);
    const generated = await post<{ data: { schemeid: number } }>(
      server.url,
      API_PATHS.generateScheme,
      { custid, mobileno, startdt, amount: SCHEME_AMOUNT, ...lateEntryReason(startdt) },
      { token },
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const schemeid = generated.body.data.schemeid;
    const activated = await post(
      server.url,
      API_PATHS.activateScheme,
      {
        schemeid,
        date: startdt,
        mode: 'upi',
        reference: `UPI-${s}-0`,
        ...lateEntryReason(startdt),
      },
      { token },
    );
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    schemeIds.push(schemeid);
  }
}, 90_000);

afterAll(async () => {
  await proxy?.close();
  await server?.stop();
  await db?.drop();
  dir?.remove();
});

describe('answers lost on the way back to the web client', () => {
  it('leaves exactly one ledger entry and one installment per call, and exact balances', async () => {
    const installmentCalls = schemeIds.map((schemeid, s) =>
      Array.from({ length: INSTALLMENTS_EACH }, (_, i): Call => {
        const narration = `lost-answer s${s}-${i + 1}`;
        return {
          narration,
          path: API_PATHS.addInstallment,
          body: {
            schemeid,
            date: firstOfMonth(-INSTALLMENTS_EACH + i + 1),
            mode: 'upi',
            reference: `UPI-${s}-${i + 1}`,
            narration,
            ...lateEntryReason(firstOfMonth(-INSTALLMENTS_EACH + i + 1)),
          },
        };
      }),
    );
    const outcomes = await runSideBySide([
      ...pointsCustomers.map((customer) => customer.calls),
      ...installmentCalls,
    ]);
    expect(outcomes).toHaveLength(
      POINTS_CUSTOMERS * POINTS_CALLS_EACH + SCHEMES * INSTALLMENTS_EACH,
    );

    // The faults really happened: answers were cut off and the client retried with the same key.
    const retriedKeys = [...proxy.stats.attemptsByKey.values()].filter((n) => n > 1).length;
    expect(proxy.stats.dropped).toBeGreaterThan(50);
    expect(retriedKeys).toBeGreaterThan(50);
    expect(proxy.stats.replayed).toBeGreaterThan(50);

    // A call the client reports as failed is acceptable only if every one of its attempts lost
    // its answer (the client gives up after its retries); anything else is a product fault.
    const failed = outcomes.filter((outcome) => !outcome.ok);
    const unexplained = failed.filter(
      (outcome) =>
        proxy.stats.droppedByKey.get(outcome.key) !== proxy.stats.attemptsByKey.get(outcome.key),
    );
    expect(unexplained.map((o) => `${o.call.narration}: ${o.detail}`)).toEqual([]);
    console.info(
      `lost-responses: ${proxy.stats.requests} requests, ${proxy.stats.dropped} answers cut ` +
        `off, ${retriedKeys} calls retried, ${proxy.stats.replayed} replayed answers; ` +
        `${failed.length} call(s) lost every answer and reported a network error to the ` +
        `client, though the server made the change: ` +
        (failed.map((o) => o.call.narration).join(', ') || 'none'),
    );
    const succeeded = outcomes.filter((outcome) => outcome.ok);
    for (const outcome of succeeded.filter((o) => o.call.path === API_PATHS.updatePoints)) {
      expect(outcome.detail).toBe(MESSAGES.pointsUpdated);
    }

    // The truth is in the database: every call's entry exactly once, nothing else.
    const entries = await db.sql<{ narration: string; copies: number }>(
      `SELECT narration, count(*)::int AS copies FROM points_entries GROUP BY narration`,
    );
    const pointsNarrations = pointsCustomers.flatMap((c) => c.calls.map((call) => call.narration));
    expect(entries.filter((e) => e.copies !== 1)).toEqual([]);
    expect(entries.map((e) => e.narration).sort()).toEqual([...pointsNarrations].sort());

    const balances = await db.sql<{ mobileno: string; balance: number; ledger: number }>(
      `SELECT c.mobileno, a.balance,
              coalesce(sum(e.credit - e.debit), 0)::bigint AS ledger
         FROM customers c JOIN points_accounts a ON a.customer_id = c.id
         LEFT JOIN points_entries e ON e.customer_id = c.id
        GROUP BY c.id, a.balance ORDER BY c.mobileno`,
    );
    for (const customer of pointsCustomers) {
      const row = balances.find((b) => b.mobileno === customer.mobileno);
      expect(row, customer.mobileno).toEqual({
        mobileno: customer.mobileno,
        balance: customer.expected,
        ledger: customer.expected,
      });
    }

    const [audit] = await db.sql<{ missing: number }>(
      `SELECT count(*)::int AS missing FROM points_entries e
        WHERE (SELECT count(*) FROM audit_log a
                WHERE a.entity = 'points_entry' AND a.entity_id = e.mrn::text) <> 1`,
    );
    expect(audit!.missing).toBe(0);

    const installments = await db.sql<{ narration: string; copies: number }>(
      `SELECT narration, count(*)::int AS copies FROM scheme_installments
        WHERE narration <> '' GROUP BY narration`,
    );
    expect(installments.filter((i) => i.copies !== 1)).toEqual([]);
    expect(installments.map((i) => i.narration).sort()).toEqual(
      installmentCalls
        .flat()
        .map((call) => call.narration)
        .sort(),
    );
    const [receipts] = await db.sql<{ count: number; distinct: number; span: number }>(
      `SELECT count(*)::int AS count, count(DISTINCT receipt_no)::int AS distinct,
              (max(receipt_no) - min(receipt_no) + 1)::int AS span
         FROM scheme_installments`,
    );
    // 5 activations and 50 installments: receipt numbers without a gap or a repeat.
    expect(receipts).toEqual({
      count: SCHEMES * (INSTALLMENTS_EACH + 1),
      distinct: SCHEMES * (INSTALLMENTS_EACH + 1),
      span: SCHEMES * (INSTALLMENTS_EACH + 1),
    });
    const perScheme = await db.sql<{ paid: number }>(
      `SELECT count(*)::int AS paid FROM scheme_installments GROUP BY scheme_id`,
    );
    expect(perScheme.map((row) => row.paid)).toEqual(Array(SCHEMES).fill(INSTALLMENTS_EACH + 1));
  }, 60_000);

  it('answers a retry that meets the first attempt still at work with the first answer', async () => {
    // The connection breaks while the server waits for the customer's row, which the test
    // holds locked: the client's retry finds the first attempt "in progress".
    const mobileno = '9100000099';
    await addCustomer(server.url, token, mobileno, 'Slow Customer');
    const slowProxy = await startDroppingProxy(server.url, {
      drop: (n) => n === 1,
      beforeAnswer: true,
    });
    api.defaults.baseURL = `${slowProxy.url}${API_PREFIX}`;
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM customers WHERE mobileno = $1 FOR UPDATE', [mobileno]);
      const narration = 'lost-answer slow';
      const pending = send({
        narration,
        path: API_PATHS.updatePoints,
        body: {
          formData: {
            MOBILENO: mobileno,
            POINTS: '50',
            CASHCR: 'CR',
            INVDATE: storeToday(),
            NARRATION: narration,
          },
        },
      });
      await sleep(700);
      await holder.query('COMMIT');
      const outcome = await pending;

      // The client reports what happened: the change was made, once.
      expect(outcome).toMatchObject({ ok: true, detail: MESSAGES.pointsUpdated });
      expect(slowProxy.stats.dropped).toBe(1);
      expect(slowProxy.stats.attemptsByKey.get(outcome.key)).toBeGreaterThan(2);
      const rows = await db.sql<{ credit: number; balance: number }>(
        `SELECT e.credit, a.balance
           FROM points_entries e JOIN points_accounts a ON a.customer_id = e.customer_id
          WHERE e.narration = $1`,
        [narration],
      );
      expect(rows).toEqual([{ credit: 50, balance: 50 }]);
    } finally {
      await holder.end();
      await slowProxy.close();
      api.defaults.baseURL = `${proxy.url}${API_PREFIX}`;
    }
  }, 30_000);
});
