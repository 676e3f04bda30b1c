import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { API_PATHS, API_PREFIX, MESSAGES } from '@kanak/contract';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { pointsBalance, type SignedIn, signedIn, TEST_SECRETS } from '../../test/helpers.js';

/**
 * A graceful stop (SIGTERM: main.ts closes the app): the request being worked on finishes and
 * is answered; a request that still arrives on an open connection is refused with our own
 * 503 envelope before doing any work.
 */

const HELD = '9300000001';
const OTHER = '9300000002';

let ctx: SignedIn;

beforeAll(async () => {
  ctx = await signedIn('owner', { username: 'meera' });
  for (const [mobileno, custname] of [
    [HELD, 'Held Customer'],
    [OTHER, 'Other Customer'],
  ]) {
    const saved = await ctx.inject({
      method: 'POST',
      url: `${API_PREFIX}${API_PATHS.saveCustomer}`,
      payload: { formData: { custid: null, mobileno, custname } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
});
afterAll(() => ctx?.close());

/** One HTTP/1.1 request as bytes, on a keep-alive connection. */
function rawRequest(method: string, url: string, body?: unknown): string {
  const payload = body === undefined ? '' : JSON.stringify(body);
  return [
    `${method} ${url} HTTP/1.1`,
    'Host: kanak.test',
    'Connection: keep-alive',
    `Authorization: Bearer ${ctx.token}`,
    `Idempotency-Key: ${randomUUID()}`,
    ...(payload
      ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`]
      : []),
    '',
    payload,
  ].join('\r\n');
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what came back on the connection into its responses (each has a Content-Length). */
function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length']);
    responses.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

async function until(condition: () => Promise<boolean> | boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const balanceOf = async (mobileno: string) => (await pointsBalance(ctx, mobileno))!;

const credit = (mobileno: string, points: number) =>
  rawRequest('POST', `${API_PREFIX}${API_PATHS.updatePoints}`, {
    formData: { MOBILENO: mobileno, POINTS: String(points), CASHCR: 'CR', INVDATE: '2026-01-05' },
  });

describe('graceful stop', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({
      config: loadConfig({
        DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-stop-')),
        LOG_LEVEL: 'silent',
        WEB_DIST: '/nonexistent',
      }),
      db: ctx.database.db,
      pool: ctx.database.pool,
      secrets: TEST_SECRETS,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('finishes the request under way and refuses a new one with 503 and the envelope, doing nothing', async () => {
    const { port } = app.server.address() as net.AddressInfo;
    // The held customer's row is locked, so the first request waits inside its transaction.
    const holder = new pg.Client({ connectionString: ctx.database.pool.options.connectionString });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM customers WHERE mobileno = $1 FOR UPDATE', [HELD]);

    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(credit(HELD, 40));
    await until(
      async () =>
        (
          await ctx.sql(
            `SELECT 1 FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).length > 0,
      'the first request to wait for the lock',
    );

    const stopped = app.close();
    await until(() => !app.server.listening, 'the server to stop listening');
    // Arrives on the open connection after the stop began.
    socket.write(credit(OTHER, 7));
    await sleep(200);
    await holder.query('COMMIT');
    await holder.end();
    await ended;
    await stopped;

    const [first, second] = parseResponses(received);
    expect(first?.status, received).toBe(200);
    expect(second?.status, received).toBe(503);
    expect(second!.headers['content-type']).toMatch(/^application\/json/);
    expect(second!.headers.connection).toBe('close');
    expect(JSON.parse(second!.body)).toEqual({ success: false, message: MESSAGES.serverStopping });
    expect(await balanceOf(HELD)).toBe(40);
    expect(await balanceOf(OTHER)).toBe(0);
  });
});
