import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import PgBoss from 'pg-boss';
import { connectDatabase, type Database } from './db/client.js';
import {
  EXPIRY_QUEUE,
  JOBS_SCHEMA,
  NOTICE_REMINDERS_QUEUE,
  NOTICE_SEND_QUEUE,
  noticeNudge,
  startJobs,
  type JobsOptions,
} from './jobs.js';
import { loadConfig } from './config.js';
import { createFieldCipher } from './lib/crypto.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../test/fake-whatsapp.js';
import { testOutbox } from '../test/notices.js';
import {
  createTestDatabase,
  NO_PROVIDER,
  servicesOn,
  TEST_SECRETS,
  type TestDatabase,
} from '../test/helpers.js';

let database: TestDatabase;
let connection: Database;
let fake: FakeWhatsApp;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = connectDatabase(database.url, { max: 4 });
  fake = await startFakeWhatsApp();
});
afterAll(async () => {
  await connection.close();
  await database.drop();
  await fake.close();
});

const jobOptions = (urls: Record<1 | 2 | 3, string>): JobsOptions => ({
  connectionString: database.url,
  log: pino({ level: 'silent' }),
  catchUpAfterSeconds: 0,
  services: servicesOn(connection, {
    MESSAGING_PANEL1_URL: urls[1],
    MESSAGING_PANEL2_URL: urls[2],
    MESSAGING_PANEL3_URL: urls[3],
    MESSAGING_RATE: '10',
  }),
});
const noProvider = {
  1: NO_PROVIDER.MESSAGING_PANEL1_URL,
  2: NO_PROVIDER.MESSAGING_PANEL2_URL,
  3: NO_PROVIDER.MESSAGING_PANEL3_URL,
};

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(200);
  }
  throw new Error(`waited ${ms / 1000} s in vain`);
}

const completedRuns = async () =>
  Number(
    (
      await database.sql<{ n: string }>(
        `SELECT count(*) AS n FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND state = 'completed'`,
        [EXPIRY_QUEUE],
      )
    )[0]!.n,
  );

