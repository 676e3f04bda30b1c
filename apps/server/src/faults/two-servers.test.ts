import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, API_PREFIX, LIMITS, MESSAGES } from '@kanak/contract';
import { connectDatabase } from '../db/client.js';
import { createUsersService } from '../modules/users/users.service.js';
import { lateEntryReason, createTestDatabase, type TestDatabase } from '../../test/helpers.js';
import {
  addCustomer,
  firstOfMonth,
  post,
  signIn,
  startServer,
  storeToday,
  tempDir,
  type Answer,
  type ServerProcess,
} from '../../test/processes.js';

/**
 * Two instances: two server processes on one database take mixed concurrent
 * load. The rules that the database enforces must hold across both: no overdraw, never two
 * Inactive schemes for a customer, one installment per month with gapless receipts, a
 * sign-in lockout counted across both, one per-address sign-in limit and one set of export
 * slots for both. Both stand behind a load balancer (TRUST_PROXY): a client's address comes
 * from X-Forwarded-For.
 */

const ALLOWED_DEDUCTIONS = 10;
const DEDUCTION = 100;
const DEDUCTION_ATTEMPTS = 30;
const SCHEME_CUSTOMERS = 3;
const GENERATE_ATTEMPTS_EACH = 6;
/** Customer exports streamed at once in the whole chain (customers.export.ts). */
const EXPORTS_AT_ONCE = 4;

let db: TestDatabase;
let dirs: ReturnType<typeof tempDir>[] = [];
let servers: ServerProcess[] = [];
const tokens: string[] = [];

/** Sends the i-th of many calls to one server or the other, alternately. */
const through = (i: number) => ({ url: servers[i % 2]!.url, token: tokens[i % 2]! });

beforeAll(async () => {
  db = await createTestDatabase();
  dirs = [tempDir('kanak-fault-two-a-'), tempDir('kanak-fault-two-b-')];
  // Both start at once, as two instances deployed together do (migrations, first admin).
  servers = await Promise.all(
    dirs.map((dir) =>
      startServer({ dataDir: dir.path, env: { DATABASE_URL: db.url, TRUST_PROXY: 'true' } }),
    ),
  );
  for (const server of servers) tokens.push(await signIn(server.url));
}, 90_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.drop();
  for (const dir of dirs) dir.remove();
});

const statusesOf = (answers: Answer[]) => answers.map((answer) => answer.status);

/** Deductions racing on one customer whose balance covers only ALLOWED_DEDUCTIONS of them. */
async function raceDeductions() {
  const mobileno = '9300000001';
  await addCustomer(servers[0]!.url, tokens[0]!, mobileno, 'Racing Deductions');
  const credit = await post(
    servers[1]!.url,
    API_PATHS.updatePoints,
    {
      formData: {
        MOBILENO: mobileno,
        POINTS: String(ALLOWED_DEDUCTIONS * DEDUCTION),
        CASHCR: 'CR',
        INVDATE: storeToday(),
      },
    },
    { token: tokens[1] },
  );
  expect(credit.status).toBe(200);
  const answers = await Promise.all(
    Array.from({ length: DEDUCTION_ATTEMPTS }, (_, i) =>
      post(
        through(i).url,
        API_PATHS.updatePoints,
        {
          formData: {
            MOBILENO: mobileno,
            POINTS: String(DEDUCTION),
            CASHCR: 'DB',
            INVDATE: storeToday(),
            NARRATION: `race ${i}`,
          },
        },
        { token: through(i).token },
      ),
    ),
  );
  return { mobileno, answers };
}

/** Each customer asks both servers at once for a new scheme, several times over. */
async function raceGenerates() {
  const customers = [];
  for (let c = 0; c < SCHEME_CUSTOMERS; c++) {
    const mobileno = `930000010${c}`;
    const custid = await addCustomer(servers[c % 2]!.url, tokens[c % 2]!, mobileno, `Gen ${c}`);
    customers.push({ custid, mobileno });
  }
  const answers = await Promise.all(
    customers.flatMap(({ custid, mobileno }) =>
      Array.from({ length: GENERATE_ATTEMPTS_EACH }, (_, i) =>
        post<{ data?: { schemeid: number } }>(
          through(i).url,
          API_PATHS.generateScheme,
          {
            custid,
            mobileno,
            startdt: firstOfMonth(-3),
            amount: 2_000,
            ...lateEntryReason(firstOfMonth(-3)),
          },
          { token: through(i).token },
        ),
      ),
    ),
  );
  return { customers, answers };
}

/**
 * An active scheme takes installments through both servers at once: the same month twice
 * (one must be refused) and three other months (all recorded).
 */
