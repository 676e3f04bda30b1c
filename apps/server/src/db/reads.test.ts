import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { API_PATHS, API_PREFIX, MESSAGES, SCHEME_STATUS, todayIn } from '@kanak/contract';
import { appOnDatabase, authed } from '../../test/helpers.js';
import { startReplicatedPair, type ReplicatedPair } from '../../test/replication.js';
import { connectDatabase, type Database } from './client.js';
import { migrateDatabase } from './migrate.js';
import { createReads } from './reads.js';
import { createUsersService } from '../modules/users/users.service.js';

/**
 * Reports on a real hot standby: a primary and a standby made by PostgreSQL's own tools, the
 * standby's replay paused so that it holds older data than the primary. What a read shows
 * tells where it was answered.
 */

const PASSWORD = 'Kanak@1928x';
const MOBILENO = '9500000001';
/** A customer the writer adds while the standby's replay is paused. */
const LATE_MOBILENO = '9500000002';
const TODAY = todayIn('Asia/Kolkata');
/** A logger that keeps what it is told; `logged(text)`: how many lines contained `text`. */
function keptLog() {
  const lines: { msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const logged = (text: string) => lines.filter((line) => line.msg.includes(text)).length;
  return { logger, logged };
}

/** An app on the primary with the standby as its reports replica, and what it logs. */
async function appWithReplica(env: NodeJS.ProcessEnv = {}) {
  const { logger, logged } = keptLog();
  const app = await appOnDatabase(
    database,
    { REPORTS_DATABASE_URL: pair.standby.url, ...env },
    undefined,
    logger,
  );
  return { app, logged };
}

/** The reads seam alone, on the primary with `replicaUrl` as its replica, and what it logs. */
function readsWith(replicaUrl: string) {
  const { logger, logged } = keptLog();
  const reads = createReads({ primary: database, replicaUrl, maxLagSeconds: 30, log: logger });
  return { reads, logged };
}

let pair: ReplicatedPair;
let database: Database;
let app: FastifyInstance;
let logged: (text: string) => number;
/** Changes nothing: reads the replica whenever it is fit. */
let reader: string;
/** Makes every change: reads the primary until the replica has caught up with them. */
let writer: string;
let schemeid: number;

async function signIn(username: string) {
  const response = await app.inject({
    method: 'POST',
    url: `${API_PREFIX}${API_PATHS.login}`,
    payload: { USERNAME: username, PASSWORD, stayLoggedIn: false },
  });
  return response.json<{ accessToken: string }>().accessToken;
}

function call(
  token: string,
  method: 'GET' | 'POST',
  path: string,
  payload?: object,
  on: FastifyInstance = app,
): Promise<LightMyRequestResponse> {
  return on.inject(authed(token, { method, url: `${API_PREFIX}${path}`, payload }));
}

async function change(path: string, payload: object) {
  const response = await call(writer, 'POST', path, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data?: { schemeid?: number; custid?: number } }>();
}

const credit = (points: number) =>
  change(API_PATHS.updatePoints, {
    formData: { MOBILENO, POINTS: String(points), CASHCR: 'CR', INVDATE: TODAY, NARRATION: '' },
  });

/** The points credited on the customer's statement, as `token`'s statement shows them. */
async function statementCredits(token: string, on: FastifyInstance = app) {
  const response = await call(
    token,
    'POST',
    API_PATHS.pointsStatement,
    { MOBILENO, DFROM: '2020-01-01', DTO: TODAY },
    on,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { RCREDIT: number }[] }>().data.map((row) => row.RCREDIT);
}

/**
 * Today's installments as `token`'s dashboard, collections report and its CSV (header
 * included) show them.
 */
async function installmentsToday(token: string) {
  const dashboard = await call(token, 'GET', API_PATHS.dashboard);
  const report = await call(token, 'POST', API_PATHS.collectionsReport, {});
  const csv = await call(token, 'POST', API_PATHS.collectionsReport, { format: 'csv' });
  expect(csv.statusCode, csv.body).toBe(200);
  return {
    dashboard: dashboard.json<{ data: { today: { collections: { installments: number } } } }>().data
      .today.collections.installments,
    report: report.json<{ totals: { installments: number } }>().totals.installments,
    csvLines: csv.body.trim().split('\n').length,
  };
}

/** Until `on`'s replica is fit and holds what the primary has now. */
async function replicaCaughtUp(on: FastifyInstance) {
  const [{ now }] = (await pair.primary.sql<{ now: Date }>('SELECT clock_timestamp() AS now')) as [
    { now: Date },
  ];
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = await on.reads.check();
    if (state.name === 'fresh' && state.asOf >= now) return;
    if (Date.now() > deadline) throw new Error(`the replica did not catch up: ${state.name}`);
    await sleep(50);
  }
}

