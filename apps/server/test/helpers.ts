import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  InjectOptions,
  LightMyRequestResponse,
} from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { needsBackdateReason, todayIn, type Role } from '@kanak/contract';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase, type Database } from '../src/db/client.js';
import { createUsersService } from '../src/modules/users/users.service.js';
import { createServices, type Services } from '../src/services.js';
import { withClient, withDatabase } from './global-setup.js';

export const TEST_SECRETS = {
  jwtSecret: 'test-jwt-secret-that-is-long-enough-1234567890',
  dataKey: '11'.repeat(32),
};

/**
 * No test reaches a real WhatsApp provider: unless a test names its fake, every panel's
 * address (Meta's Graph API's too) is a loopback port nobody listens on.
 */
export const NO_PROVIDER = {
  MESSAGING_PANEL1_URL: 'http://127.0.0.1:1',
  MESSAGING_PANEL2_URL: 'http://127.0.0.1:1',
  MESSAGING_PANEL3_URL: 'http://127.0.0.1:1',
  WHATSAPP_GRAPH_URL: 'http://127.0.0.1:1',
};

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  /** Runs raw SQL on this file's database. */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** This file's own database (a copy of the migrated template) and an app built on it. */
export async function createTestContext(
  env: NodeJS.ProcessEnv = {},
  clock?: () => Date,
): Promise<TestContext> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `kanak_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
  await createDatabaseFromTemplate(adminUrl, name);
  const database = connectDatabase(withDatabase(adminUrl, name), { max: 10 });
  const app = await appOnDatabase(database, env, clock);
  return {
    app,
    database,
    sql: async (text, values) => (await database.pool.query(text, values)).rows,
    async close() {
      await app.close();
      await database.close();
      await withClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

/** The app on `database` as the tests run it: quiet unless given a logger, no web app, the test secrets. */
export async function appOnDatabase(
  database: Database,
  env: NodeJS.ProcessEnv = {},
  clock?: () => Date,
  logger?: FastifyBaseLogger,
): Promise<FastifyInstance> {
  const config = loadConfig({
    DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-app-')),
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    ...NO_PROVIDER,
    ...env,
  });
  const app = await buildApp({
    config,
    db: database.db,
    pool: database.pool,
    secrets: TEST_SECRETS,
    clock,
    logger,
  });
  await app.ready();
  return app;
}

/**
 * The services as a process builds them, on `database`, for the jobs the tests start: no
 * provider unless `env` names one, the test secrets.
 */
export function servicesOn(
  database: Pick<Database, 'db' | 'pool'>,
  env: NodeJS.ProcessEnv = {},
  clock?: () => Date,
): Services {
  const config = loadConfig({
    // A folder of its own: the jobs' daily backup catches up soon after they start.
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'kanak-services-')),
    LOG_LEVEL: 'silent',
    ...NO_PROVIDER,
    ...env,
  });
  return createServices(config, { database, secrets: TEST_SECRETS, replica: false, clock });
}

export interface TestDatabase {
  url: string;
  /** Runs raw SQL on this database. */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/**
 * A database of this file's own (a copy of the migrated template), for server processes;
 * `empty` for one that the server under test migrates itself.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `kanak_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
  if (options.empty)
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  else await createDatabaseFromTemplate(adminUrl, name);
  const url = withDatabase(adminUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // pool.end() does not wait for its connections to close, so the DROP ... WITH (FORCE) below
  // can reach one still open, whose "terminating connection" would be an uncaught error.
  pool.on('error', () => undefined);
  return {
    url,
    sql: async (text, values) => (await pool.query(text, values)).rows,
    async drop() {
      await pool.end();
      await withClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

async function createDatabaseFromTemplate(adminUrl: string, name: string) {
  const template = inject('templateDatabase');
  for (let attempt = 0; ; attempt++) {
    try {
      await withClient(adminUrl, (client) =>
        client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`),
      );
      return;
    } catch (error) {
      // Two files copying the template at the same moment: "source database is being accessed".
      if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
      await sleep(100 + Math.random() * 200);
    }
  }
}

/** A staff account; an owner unless a role is given, so that every call is open to it. */
export async function addUser(
  ctx: TestContext,
  username: string,
  password: string,
  role: Role = 'owner',
) {
  return createUsersService({ db: ctx.database.db }).addUser(null, username, password, role);
}

/**
 * A staff account of `role` in `branch` (the first branch unless named) with a session token of
 * its own, made without a sign-in (sign-ins are rate limited per address).
 */
export async function staffSession(
  ctx: TestContext,
  username: string,
  role: Role,
  branch?: string,
) {
  const user = await createUsersService({ db: ctx.database.db }).addUser(
    null,
    username,
    'Counter@2026x',
    role,
    branch,
  );
  return { user, token: ctx.app.signSessionToken(user, false) };
}

export async function login(
  ctx: TestContext,
  username: string,
  password: string,
  stayLoggedIn = false,
) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/login/verify',
    payload: { USERNAME: username, PASSWORD: password, stayLoggedIn },
    remoteAddress: `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  const body = response.json<{ accessToken?: string }>();
  if (!body.accessToken) throw new Error(`login failed: ${response.body}`);
  return body.accessToken;
}

/** An authenticated request; mutating calls get a fresh Idempotency-Key unless one is given. */
export function authed(
  token: string,
  options: InjectOptions & { idempotencyKey?: string },
): InjectOptions {
  const { idempotencyKey, headers, ...rest } = options;
  return {
    ...rest,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.method && options.method !== 'GET'
        ? { 'idempotency-key': idempotencyKey ?? randomUUID() }
        : {}),
      ...headers,
    },
  };
}

export interface SignedIn extends TestContext {
  /** The signed-in staff member. */
  username: string;
  password: string;
  /** Their bearer token. */
  token: string;
  /** A request as them; a mutating call gets a fresh Idempotency-Key unless one is given. */
  inject(options: InjectOptions & { idempotencyKey?: string }): Promise<LightMyRequestResponse>;
  /** POST `payload` to `url` as them. */
  post(url: string, payload?: unknown, idempotencyKey?: string): Promise<LightMyRequestResponse>;
}

export interface SignedInOptions {
  /** Environment of the app (INSTALLMENTS, BONUS_PERCENT...). */
  env?: NodeJS.ProcessEnv;
  /** The app's clock. */
  clock?: () => Date;
  /** The staff member's username (`<role>1` unless given). */
  username?: string;
  password?: string;
}

/**
 * This file's own database and app, with a staff member of `role` (the owner unless given)
 * signed in: `const { inject, post, token } = await signedIn('cashier')`.
 */
export async function signedIn(
  role: Role = 'owner',
  { env, clock, username = `${role}1`, password = 'Kanak@1928x' }: SignedInOptions = {},
): Promise<SignedIn> {
  const ctx = await createTestContext(env, clock);
  await addUser(ctx, username, password, role);
  const token = await login(ctx, username, password);
  return {
    ...ctx,
    username,
    password,
    token,
    inject: (options) => ctx.app.inject(authed(token, options)),
    post: (url, payload, idempotencyKey) =>
      ctx.app.inject(
        authed(token, { method: 'POST', url, payload: payload as object, idempotencyKey }),
      ),
  };
}

/**
 * A customer's points balance, from their points account: by id, or by mobile number (no
 * customer with that number: undefined).
 */
export async function pointsBalance(
  database: Pick<TestDatabase, 'sql'>,
  customer: number | string,
): Promise<number | undefined> {
  const [row] = await database.sql<{ balance: number }>(
    typeof customer === 'number'
      ? `SELECT balance FROM points_accounts WHERE customer_id = $1`
      : `SELECT a.balance FROM points_accounts a JOIN customers c ON c.id = a.customer_id
          WHERE c.mobileno = $1`,
    [customer],
  );
  return row === undefined ? undefined : Number(row.balance);
}

/** The reason the owner gives for a scheme entry dated further back than staff may date one. */
export const LATE_ENTRY_REASON = 'Paper slip entered late';

/**
 * What the owner adds to a scheme's start, activation or installment dated `date` when the
 * scheme screens ask for a reason (on the app's clock `now`): fixtures entering old schemes as
 * the owner send it, as the screen does; a recent date needs none.
 */
export function lateEntryReason(date: unknown, now: Date = new Date()) {
  return typeof date === 'string' && needsBackdateReason(date, todayIn('Asia/Kolkata', now))
    ? { backdateReason: LATE_ENTRY_REASON }
    : {};
}

/** Noon of `isoDate` in Kolkata: a moment on that day whatever the machine's time zone. */
export const noonOf = (isoDate: string) => new Date(`${isoDate}T12:00:00+05:30`);

/**
 * The app's clock for a test file, showing noon of `today` until a test moves it. The app
 * stamps what is entered with the day its clock shows, so a fixture entered "on" an old date
 * moves the clock there for that work and back after it.
 */
export function movableClock(today: string) {
  let now = noonOf(today);
  return {
    /** Hand this to the app (`clock`). */
    now: () => now,
    /** Moves the clock to noon of a day, or to an exact moment. */
    set(at: string | Date) {
      now = typeof at === 'string' ? noonOf(at) : at;
    },
    /** Back to noon of `today`. */
    reset() {
      now = noonOf(today);
    },
    /** `work` done on `date`, the clock moved there and back: entered at the counter that day. */
    async enteredOn<T>(date: string, work: () => Promise<T>): Promise<T> {
      const before = now;
      now = noonOf(date);
      try {
        return await work();
      } finally {
        now = before;
      }
    },
  };
}