async function raceInstallments() {
  const mobileno = '9300000200';
  const custid = await addCustomer(servers[1]!.url, tokens[1]!, mobileno, 'Installments');
  const generated = await post<{ data: { schemeid: number } }>(
    servers[0]!.url,
    API_PATHS.generateScheme,
    {
      custid,
      mobileno,
      startdt: firstOfMonth(-5),
      amount: 3_000,
      ...lateEntryReason(firstOfMonth(-5)),
    },
    { token: tokens[0] },
  );
  const schemeid = generated.body.data.schemeid;
  const payment = (month: number, reference: string) => ({
    schemeid,
    date: firstOfMonth(month),
    mode: 'card',
    reference,
    ...lateEntryReason(firstOfMonth(month)),
  });
  // Activation raced through both: one first installment, the other refused.
  const activations = await Promise.all(
    [0, 1].map((i) =>
      post(through(i).url, API_PATHS.activateScheme, payment(-5, `act ${i}`), {
        token: through(i).token,
      }),
    ),
  );
  const installments = await Promise.all(
    [
      payment(-4, 'same month A'),
      payment(-4, 'same month B'),
      payment(-3, 'month -3'),
      payment(-2, 'month -2'),
      payment(-1, 'month -1'),
    ].map((body, i) =>
      post(through(i).url, API_PATHS.addInstallment, body, { token: through(i).token }),
    ),
  );
  return { schemeid, activations, installments };
}