async function pauseReplay() {
  await pair.standby.sql('SELECT pg_wal_replay_pause()');
  for (;;) {
    const [row] = await pair.standby.sql<{ state: string }>(
      'SELECT pg_get_wal_replay_pause_state() AS state',
    );
    if (row!.state === 'paused') return;
    await sleep(20);
  }
}

const resumeReplay = () => pair.standby.sql('SELECT pg_wal_replay_resume()');

beforeAll(async () => {
  pair = await startReplicatedPair();
  database = connectDatabase(pair.primary.url, { max: 5 });
  await migrateDatabase(database.db);
  const users = createUsersService({ db: database.db });
  await users.addUser(null, 'reader', PASSWORD, 'owner');
  await users.addUser(null, 'writer', PASSWORD, 'owner');
  ({ app, logged } = await appWithReplica());
  reader = await signIn('reader');
  writer = await signIn('writer');

  const customer = await change(API_PATHS.saveCustomer, {
    formData: { custid: null, mobileno: MOBILENO, custname: 'Replica Customer' },
  });
  await credit(100);
  const scheme = await change(API_PATHS.generateScheme, {
    custid: customer.data!.custid,
    mobileno: MOBILENO,
    startdt: TODAY,
    amount: 1000,
  });
  schemeid = scheme.data!.schemeid!;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await pair?.close();
});

