import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, MESSAGES } from '@kanak/contract';
import { connectDatabase, type Database } from '../db/client.js';
import { createUsersService } from '../modules/users/users.service.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.js';
import {
  get,
  post,
  signIn,
  startServer,
  tempDir,
  type ServerProcess,
} from '../../test/processes.js';

/**
 * A session ended on one server is refused by the other at once: each server keeps the
 * sessions it has checked in memory, and hears from PostgreSQL when one ends. Two server
 * processes on one database; the ended token is sent to the second server right after the
 * first one answers, with no wait between.
 */

const PASSWORD = 'Ends@Sess1928';

let db: TestDatabase;
let app: Database;
let dirs: ReturnType<typeof tempDir>[] = [];
let servers: ServerProcess[] = [];
let admin: string;
let staffNumber = 0;

const [A, B] = [0, 1];
const url = (server: number) => servers[server]!.url;
const me = async (server: number, token: string) =>
  (await get(url(server), API_PATHS.me, { token })).status;

const listeners = async () =>
  (
    await db.sql<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'kanak-sessions'
          AND query = 'LISTEN kanak_sessions'`,
    )
  ).map((row) => row.pid);

async function untilBothListen() {
  for (let waited = 0; waited < 20_000; waited += 100) {
    if ((await listeners()).length === 2) return;
    await sleep(100);
  }
  throw new Error('the two servers did not both listen for ended sessions');
}

/** A cashier signed in on both servers, each token checked (and kept) by server B. */
async function cashierOnBoth() {
  const username = `ender${++staffNumber}`;
  await createUsersService({ db: app.db }).addUser(null, username, PASSWORD, 'cashier');
  const tokens = [
    await signIn(url(A), username, PASSWORD),
    await signIn(url(B), username, PASSWORD),
  ];
  for (const token of tokens) {
    expect(await me(B, token)).toBe(200);
    expect(await me(B, token)).toBe(200);
  }
  return { username, tokens };
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = connectDatabase(db.url, { max: 2 });
  dirs = [tempDir('kanak-sessions-a-'), tempDir('kanak-sessions-b-')];
  servers = await Promise.all(
    dirs.map((dir) => startServer({ dataDir: dir.path, env: { DATABASE_URL: db.url } })),
  );
  admin = await signIn(url(A));
}, 90_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await app?.close();
  await db?.drop();
  for (const dir of dirs) dir.remove();
});

beforeEach(untilBothListen, 30_000);

describe('a session ended on one server', () => {
  it('Logout on A: the same token is refused by B at once; the staff member’s other session goes on', async () => {
    const { tokens } = await cashierOnBoth();
    const [onA, onB] = tokens as [string, string];
    expect((await post(url(A), API_PATHS.logout, {}, { token: onA })).status).toBe(200);
    const refused = await get(url(B), API_PATHS.me, { token: onA });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(MESSAGES.sessionExpired);
    expect(await me(A, onA)).toBe(401);
    expect(await me(B, onB)).toBe(200);
  });

  it('disabled on A: every session of the account is refused by B at once', async () => {
    const { username, tokens } = await cashierOnBoth();
    const disabled = await post(url(A), API_PATHS.staffDisable, { username }, { token: admin });
    expect(disabled.status).toBe(200);
    for (const token of tokens) expect(await me(B, token)).toBe(401);
  });

  it('password reset on A: every session of the account is refused by B at once', async () => {
    const { username, tokens } = await cashierOnBoth();
    const reset = await post(url(A), API_PATHS.staffResetPassword, { username }, { token: admin });
    expect(reset.status).toBe(200);
    for (const token of tokens) expect(await me(B, token)).toBe(401);
  });

  it('new role on A: the account’s sessions are refused by B at once', async () => {
    const { username, tokens } = await cashierOnBoth();
    const moved = await post(
      url(A),
      API_PATHS.staffUpdate,
      { username, role: 'manager' },
      { token: admin },
    );
    expect(moved.status).toBe(200);
    for (const token of tokens) expect(await me(B, token)).toBe(401);
  });

  it('with the listening connections killed, a session ended meanwhile is still refused', async () => {
    const { username, tokens } = await cashierOnBoth();
    const killed = await listeners();
    await db.sql(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [killed]);
    for (let waited = 0; (await listeners()).some((pid) => killed.includes(pid)); waited += 20) {
      if (waited > 5_000) throw new Error('the listeners were not terminated');
      await sleep(20);
    }
    // As `npm run users disable` would, straight in the database: while no server listens,
    // no notice of it reaches them.
    await db.sql(
      `UPDATE users SET disabled_at = now(), token_version = token_version + 1
        WHERE username = $1`,
      [username],
    );
    for (const token of tokens) expect(await me(B, token)).toBe(401);
    // Back: both listen again on new connections.
    await untilBothListen();
    expect((await listeners()).some((pid) => killed.includes(pid))).toBe(false);
  });
});