describe('two server processes on one database', () => {
  it('hold balances and scheme rules under mixed concurrent load', async () => {
    const [deductions, generates, installments] = await Promise.all([
      raceDeductions(),
      raceGenerates(),
      raceInstallments(),
    ]);

    // Exactly the deductions the balance allows; the rest refused with the balance left.
    const deducted = deductions.answers.filter((answer) => answer.status === 200);
    const refused = deductions.answers.filter((answer) => answer.status !== 200);
    expect(deducted).toHaveLength(ALLOWED_DEDUCTIONS);
    for (const answer of refused) {
      expect(answer).toEqual({
        status: 409,
        body: { success: false, message: MESSAGES.insufficientPoints(0) },
      });
    }
    const [customer] = await db.sql<{ balance: number; ledger: number }>(
      `SELECT a.balance, sum(e.credit - e.debit)::bigint AS ledger
         FROM customers c JOIN points_accounts a ON a.customer_id = c.id
         JOIN points_entries e ON e.customer_id = c.id
        WHERE c.mobileno = $1 GROUP BY c.id, a.balance`,
      [deductions.mobileno],
    );
    expect(customer).toEqual({ balance: 0, ledger: 0 });

    // One scheme per customer, whichever server won; every other attempt refused by rule.
    for (const { custid } of generates.customers) {
      const [row] = await db.sql<{ inactive: number; total: number }>(
        `SELECT count(*) FILTER (WHERE status = 'n')::int AS inactive, count(*)::int AS total
           FROM schemes WHERE customer_id = $1`,
        [custid],
      );
      expect(row).toEqual({ inactive: 1, total: 1 });
    }
    expect(statusesOf(generates.answers).filter((status) => status === 200)).toHaveLength(
      SCHEME_CUSTOMERS,
    );
    for (const answer of generates.answers.filter((a) => a.status !== 200)) {
      expect(answer).toEqual({
        status: 409,
        body: { success: false, message: MESSAGES.previousSchemePending },
      });
    }

    expect(statusesOf(installments.activations).sort()).toEqual([200, 409]);
    const refusedActivation = installments.activations.find((a) => a.status === 409)!;
    expect(refusedActivation.body.message).toBe(MESSAGES.onlyInactiveActivatable);
    const [sameA, sameB, ...otherMonths] = installments.installments;
    expect(statusesOf([sameA!, sameB!]).sort()).toEqual([200, 409]);
    expect(statusesOf(otherMonths)).toEqual([200, 200, 200]);
    const paid = await db.sql<{ period: string }>(
      `SELECT period FROM scheme_installments WHERE scheme_id = $1 ORDER BY period`,
      [installments.schemeid],
    );
    expect(paid.map((row) => row.period)).toEqual(
      [-5, -4, -3, -2, -1].map((month) => firstOfMonth(month).slice(0, 7)),
    );
    const [receipts] = await db.sql<{ count: number; span: number }>(
      `SELECT count(DISTINCT receipt_no)::int AS count,
              (max(receipt_no) - min(receipt_no) + 1)::int AS span FROM scheme_installments`,
    );
    expect(receipts).toEqual({ count: 5, span: 5 });

    // Nowhere a negative balance or a ledger that disagrees with it.
    const [drift] = await db.sql<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM customers c JOIN points_accounts a ON a.customer_id = c.id
        WHERE a.balance < 0 OR a.balance <>
              (SELECT coalesce(sum(credit - debit), 0) FROM points_entries WHERE customer_id = c.id)`,
    );
    expect(drift!.bad).toBe(0);
  }, 60_000);

  it('counts failed sign-ins across both servers and locks the address out of the user on both', async () => {
    const database = connectDatabase(db.url, { max: 1 });
    try {
      await createUsersService({ db: database.db }).addUser(null, 'lakshmi', 'Lakshmi@1928');
    } finally {
      await database.close();
    }
    const attempt = (
      server: number,
      PASSWORD: string,
      options?: { headers?: Record<string, string> },
    ) =>
      post(
        servers[server]!.url,
        API_PATHS.login,
        { USERNAME: 'lakshmi', PASSWORD, stayLoggedIn: false },
        options,
      );

    // Five wrong passwords at once, split 3 + 2 over the two servers.
    const wrong = await Promise.all(
      Array.from({ length: LIMITS.loginMaxFailures }, (_, i) => attempt(i % 2, `Wrong@${i}xyz`)),
    );
    for (const answer of wrong) {
      expect(answer).toEqual({
        status: 401,
        body: { success: false, message: MESSAGES.invalidCredentials },
      });
    }
    const locked = {
      status: 429,
      body: { success: false, message: MESSAGES.accountLocked(LIMITS.loginLockMinutes) },
    };
    // The right password is now refused from that address by either server; from another
    // address the user signs in.
    expect(await attempt(0, 'Lakshmi@1928')).toEqual(locked);
    expect(await attempt(1, 'Lakshmi@1928')).toEqual(locked);
    const elsewhere = await attempt(1, 'Lakshmi@1928', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(elsewhere.status).toBe(200);
  }, 30_000);

  it('count sign-ins from one address on both servers together: 20 a minute in all', async () => {
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    // Unknown usernames, one each: only the per-address limit is in play.
    const attempts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(
          servers[i % 2]!.url,
          API_PATHS.login,
          { USERNAME: `stranger${i}`, PASSWORD: 'Wrong@19280', stayLoggedIn: false },
          from('203.0.113.7'),
        ),
      ),
    );
    const limited = { status: 429, body: { success: false, message: MESSAGES.tooManyRequests } };
    const refused = { status: 401, body: { success: false, message: MESSAGES.invalidCredentials } };
    expect(attempts.filter((answer) => answer.status === 401)).toEqual(
      Array(LIMITS.loginAttemptsPerIpPerMinute).fill(refused),
    );
    expect(attempts.filter((answer) => answer.status !== 401)).toEqual(
      Array(30 - LIMITS.loginAttemptsPerIpPerMinute).fill(limited),
    );
    // The right password from that address waits on both; another address signs in.
    const admin = { USERNAME: 'admin', PASSWORD: 'Fault@Test1928', stayLoggedIn: false };
    for (const server of servers) {
      expect(await post(server.url, API_PATHS.login, admin, from('203.0.113.7'))).toEqual(limited);
    }
    const elsewhere = await post(servers[1]!.url, API_PATHS.login, admin, from('203.0.113.8'));
    expect(elsewhere.status).toBe(200);
  }, 30_000);

  it('run four customer exports at once over both servers together; the others wait their turn', async () => {
    // Files larger than the sockets' buffers: an export whose reader stops holds its turn.
    await db.sql(
      `INSERT INTO customers (mobileno, custname, address)
       SELECT '94' || lpad(n::text, 8, '0'), 'Export ' || n, repeat('Long Address ', 80)
         FROM generate_series(1, 40000) AS n`,
    );
    // Three through each server, none read: with its turn, an export answers at once.
    const started = new Map<number, Response>();
    const exports = Array.from({ length: 6 }, (_, i) =>
      fetch(`${through(i).url}${API_PREFIX}${API_PATHS.exportCustomers}?format=csv`, {
        headers: { authorization: `Bearer ${through(i).token}` },
      }).then((response) => {
        started.set(i, response);
        return response;
      }),
    );
    await expect.poll(() => started.size, { timeout: 20_000 }).toBe(EXPORTS_AT_ONCE);
    await sleep(1_000);
    expect(started.size).toBe(EXPORTS_AT_ONCE);

    // Their readers go away: the two waiting take the turns they free, through either server.
    for (const response of started.values()) {
      expect(response.status).toBe(200);
      await response.body!.cancel();
    }
    await expect.poll(() => started.size, { timeout: 20_000 }).toBe(6);
    for (const response of await Promise.all(exports)) {
      expect(response.status).toBe(200);
      await response.body!.cancel();
    }
  }, 90_000);
});