describe('reports on a streaming replica', () => {
  it('reads statements, the summary, exports, the audit trail and the owner’s reports from the standby; profiles, search and the writer’s own reads from the primary', async () => {
    await replicaCaughtUp(app);
    expect(logged('reports replica: up to date')).toBe(1);
    await pauseReplay();
    try {
      // On the primary only: 50 more points, the scheme's first payment, a new customer.
      await credit(50);
      await change(API_PATHS.activateScheme, { schemeid, date: TODAY, mode: 'cash' });
      await change(API_PATHS.saveCustomer, {
        formData: { custid: null, mobileno: LATE_MOBILENO, custname: 'Replica Late' },
      });

      // The standby's older data: the reader's reports come from it.
      expect(await statementCredits(reader)).toEqual([100]);
      const schemeStatement = await call(reader, 'POST', API_PATHS.schemeStatement, { schemeid });
      expect(schemeStatement.json()).toMatchObject({
        data: [],
        scheme: { matyn: SCHEME_STATUS.inactive },
      });
      const summary = { selected: 'Active', formData: { datefrom: TODAY, dateto: TODAY } };
      expect((await call(reader, 'POST', API_PATHS.schemeSummary, summary)).json()).toMatchObject({
        success: false,
        message: MESSAGES.noMatchingRecords,
      });
      const exported = (await call(reader, 'GET', API_PATHS.exportCustomers)).json<{
        data: { mobileno: string; points: number }[];
      }>().data;
      expect(exported).toEqual([expect.objectContaining({ mobileno: MOBILENO, points: 100 })]);
      const csv = (await call(reader, 'GET', `${API_PATHS.exportCustomers}?format=csv`)).body;
      expect(csv).toContain(MOBILENO);
      expect(csv).not.toContain(LATE_MOBILENO);
      const audit = `${API_PATHS.audit}?mobile=${MOBILENO}`;
      const auditTotal = async (token: string) =>
        (await call(token, 'GET', audit)).json<{ total: number }>().total;
      // Created, credited, scheme generated; the standby has not seen the credit and payment.
      expect(await auditTotal(reader)).toBe(3);
      expect(await installmentsToday(reader)).toEqual({ dashboard: 0, report: 0, csvLines: 1 });

      // The primary: the profile, the search, and everything the writer reads after a change.
      const profile = await call(reader, 'POST', API_PATHS.customerData, { mobileno: MOBILENO });
      expect(profile.json()).toMatchObject({ data: { points: 150 } });
      const search = await call(reader, 'GET', `${API_PATHS.searchCustomers}?search=Replica`);
      expect(search.json<{ data: unknown[] }>().data).toHaveLength(2);
      expect(await statementCredits(writer)).toEqual([100, 50]);
      const writersStatement = await call(writer, 'POST', API_PATHS.schemeStatement, { schemeid });
      expect(writersStatement.json()).toMatchObject({
        scheme: { matyn: SCHEME_STATUS.active, paid: 1 },
      });
      // And the credit, the activation and its first installment.
      expect(await auditTotal(writer)).toBe(6);
      expect(await installmentsToday(writer)).toEqual({ dashboard: 1, report: 1, csvLines: 2 });
    } finally {
      await resumeReplay();
    }
    // Once the standby has caught up with the writer's changes, the writer reads it too.
    await replicaCaughtUp(app);
    expect(await statementCredits(writer)).toEqual([100, 50]);
  });

  it('answers from the primary while the standby is stopped, saying so once, and returns to it', async () => {
    await replicaCaughtUp(app);
    await pauseReplay();
    await credit(10);
    expect(await statementCredits(reader)).toEqual([100, 50]);

    await pair.standby.stop();
    try {
      for (let i = 0; i < 3; i++) expect(await statementCredits(reader)).toEqual([100, 50, 10]);
      await app.reads.check();
      expect(logged('reports replica: cannot be reached')).toBe(1);
    } finally {
      await pair.standby.start();
    }
    // A restarted standby replays again; the next check finds it fit.
    await replicaCaughtUp(app);
    expect(logged('reports replica: up to date')).toBe(2);
    expect(await statementCredits(reader)).toEqual([100, 50, 10]);
  });

  it('answers from the primary while the standby is further behind than the limit, saying so once', async () => {
    const { app: strict, logged: strictLogged } = await appWithReplica({
      REPORTS_MAX_LAG_SECONDS: '1',
    });
    try {
      await replicaCaughtUp(strict);
      // A primary with nothing to write is not a standby falling behind, however long it idles.
      await sleep(1_500);
      expect(await strict.reads.check()).toMatchObject({ name: 'fresh' });
      await pauseReplay();
      try {
        await credit(5);
        await sleep(1_500);
        const state = await strict.reads.check();
        expect(state).toMatchObject({ name: 'behind' });
        expect((state as { lagSeconds: number }).lagSeconds).toBeGreaterThan(1);
        for (let i = 0; i < 3; i++)
          expect(await statementCredits(reader, strict)).toEqual([100, 50, 10, 5]);
        await strict.reads.check();
        expect(strictLogged('reports replica: too far behind the primary')).toBe(1);
      } finally {
        await resumeReplay();
      }
      await replicaCaughtUp(strict);
      expect(strictLogged('reports replica: up to date')).toBe(2);
    } finally {
      await strict.close();
    }
  });

  it('asks the primary when the standby cancels a read that its replay must run over', async () => {
    const { reads, logged: readsLogged } = readsWith(pair.standby.url);
    // A standby that never waits for its readers: a lock taken on the primary cancels them.
    await pair.standby.sql('ALTER SYSTEM SET max_standby_streaming_delay = 0');
    await pair.standby.sql('SELECT pg_reload_conf()');
    try {
      await replicaCaughtUp(app);
      expect(await reads.check()).toMatchObject({ name: 'fresh' });
      const answeredBy: string[] = [];
      const answer = await reads.run({ lastChangeAt: null }, async (from) => {
        const where = from === database ? 'primary' : 'standby';
        answeredBy.push(where);
        if (where === 'primary') return 'from the primary';
        await Promise.all([
          from.pool.query('SELECT pg_sleep(10) FROM customers LIMIT 1'),
          sleep(200).then(() =>
            pair.primary.sql('BEGIN; LOCK TABLE customers IN ACCESS EXCLUSIVE MODE; COMMIT'),
          ),
        ]);
        return 'from the standby';
      });
      expect(answer).toBe('from the primary');
      expect(answeredBy).toEqual(['standby', 'primary']);
      // Not the replica's failure: it stays in use.
      expect(await reads.check()).toMatchObject({ name: 'fresh' });
      expect(readsLogged('cannot be reached')).toBe(0);
    } finally {
      await reads.close();
      await pair.standby.sql('ALTER SYSTEM RESET max_standby_streaming_delay');
      await pair.standby.sql('SELECT pg_reload_conf()');
    }
  });

  it('leaves a database that is no standby alone, saying so', async () => {
    const { reads, logged: readsLogged } = readsWith(pair.primary.url);
    try {
      expect(await reads.check()).toEqual({ name: 'not a standby' });
      expect(await reads.run({ lastChangeAt: null }, async (from) => from)).toBe(database);
      expect(readsLogged('is not a standby')).toBe(1);
    } finally {
      await reads.close();
    }
  });
});