describe('the background jobs', () => {
  it('make their schema, expire due lots soon after a start, and a second start expires nothing again', async () => {
    const [customer] = await database.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ('9123400001', 'Due Soon') RETURNING id`,
    );
    const id = customer!.id;
    await database.sql(`UPDATE points_accounts SET balance = 70 WHERE customer_id = $1`, [id]);
    const entries = await database.sql<{ mrn: number }>(
      `INSERT INTO points_entries (customer_id, invdate, narration, credit, ts)
       VALUES ($1, '2022-01-05', 'Old credit', 50, 'M'), ($1, '2025-01-05', 'New credit', 20, 'M') RETURNING mrn`,
      [id],
    );
    await database.sql(
      `INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
       VALUES ($1, $2, '2022-01-05', '2024-01-05', 50, 50), ($1, $3, '2025-01-05', NULL, 20, 20)`,
      [id, entries[0]!.mrn, entries[1]!.mrn],
    );
    const options = jobOptions(noProvider);
    const first = await startJobs(options);
    try {
      const expired = await waitFor(async () => {
        const rows = await database.sql(
          `SELECT debit, narration, invdate::text FROM points_entries WHERE ts = 'E'`,
        );
        return rows.length > 0 ? rows : undefined;
      });
      expect(expired).toEqual([
        { debit: 50, narration: 'Points expired, earned 05-01-2022', invdate: '2024-01-05' },
      ]);
      await waitFor(async () => ((await completedRuns()) >= 1 ? true : undefined));
      // Scheduled daily at 00:30 in the store's time zone.
      const [schedule] = await database.sql(
        `SELECT cron, timezone FROM ${JOBS_SCHEMA}.schedule WHERE name = $1`,
        [EXPIRY_QUEUE],
      );
      expect(schedule).toEqual({ cron: '30 0 * * *', timezone: 'Asia/Kolkata' });
    } finally {
      await first.stop();
    }

    const runs = await completedRuns();
    const second = await startJobs(options);
    try {
      await waitFor(async () => ((await completedRuns()) > runs ? true : undefined));
    } finally {
      await second.stop();
    }
    expect(
      await database.sql(`SELECT count(*)::int AS n FROM points_entries WHERE ts = 'E'`),
    ).toEqual([{ n: 1 }]);
    expect(
      await database.sql(`SELECT balance::int AS b FROM points_accounts WHERE customer_id = $1`, [
        id,
      ]),
    ).toEqual([{ b: 20 }]);
  }, 90_000);

  it('schedule the notices: the sender every minute, the reminders daily at 08:00 store time', async () => {
    const jobs = await startJobs(jobOptions(noProvider));
    await jobs.stop();
    expect(
      await database.sql(
        `SELECT name, cron, timezone FROM ${JOBS_SCHEMA}.schedule WHERE name LIKE 'notices-%' ORDER BY name`,
      ),
    ).toEqual([
      { name: NOTICE_REMINDERS_QUEUE, cron: '0 8 * * *', timezone: 'Asia/Kolkata' },
      { name: NOTICE_SEND_QUEUE, cron: '* * * * *', timezone: 'Asia/Kolkata' },
    ]);
    expect(
      await database.sql(
        `SELECT name, policy FROM ${JOBS_SCHEMA}.queue WHERE name LIKE 'notices-%' ORDER BY name`,
      ),
    ).toEqual([
      { name: NOTICE_REMINDERS_QUEUE, policy: 'singleton' },
      { name: NOTICE_SEND_QUEUE, policy: 'stately' },
    ]);
  }, 60_000);

  it('send a notice within seconds of a nudge from another process, not at the next minute', async () => {
    const [customer] = await database.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ('9123400077', 'Nudged Customer') RETURNING id`,
    );
    await database.sql(
      `INSERT INTO customer_consents (customer_id, purpose, granted, method, notice_version)
       VALUES ($1, 'transactional', true, 'staff', '2025-11')`,
      [customer!.id],
    );
    await database.sql(
      `INSERT INTO panel_config (id, instance_id, token_sealed, panel, phone) VALUES (1, 'i-9', $1, 2, '9000000001')`,
      [createFieldCipher(TEST_SECRETS.dataKey).encrypt('nudge-token')],
    );
    const jobs = await startJobs(jobOptions({ 1: fake.url, 2: fake.url, 3: fake.url }));
    // A web instance's pool, apart from the jobs'.
    const web = connectDatabase(database.url, { max: 2 });
    try {
      // The start's own run has found nothing to send.
      await waitFor(async () => {
        const runs = await database.sql(
          `SELECT 1 FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND state = 'completed'`,
          [NOTICE_SEND_QUEUE],
        );
        return runs.length > 0 ? true : undefined;
      });
      const outbox = testOutbox({ nudge: noticeNudge(web.pool, pino({ level: 'silent' })) });
      // No minute's run meanwhile: only the nudge can wake the sender.
      await jobs.boss.unschedule(NOTICE_SEND_QUEUE);
      const queuedAt = Date.now();
      await web.db.transaction((tx) =>
        outbox.queue(tx, {
          event: 'schemeClosed',
          customerId: customer!.id,
          branchId: null,
          facts: {},
        }),
      );
      const message = await waitFor(async () => fake.messages[0], 20_000);
      expect(Date.now() - queuedAt).toBeLessThan(15_000);
      expect(message).toMatchObject({ panel: 2, mobile: '9123400077', token: 'nudge-token' });
      await waitFor(async () => {
        const [row] = await database.sql<{ status: string }>(`SELECT status FROM notices`);
        return row?.status === 'sent' ? true : undefined;
      });
    } finally {
      await web.close();
      await jobs.stop();
    }
  }, 90_000);

  it('nudge the sender once the notice has committed, promptly, and never for a change rolled back', async () => {
    const [customer] = await database.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ('9123400078', 'Committed Customer') RETURNING id`,
    );
    await database.sql(
      `INSERT INTO customer_consents (customer_id, purpose, granted, method, notice_version)
       VALUES ($1, 'transactional', true, 'staff', '2025-11')`,
      [customer!.id],
    );
    await database.sql(
      `INSERT INTO panel_config (id, instance_id, token_sealed, panel, phone) VALUES (1, 'i-9', $1, 2, '9000000001')
       ON CONFLICT (id) DO NOTHING`,
      [createFieldCipher(TEST_SECRETS.dataKey).encrypt('nudge-token')],
    );
    const jobs = await startJobs(jobOptions({ 1: fake.url, 2: fake.url, 3: fake.url }));
    const web = connectDatabase(database.url, { max: 2 });
    const sentBefore = fake.messages.length;
    try {
      await jobs.boss.unschedule(NOTICE_SEND_QUEUE);
      let nudges = 0;
      const nudge = noticeNudge(web.pool, pino({ level: 'silent' }));
      const outbox = testOutbox({ nudge: () => (nudges++, nudge()) });
      const notice = {
        event: 'schemeClosed' as const,
        customerId: customer!.id,
        branchId: null,
        facts: {},
      };

      const refused = new Error('the change was refused');
      await expect(
        web.db.transaction(async (tx) => {
          await outbox.queue(tx, notice);
          throw refused;
        }),
      ).rejects.toBe(refused);
      expect(nudges).toBe(0);

      const queuedAt = Date.now();
      await web.db.transaction(async (tx) => {
        await outbox.queue(tx, notice);
        // Not yet: a sender woken now would not see the notice.
        expect(nudges).toBe(0);
      });
      expect(nudges).toBe(1);
      await waitFor(async () => fake.messages[sentBefore], 10_000);
      expect(Date.now() - queuedAt).toBeLessThan(5_000);
      expect(fake.messages.slice(sentBefore)).toMatchObject([{ mobile: '9123400078' }]);
      expect(
        await database.sql(`SELECT status FROM notices WHERE customer_id = $1`, [customer!.id]),
      ).toHaveLength(1);
    } finally {
      await web.close();
      await jobs.stop();
    }
  }, 60_000);

  it("run a start's catch-up only once a scheduled run under way elsewhere has ended", async () => {
    // Another instance's scheduled expiry, taken and still running.
    const other = new PgBoss({ connectionString: database.url, schema: JOBS_SCHEMA });
    other.on('error', () => undefined);
    await other.start();
    const statesOf = () =>
      database.sql<{ id: string; state: string }>(
        `SELECT id, state FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND data->>'reason' = 'start'
          AND state <> 'completed'`,
        [EXPIRY_QUEUE],
      );
    let jobs: Awaited<ReturnType<typeof startJobs>> | undefined;
    try {
      // The queues as every start makes them, with nothing left waiting in this one.
      await (await startJobs({ ...jobOptions(noProvider), catchUpAfterSeconds: 3600 })).stop();
      await database.sql(`DELETE FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND state = 'created'`, [
        EXPIRY_QUEUE,
      ]);
      await other.send(EXPIRY_QUEUE, {});
      const [held] = await other.fetch(EXPIRY_QUEUE);
      expect(held, 'the scheduled run is under way').toBeDefined();
      jobs = await startJobs({ ...jobOptions(noProvider), catchUpAfterSeconds: 1 });
      // Well past the catch-up's time, and the workers' polling: it waits its turn.
      await sleep(4_000);
      expect((await statesOf()).map((job) => job.state)).toEqual(['created']);
      await other.complete(EXPIRY_QUEUE, held!.id);
      await waitFor(async () => ((await statesOf()).length === 0 ? true : undefined), 15_000);
    } finally {
      await jobs?.stop();
      await other.stop({ graceful: false, wait: true });
    }
  }, 40_000);

  it('run in the server process unless JOBS=off', () => {
    expect(loadConfig({}).jobs).toBe(true);
    expect(loadConfig({ JOBS: 'off' }).jobs).toBe(false);
    expect(() => loadConfig({ JOBS: 'maybe' })).toThrow('JOBS');
  });
});
