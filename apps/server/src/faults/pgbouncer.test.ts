import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { API_PATHS, API_PREFIX, CSV_BOM, CUSTOMER_EXPORT_HEADERS, MESSAGES } from '@kanak/contract';
import { connectDatabase } from '../db/client.js';
import { EXPIRY_QUEUE, JOBS_SCHEMA, startJobs } from '../jobs.js';
import { usersRepo } from '../modules/users/users.repo.js';
import {
  lateEntryReason,
  createTestDatabase,
  pointsBalance,
  servicesOn,
  type TestDatabase,
} from '../../test/helpers.js';
import { startPgBouncer, type PgBouncer } from '../../test/pgbouncer.js';
import {
  addCustomer,
  ADMIN,
  firstOfMonth,
  get,
  post,
  signIn,
  startServer,
  storeToday,
  tempDir,
  type ServerProcess,
} from '../../test/processes.js';

/**
 * Kanak behind PgBouncer in transaction mode: a real PgBouncer with three server connections
 * per database in front of the test PostgreSQL, and a server process whose DATABASE_URL goes
 * through it, from its first start on an empty database (migrations, the first admin, the
 * background jobs) through the counters' main flows, many calls at once so that transactions
 * take turns on the server connections.
 */

let db: TestDatabase;
let bouncer: PgBouncer;
let dir: ReturnType<typeof tempDir>;
let server: ServerProcess;
let token: string;
let bouncedUrl: string;

const call = <T = Record<string, unknown>>(
  path: string,
  body: unknown,
  options: { idempotencyKey?: string } = {},
) => post<T>(server.url, path, body, { token, ...options });

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  bouncer = await startPgBouncer(inject('adminDatabaseUrl'));
  bouncedUrl = bouncer.urlFor(new URL(db.url).pathname.slice(1));
  dir = tempDir('kanak-pgbouncer-server-');
  server = await startServer({
    dataDir: dir.path,
    env: { DATABASE_URL: bouncedUrl, DATABASE_PREPARED_STATEMENTS: 'off' },
  });
  token = await signIn(server.url);
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await bouncer?.stop();
  await db?.drop();
  dir?.remove();
});

