import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, API_PREFIX, MESSAGES } from '@kanak/contract';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { connectDatabase, type Database } from '../../db/client.js';
import {
  appOnDatabase,
  createTestContext,
  createTestDatabase,
  TEST_SECRETS,
  type TestContext,
  type TestDatabase,
} from '../../../test/helpers.js';
import { relayTo, type TcpRelay } from '../../../test/proxies.js';

/**
 * GET /api/ready, for a load balancer or service manager deciding whether an instance gets
 * traffic: 200 only while the database answers, holds every migration of this version, and
 * the instance is not stopping; 503 with the usual envelope and the reason otherwise.
 * GET /api/health stays the liveness check.
 */

const READY = `${API_PREFIX}${API_PATHS.ready}`;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const ready = (app: FastifyInstance = ctx.app) => app.inject({ method: 'GET', url: READY });

describe('GET /api/ready', () => {
  it('answers 200 without a token on a migrated database', async () => {
    const response = await ready();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true });
  });

  it('answers 503 while the database lacks a migration of this version, and 200 once it has it', async () => {
    const [newest] = await ctx.sql<{ id: number; hash: string; created_at: string }>(
      `DELETE FROM drizzle.__drizzle_migrations
        WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)
       RETURNING id, hash, created_at`,
    );
    try {
      const response = await ready();
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.databaseNotMigrated });
      // Alive all the same: health is about the database answering.
      expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await ctx.sql(
        `INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES ($1, $2, $3)`,
        [newest!.id, newest!.hash, newest!.created_at],
      );
    }
    expect((await ready()).statusCode).toBe(200);
  });
});

describe('GET /api/ready with the database away', () => {
  let database: TestDatabase;
  let relay: TcpRelay;
  let connection: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    const through = await relayTo(database.url);
    relay = through.relay;
    connection = connectDatabase(through.url, { max: 5, connectionTimeoutMillis: 1_000 });
    app = await appOnDatabase(connection);
  });
  afterAll(async () => {
    relay?.resume();
    await relay?.restore();
    await app?.close();
    await connection?.close();
    await relay?.close();
    await database?.drop();
  });

  it('answers 503 while the database is cut off, and 200 again once it is back', async () => {
    expect((await ready(app)).statusCode).toBe(200);
    await relay.cut();
    const response = await ready(app);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.databaseUnavailable });
    await relay.restore();
    await expect.poll(async () => (await ready(app)).statusCode, { timeout: 10_000 }).toBe(200);
  });

  it('answers 503 within its time when the database does not answer at all', async () => {
    relay.stall();
    try {
      const started = Date.now();
      const response = await ready(app);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.databaseUnavailable });
    } finally {
      relay.resume();
    }
    await expect.poll(async () => (await ready(app)).statusCode, { timeout: 10_000 }).toBe(200);
  });
});

describe('GET /api/ready during a graceful stop', () => {
  it('answers 503 once the stop has begun: the check under way and any request after it', async () => {
    const app = await buildApp({
      config: loadConfig({
        DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-ready-')),
        LOG_LEVEL: 'silent',
        WEB_DIST: '/nonexistent',
      }),
      db: ctx.database.db,
      pool: ctx.database.pool,
      secrets: TEST_SECRETS,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    // The migrations table locked: the first check waits in the database while the stop begins.
    const holder = new pg.Client({ connectionString: ctx.database.pool.options.connectionString });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE drizzle.__drizzle_migrations IN ACCESS EXCLUSIVE MODE');

    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const request = `GET ${READY} HTTP/1.1\r\nHost: kanak.test\r\nConnection: keep-alive\r\n\r\n`;
    socket.write(request);
    await expect
      .poll(
        async () =>
          (
            await ctx.sql(
              `SELECT 1 FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).length,
      )
      .toBeGreaterThan(0);

    const stopped = app.close();
    await expect.poll(() => app.server.listening).toBe(false);
    // Arrives on the open connection after the stop began.
    socket.write(request);
    await sleep(200);
    await holder.query('COMMIT');
    await holder.end();
    await ended;
    await stopped;

    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(
      answers.map((answer) => answer.split(' ')[1]),
      received,
    ).toEqual(['503', '503']);
    for (const answer of answers) {
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      expect(JSON.parse(body)).toEqual({ success: false, message: MESSAGES.serverStopping });
    }
  });
});
