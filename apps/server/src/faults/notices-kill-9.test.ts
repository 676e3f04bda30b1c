import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../db/client.js';
import { createFieldCipher } from '../lib/crypto.js';
import { customersRepo } from '../modules/customers/customers.repo.js';
import { createMessagingService } from '../modules/messaging/messaging.service.js';
import { createNoticeSender } from '../modules/notices/notices.sender.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../test/fake-whatsapp.js';
import { createTestDatabase, TEST_SECRETS, type TestDatabase } from '../../test/helpers.js';
import { spawnNoticesWorker } from '../../test/notices-worker.js';

/**
 * `kill -9` of a worker process sending notices, at the worst moment: the provider has taken
 * a message and answered, and the worker's "sent" has not reached the database. After a
 * restart every notice goes, none is lost, and the one caught mid-way goes twice — at most
 * one duplicate per crash, as the delivery guarantee says.
 */

const NOTICES = 24;
/** The notice the worker is killed on, counted from 1. */
const KILLED_ON = 9;
const LEASE_SECONDS = 2;

let database: TestDatabase;
let connection: Database;
let fake: FakeWhatsApp;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = connectDatabase(database.url, { max: 4 });
  fake = await startFakeWhatsApp();
  await database.sql(
    `INSERT INTO panel_config (id, instance_id, token_sealed, panel, phone) VALUES (1, 'i-1', $1, 1, '9000000001')`,
    [createFieldCipher(TEST_SECRETS.dataKey).encrypt('kill-9-token')],
  );
  await database.sql(`
    INSERT INTO customers (mobileno, custname)
    SELECT (9300000000 + n)::text, 'Kill Nine ' || n FROM generate_series(1, ${NOTICES}) n`);
  await database.sql(`
    INSERT INTO customer_consents (customer_id, purpose, granted, method, notice_version)
    SELECT id, 'transactional', true, 'staff', '2025-11' FROM customers`);
  await database.sql(`
    INSERT INTO notices (event, customer_id, mobile, text, status)
    SELECT 'schemeClosed', id, mobileno, 'Notice for ' || mobileno, 'queued' FROM customers ORDER BY id`);
});
afterAll(async () => {
  await connection.close();
  await database.drop();
  await fake.close();
});

const count = async (sql: string) => Number((await database.sql<{ n: string }>(sql))[0]!.n);

describe('kill -9 of a notices worker between the provider’s answer and its mark', () => {
  it('after a restart sends every notice, loses none, and sends at most the one caught twice', async () => {
    // Holds the caught notice's row, so the worker's "sent" waits until it is killed.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    let caught: string | undefined;
    fake.onMessage(async (message) => {
      if (fake.messages.length !== KILLED_ON) return;
      caught = message.mobile;
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM notices WHERE mobile = $1 FOR UPDATE`, [message.mobile]);
    });

    const { child, exited } = spawnNoticesWorker({
      databaseUrl: database.url,
      providerUrl: fake.url,
      dataKey: TEST_SECRETS.dataKey,
      rate: 20,
      leaseSeconds: LEASE_SECONDS,
      timeoutMs: 1000,
      forever: true,
    });
    try {
      // The worker has the provider's answer and waits to mark the notice sent.
      let waiting: number | undefined;
      for (const until = Date.now() + 60_000; Date.now() < until && !waiting;) {
        const [backend] = await database.sql<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query ILIKE 'update "notices"%'`,
        );
        waiting = backend?.pid;
        if (!waiting) await sleep(20);
      }
      expect(waiting, 'the worker never reached its mark').toBeDefined();
      child.kill('SIGKILL');
      await exited;
      // The dead process's statement dies with it: its connection is gone, its "sent" never
      // committed (PostgreSQL would otherwise finish a statement it had already received).
      await database.sql(`SELECT pg_terminate_backend($1)`, [waiting]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      fake.onMessage(undefined);
    }

    expect(caught).toBeDefined();
    const midway = fake.delivered().length;
    expect(midway).toBe(KILLED_ON);
    expect(await count(`SELECT count(*) AS n FROM notices WHERE status = 'sent'`)).toBe(
      KILLED_ON - 1,
    );
    const [stuck] = await database.sql<{ status: string; attempts: number; claimed: boolean }>(
      `SELECT status, attempts, claimed_until IS NOT NULL AS claimed FROM notices WHERE mobile = $1`,
      [caught],
    );
    expect(stuck).toEqual({ status: 'queued', attempts: 1, claimed: true });

    // The restart: a new sender, after the dead one's claim has lapsed.
    const sender = createNoticeSender({
      db: connection.db,
      panel: createMessagingService({
        db: connection.db,
        cipher: createFieldCipher(TEST_SECRETS.dataKey),
      }),
      customers: customersRepo,
      urls: { 1: fake.url, 2: fake.url, 3: fake.url },
      rate: 20,
      log: pino({ level: 'silent' }),
      leaseSeconds: LEASE_SECONDS,
      timeoutMs: 1000,
    });
    for (const until = Date.now() + 30_000; Date.now() < until;) {
      await sender.run();
      if ((await count(`SELECT count(*) AS n FROM notices WHERE status <> 'sent'`)) === 0) break;
      await sleep(250);
    }
    expect(await count(`SELECT count(*) AS n FROM notices WHERE status <> 'sent'`)).toBe(0);

    const times = new Map<string, number>();
    for (const message of fake.delivered())
      times.set(message.mobile, (times.get(message.mobile) ?? 0) + 1);
    // None lost: every customer got theirs.
    expect(times.size).toBe(NOTICES);
    // At most one duplicate: the notice caught when the worker died.
    expect([...times].filter(([, n]) => n > 1)).toEqual([[caught, 2]]);
    expect(fake.delivered()).toHaveLength(NOTICES + 1);
    expect(await database.sql(`SELECT attempts FROM notices WHERE mobile = $1`, [caught])).toEqual([
      { attempts: 2 },
    ]);
  }, 120_000);
});