describe('a server whose DATABASE_URL goes through PgBouncer in transaction mode', () => {
  it('needs DATABASE_PREPARED_STATEMENTS=off: a named statement meets connections that lack it', async () => {
    const database = connectDatabase(bouncedUrl, { max: 10 });
    try {
      const lookUp = (prepared: boolean) => {
        const sessionUser = usersRepo.prepareFindUnlessEnded(database.db, prepared);
        return Promise.allSettled(
          Array.from({ length: 30 }, () => sessionUser.execute({ id: 1, jti: '' })),
        );
      };
      const named = await lookUp(true);
      const failures = named.filter((result) => result.status === 'rejected');
      expect(failures.length).toBeGreaterThan(0);
      for (const failure of failures) {
        expect(String((failure.reason as Error).cause)).toMatch(
          /prepared statement "session_user" (already|does not) exist/,
        );
      }
      const unnamed = await lookUp(false);
      expect(unnamed.map((result) => result.status)).toEqual(Array(30).fill('fulfilled'));
    } finally {
      await database.close();
    }
  });

  it('signs in, and a token ended by Logout stays ended on every connection', async () => {
    const mine = await signIn(server.url);
    const me = await Promise.all(
      Array.from({ length: 20 }, () => get(server.url, API_PATHS.me, { token: mine })),
    );
    expect(me.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect((await post(server.url, API_PATHS.logout, {}, { token: mine })).status).toBe(200);
    const after = await Promise.all(
      Array.from({ length: 10 }, () => get(server.url, API_PATHS.me, { token: mine })),
    );
    for (const answer of after) {
      expect(answer).toEqual({
        status: 401,
        body: { success: false, message: MESSAGES.sessionExpired },
      });
    }
    const wrong = await post(server.url, API_PATHS.login, {
      USERNAME: ADMIN.username,
      PASSWORD: 'Wrong@19280',
    });
    expect(wrong.status).toBe(401);
  });

  it('adds, finds, edits and exports customers, many at once', async () => {
    const added = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        addCustomer(server.url, token, `94000000${String(i).padStart(2, '0')}`, `Pooled ${i}`),
      ),
    );
    expect(new Set(added).size).toBe(20);
    const found = await get<{ data: { MOBILENO: string }[] }>(
      server.url,
      `${API_PATHS.searchCustomers}?search=940000001`,
      { token },
    );
    expect(found.body.data.map((row) => row.MOBILENO).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `94000000${10 + i}`),
    );
    const edited = await call(API_PATHS.saveCustomer, {
      formData: { custid: added[0], mobileno: '9400000000', custname: 'Pooled Zero', city: 'Pune' },
    });
    expect(edited.status).toBe(200);
    const profile = await call<{ data: { custname: string; city: string } }>(
      API_PATHS.customerData,
      { mobileno: '9400000000' },
    );
    expect(profile.body.data).toMatchObject({ custname: 'Pooled Zero', city: 'Pune' });

    // The CSV streams from a cursor, which keeps its server connection until it is read out.
    const ticket = await call<{ data: { url: string } }>(API_PATHS.exportTicket, {});
    const csv = await fetch(`${server.url}${ticket.body.data.url}`);
    expect(csv.status).toBe(200);
    const lines = Buffer.from(await csv.arrayBuffer())
      .toString()
      .split('\r\n')
      .filter(Boolean);
    expect(
      lines[0]!.startsWith(
        `${CSV_BOM}${CUSTOMER_EXPORT_HEADERS.custid},${CUSTOMER_EXPORT_HEADERS.mobileno},${CUSTOMER_EXPORT_HEADERS.custname}`,
      ),
    ).toBe(true);
    expect(lines).toHaveLength(21);
  });

  it('never overdraws points under concurrent deductions, and the statement adds up', async () => {
    const mobileno = '9400000100';
    await addCustomer(server.url, token, mobileno, 'Pooled Points');
    const points = (POINTS: number, CASHCR: 'CR' | 'DB', NARRATION: string) =>
      call(API_PATHS.updatePoints, {
        formData: {
          MOBILENO: mobileno,
          POINTS: String(POINTS),
          CASHCR,
          INVDATE: storeToday(),
          NARRATION,
        },
      });
    expect((await points(1_000, 'CR', 'opening credit')).status).toBe(200);
    const deductions = await Promise.all(
      Array.from({ length: 25 }, (_, i) => points(100, 'DB', `deduction ${i}`)),
    );
    const statuses = deductions.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(15);
    const statement = await call<{ data: unknown[] }>(API_PATHS.pointsStatement, {
      MOBILENO: mobileno,
      DFROM: firstOfMonth(-1),
      DTO: storeToday(),
    });
    expect(statement.status).toBe(200);
    expect(statement.body.data).toHaveLength(11);
    expect(await pointsBalance(db, mobileno)).toBe(0);
  });

  it('takes a scheme from generation through installments to its statement and summary', async () => {
    const mobileno = '9400000200';
    const custid = await addCustomer(server.url, token, mobileno, 'Pooled Scheme');
    const generated = await Promise.all(
      Array.from({ length: 4 }, () =>
        call<{ data?: { schemeid: number } }>(API_PATHS.generateScheme, {
          custid,
          mobileno,
          startdt: firstOfMonth(-3),
          amount: 2_500,
          ...lateEntryReason(firstOfMonth(-3)),
        }),
      ),
    );
    // One Inactive scheme at a time, however many ask at once.
    expect(generated.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    const schemeid = generated.find((answer) => answer.status === 200)!.body.data!.schemeid;
    const payment = (month: number) => ({
      schemeid,
      date: firstOfMonth(month),
      mode: 'upi',
      ...lateEntryReason(firstOfMonth(month)),
    });
    expect((await call(API_PATHS.activateScheme, payment(-3))).status).toBe(200);
    const installments = await Promise.all(
      [-2, -2, -1, 0].map((month) => call(API_PATHS.addInstallment, payment(month))),
    );
    expect(installments.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 409]);
    const statement = await call<{ data: { amount: number }[] }>(API_PATHS.schemeStatement, {
      schemeid,
    });
    expect(statement.body.data.map((row) => row.amount)).toEqual([2_500, 2_500, 2_500, 2_500]);
    const summary = await call<{ data: { schemeid: number }[]; total: number }>(
      API_PATHS.schemeSummary,
      {
        selected: 'Active',
        formData: { mobileno, datefrom: firstOfMonth(-3), dateto: storeToday() },
      },
    );
    expect(summary.body).toMatchObject({ success: true, total: 2_500 });
    expect(summary.body.data.map((row) => row.schemeid)).toEqual([schemeid]);
    // A page of it: the page and the totals are read at once, on two connections.
    const page = await call(API_PATHS.schemeSummary, {
      selected: 'All',
      formData: { mobileno: '', datefrom: firstOfMonth(-3), dateto: storeToday() },
      page: 1,
      pageSize: 10,
    });
    expect(page.body).toMatchObject({ success: true, count: 1, total: 2_500, page: 1 });
  });

  it('keeps five images of a type when ten are uploaded at once, and serves and deletes them', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = (i: number) => {
      const form = new FormData();
      form.append('type', 'banner');
      form.append('file', new Blob([png, Buffer.from(`banner ${i}`)]), `banner-${i}.png`);
      return fetch(`${server.url}${API_PREFIX}${API_PATHS.uploadFile}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
        body: form,
      });
    };
    const uploads = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(i)));
    const statuses = uploads.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    const listed = await call<{ data: { ID: number; URL: string; PATH: string }[] }>(
      API_PATHS.getFiles,
      { type: 'banner' },
    );
    expect(listed.body.data).toHaveLength(5);
    const image = await fetch(`${server.url}${listed.body.data[0]!.URL}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const { ID, PATH } = listed.body.data[0]!;
    expect((await call(API_PATHS.deleteFile, { id: ID, path: PATH })).status).toBe(200);
    const after = await call<{ data: unknown[] }>(API_PATHS.getFiles, { type: 'banner' });
    expect(after.body.data).toHaveLength(4);
  });

  it('does a change once for a repeated Idempotency-Key, and refuses the key with another body', async () => {
    const mobileno = '9400000300';
    await addCustomer(server.url, token, mobileno, 'Pooled Retry');
    const credit = (POINTS: string) => ({
      formData: { MOBILENO: mobileno, POINTS, CASHCR: 'CR', INVDATE: storeToday() },
    });
    const idempotencyKey = randomUUID();
    const repeats = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(API_PATHS.updatePoints, credit('75'), { idempotencyKey }),
      ),
    );
    // The first does the work; a repeat that meets it still at work is told so (409), the
    // ones after it get its answer again.
    const done = repeats.filter((answer) => answer.status === 200);
    expect(done.length).toBeGreaterThan(0);
    for (const answer of done) expect(answer.body).toEqual(done[0]!.body);
    for (const answer of repeats.filter((a) => a.status !== 200)) {
      expect(answer.body.message).toBe(MESSAGES.idempotencyInProgress);
    }
    const replay = await call(API_PATHS.updatePoints, credit('75'), { idempotencyKey });
    expect(replay.body).toEqual(done[0]!.body);
    const other = await call(API_PATHS.updatePoints, credit('80'), { idempotencyKey });
    expect(other).toEqual({
      status: 409,
      body: { success: false, message: MESSAGES.idempotencyKeyReused },
    });
    const [row] = await db.sql<{ points_balance: number; entries: number }>(
      `SELECT a.balance AS points_balance, count(e.*)::int AS entries
         FROM customers c JOIN points_accounts a ON a.customer_id = c.id
         JOIN points_entries e ON e.customer_id = c.id
        WHERE c.mobileno = $1 GROUP BY c.id, a.balance`,
      [mobileno],
    );
    expect(row).toEqual({ points_balance: 75, entries: 1 });
  });

  it('runs the background jobs through it: points expire once', async () => {
    const [customer] = await db.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ('9400000400', 'Pooled Expiry') RETURNING id`,
    );
    await db.sql(`UPDATE points_accounts SET balance = 50 WHERE customer_id = $1`, [customer!.id]);
    const [entry] = await db.sql<{ mrn: number }>(
      `INSERT INTO points_entries (customer_id, invdate, narration, credit, ts)
       VALUES ($1, '2022-01-05', 'Old credit', 50, 'M') RETURNING mrn`,
      [customer!.id],
    );
    await db.sql(
      `INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
       VALUES ($1, $2, '2022-01-05', '2024-01-05', 50, 50)`,
      [customer!.id, entry!.mrn],
    );
    // The server's own jobs run through the pooler too, but catch up 30 s after the start;
    // a second runner started now catches up at once, on the same queue.
    const database = connectDatabase(bouncedUrl, { max: 2 });
    const jobs = await startJobs({
      connectionString: bouncedUrl,
      log: pino({ level: 'silent' }),
      catchUpAfterSeconds: 0,
      services: servicesOn(database),
    });
    try {
      for (const until = Date.now() + 30_000; Date.now() < until;) {
        const [done] = await db.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND state = 'completed'`,
          [EXPIRY_QUEUE],
        );
        if (done!.n > 0) break;
        await sleep(200);
      }
    } finally {
      await jobs.stop();
      await database.close();
    }
    const expired = await db.sql(
      `SELECT debit, narration FROM points_entries WHERE ts = 'E' AND customer_id = $1`,
      [customer!.id],
    );
    expect(expired).toEqual([{ debit: 50, narration: 'Points expired, earned 05-01-2022' }]);
  }, 60_000);

  it('logged no error through all of it', () => {
    expect(server.logTail()).not.toMatch(/"level":(50|60)/);
  });
});
