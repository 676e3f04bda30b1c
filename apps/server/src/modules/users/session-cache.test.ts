import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../db/client.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.js';
import { createSessionCache, type SessionCache } from './session-cache.js';
import { createUsersService } from './users.service.js';
import { relayTo } from '../../../test/proxies.js';

/**
 * The sessions a server keeps in memory, on a real database: a kept session costs no check,
 * and one ended by anyone (here: plain SQL on another connection, as `npm run users` or an
 * operator would) is checked again, also while the listening connection is lost.
 */

let database: TestDatabase;
let app: Database;
let cache: SessionCache;
let checks = 0;
let staff: { id: number; tokenVersion: number };

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting until ${what}`);
}

const listenerPids = async () =>
  (
    await database.sql<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'kanak-sessions'`,
    )
  ).map((row) => row.pid);

beforeAll(async () => {
  database = await createTestDatabase();
  app = connectDatabase(database.url, { max: 4 });
  const users = createUsersService({ db: app.db });
  const user = await users.addUser(null, 'kept', 'Kept@Sess1928', 'cashier');
  staff = { id: user.id, tokenVersion: user.tokenVersion };
  cache = createSessionCache({
    // The real check, counted: how often a request would go to the database.
    check: (...args) => {
      checks++;
      return users.findSessionUser(...args);
    },
    listenUrl: database.url,
    db: app.db,
    log: pino({ level: 'silent' }),
    heartbeatMs: 200,
  });
}, 60_000);

afterAll(async () => {
  await cache?.close();
  await app?.close();
  await database?.drop();
});

beforeEach(async () => {
  await database.sql(`UPDATE users SET disabled_at = NULL, token_version = $2 WHERE id = $1`, [
    staff.id,
    staff.tokenVersion,
  ]);
  await cache.caughtUp();
  await until(() => cache.listening, 'the cache listens');
  checks = 0;
});

describe('sessions kept in memory', () => {
  it('checks a session in the database once, then answers from memory', async () => {
    const first = await cache.find(staff.id, staff.tokenVersion, 'token-a');
    expect(first?.username).toBe('kept');
    for (let i = 0; i < 5; i++) {
      expect((await cache.find(staff.id, staff.tokenVersion, 'token-a'))?.username).toBe('kept');
    }
    expect(checks).toBe(1);
  });

  it('refuses a session disabled by another connection once that change is committed', async () => {
    await cache.find(staff.id, staff.tokenVersion, 'token-b');
    await database.sql(`UPDATE users SET disabled_at = now() WHERE id = $1`, [staff.id]);
    await cache.caughtUp();
    expect(await cache.find(staff.id, staff.tokenVersion, 'token-b')).toBeUndefined();
    expect(checks).toBe(2);
  });

  it('refuses a token ended by Logout elsewhere, and keeps the same staff member’s others', async () => {
    await cache.find(staff.id, staff.tokenVersion, 'token-c');
    await cache.find(staff.id, staff.tokenVersion, 'token-d');
    await database.sql(
      `INSERT INTO ended_sessions (jti, user_id, expires_at) VALUES ('token-c', $1, now() + interval '1 hour')`,
      [staff.id],
    );
    await cache.caughtUp();
    expect(await cache.find(staff.id, staff.tokenVersion, 'token-c')).toBeUndefined();
    expect(await cache.find(staff.id, staff.tokenVersion, 'token-d')).toBeDefined();
    expect(checks).toBe(3);
  });

  it('with its listening connection killed, checks every request in the database until it is back', async () => {
    await cache.find(staff.id, staff.tokenVersion, 'token-e');
    const [listener] = await listenerPids();
    expect(listener).toBeDefined();
    await database.sql(`SELECT pg_terminate_backend($1)`, [listener]);
    await until(() => !cache.listening, 'the cache notices the lost connection');
    // Ended while nobody listens: no notice reaches the cache.
    await database.sql(`UPDATE users SET token_version = token_version + 1 WHERE id = $1`, [
      staff.id,
    ]);
    expect(await cache.find(staff.id, staff.tokenVersion, 'token-e')).toBeUndefined();
    expect(checks).toBe(2);
    // Back: a new connection listens, and sessions are kept again.
    await until(() => cache.listening, 'the cache listens again');
    expect((await listenerPids()).filter((pid) => pid !== listener)).toHaveLength(1);
    await cache.find(staff.id, staff.tokenVersion + 1, 'token-e');
    await cache.find(staff.id, staff.tokenVersion + 1, 'token-e');
    expect(checks).toBe(3);
  });
});

describe('a database that stops answering for a while', () => {
  it('stops keeping sessions, rejects no promise unheard, and listens again once it answers', async () => {
    const { relay, url: viaRelayUrl } = await relayTo(database.url);
    const stalling = connectDatabase(viaRelayUrl, { max: 2 });
    const unheard: unknown[] = [];
    const record = (reason: unknown) => unheard.push(reason);
    process.on('unhandledRejection', record);
    const slowCache = createSessionCache({
      check: (...args) => createUsersService({ db: stalling.db }).findSessionUser(...args),
      listenUrl: viaRelayUrl,
      db: stalling.db,
      log: pino({ level: 'silent' }),
      heartbeatMs: 200,
    });
    try {
      await until(() => slowCache.listening, 'the cache listens through the relay');
      relay.stall();
      // Longer than a notice may take to come back: the heartbeat's round trip gives up.
      await until(() => !slowCache.listening, 'the cache notices the stalled database');
      await sleep(1_000);
      relay.resume();
      await until(() => slowCache.listening, 'the cache listens again');
      expect(
        (await slowCache.find(staff.id, staff.tokenVersion, 'token-after-stall'))?.username,
      ).toBe('kept');
      // Anything the stall left pending has settled by now.
      await sleep(500);
      expect(unheard).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
      await slowCache.close();
      await stalling.close();
      await relay.close();
    }
  }, 30_000);
});
