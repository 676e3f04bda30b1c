/**
 * The security review's own tests (docs/security.md cites each by its title). Requirements
 * already proved by a module's tests are cited there, not repeated here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES, passesVerhoeff } from '@kanak/contract';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createFieldCipher } from '../lib/crypto.js';
import { resolveSecrets } from '../lib/secrets.js';
import { createUsersService } from '../modules/users/users.service.js';
import {
  addUser,
  authed,
  createTestContext,
  login,
  TEST_SECRETS,
  type TestContext,
} from '../../test/helpers.js';
import { pathSpellings, rawRequest } from '../../test/raw-http.js';

let ctx: TestContext;
/** Same database, its own app: logs into `logText`, serves a web app from `webDist`. */
let logged: FastifyInstance;
/** Same database, behind a trusted TLS-terminating proxy. */
let proxied: FastifyInstance;
let logText = '';
let webDist: string;
let token: string;

async function appWith(env: NodeJS.ProcessEnv, logger?: pino.Logger) {
  const app = await buildApp({
    config: loadConfig({
      DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'kanak-sec-')),
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent',
      ...env,
    }),
    db: ctx.database.db,
    pool: ctx.database.pool,
    secrets: TEST_SECRETS,
    logger,
  });
  await app.ready();
  return app;
}

beforeAll(async () => {
  ctx = await createTestContext();
  // A web app folder, with a file beside it that must never be served.
  const root = await mkdtemp(path.join(os.tmpdir(), 'kanak-sec-web-'));
  webDist = path.join(root, 'dist');
  await mkdir(path.join(webDist, 'assets'), { recursive: true });
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Kanak</title>');
  await writeFile(path.join(webDist, 'assets', 'app-1a2b.js'), 'console.log(1)');
  await writeFile(path.join(webDist, 'assets', 'app-1a2b.js.map'), '{"sources":["App.tsx"]}');
  await writeFile(path.join(root, 'secret.txt'), 'not for the web');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logText += chunk.toString();
      done();
    },
  });
  logged = await appWith({ WEB_DIST: webDist }, pino({ level: 'trace' }, sink));
  proxied = await appWith({ TRUST_PROXY: 'true' });
  await addUser(ctx, 'meera', 'Meera@1928');
  token = await login(ctx, 'meera', 'Meera@1928');
});
afterAll(async () => {
  await logged?.close();
  await proxied?.close();
  await ctx.close();
});

let nextAddress = 1;
/** Each from its own address, so that the per-address limit stays out of the way. */
const signIn = (USERNAME: string, PASSWORD: string, app = ctx.app) =>
  app.inject({
    method: 'POST',
    url: '/api/login/verify',
    payload: { USERNAME, PASSWORD },
    remoteAddress: `10.7.${Math.floor(nextAddress / 250)}.${nextAddress++ % 250}`,
  });

const call = (options: InjectOptions & { idempotencyKey?: string }, app = ctx.app) =>
  app.inject(authed(token, options));

const changePassword = (bearer: string, payload: Record<string, string>) =>
  ctx.app.inject(authed(bearer, { method: 'POST', url: '/api/user/update-current-user', payload }));

const passwordHashOf = async (username: string) =>
  (
    await ctx.sql<{ password_hash: string }>(
      `SELECT password_hash FROM users WHERE username = $1`,
      [username],
    )
  )[0]?.password_hash;

const decodeJwt = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** The 12-digit number with this 11-digit prefix that passes the Verhoeff check. */
const aadhaarFrom = (prefix: string) =>
  prefix + [...'0123456789'].find((digit) => passesVerhoeff(prefix + digit))!;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Waits for a line the app logs after the response has gone (onResponse hooks). */
async function waitForLog(text: string) {
  for (let i = 0; i < 50 && !logText.includes(text); i++) {
    await sleep(20);
  }
  return logText;
}

describe('V2 authentication', () => {
  it('hashes passwords with argon2id at OWASP’s minimum (m=19 MiB, t=2, p=1)', async () => {
    expect(await passwordHashOf('meera')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a well-known password at password change and in the users CLI, changing nothing', async () => {
    await addUser(ctx, 'kiran', 'Kiran@1928');
    const before = await passwordHashOf('kiran');
    const session = await login(ctx, 'kiran', 'Kiran@1928');
    for (const newpassword of ['Password123', 'qwerty123', 'iloveyou1', '1234567890']) {
      const response = await changePassword(session, {
        username: 'kiran',
        oldpassword: 'Kiran@1928',
        newpassword,
      });
      expect(response.statusCode, newpassword).toBe(400);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.passwordTooCommon });
    }
    const users = createUsersService({ db: ctx.database.db });
    await expect(users.setPassword(null, 'kiran', 'letmein123')).rejects.toThrow(
      MESSAGES.passwordTooCommon,
    );
    await expect(users.addUser(null, 'newbie', 'password1')).rejects.toThrow(
      MESSAGES.passwordTooCommon,
    );
    expect(await passwordHashOf('kiran')).toBe(before);
    expect(await passwordHashOf('newbie')).toBeUndefined();
  });

  it('takes any characters, spaces and emoji in a password, and never truncates it', async () => {
    const password = 'नमस्ते 🙂 ab'; // 12 UTF-16 units
    await addUser(ctx, 'tara', password);
    expect((await signIn('tara', password)).statusCode).toBe(200);
    expect((await signIn('tara', password.slice(0, -1))).statusCode).toBe(401);
    expect((await signIn('tara', `${password}c`)).statusCode).toBe(401);
  });

  it('refuses a huge PASSWORD at sign-in with 400 before hashing anything', async () => {
    const response = await signIn('meera', 'x'.repeat(100_000));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Password must be at most 128 characters.');
  });

  it('answers an unknown username as slowly as a wrong password (no user enumeration by timing)', async () => {
    // Two failures per user stay below the lockout, which would answer without hashing.
    for (let i = 0; i < 4; i++) await addUser(ctx, `timing${i}`, `Timing@192${i}`);
    const timed = async (username: string) => {
      const started = performance.now();
      const response = await signIn(username, 'Wrong@19280');
      expect(response.statusCode).toBe(401);
      return performance.now() - started;
    };
    await timed('warm-up-unknown'); // the decoy hash is made on first use
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 8; i++) {
      wrong.push(await timed(`timing${i % 4}`));
      unknown.push(await timed(`nobody${i}`));
    }
    // Without the decoy, an unknown name answers in ~2 ms against ~30 ms for a wrong password.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.5);
    expect(median(unknown) / median(wrong)).toBeLessThan(2);
  });

  it('allows 10 password-change attempts per user in 15 minutes, then 429, even with the right old password', async () => {
    await addUser(ctx, 'guess', 'Guess@19280');
    await addUser(ctx, 'other', 'Other@19280');
    const session = await login(ctx, 'guess', 'Guess@19280');
    const before = await passwordHashOf('guess');
    for (let i = 0; i < LIMITS.passwordChangeAttemptsPerUserPer15Minutes; i++) {
      const response = await changePassword(session, {
        username: 'guess',
        oldpassword: `Guess@${i}000`,
        newpassword: 'Fresh@19280',
      });
      expect(response.json().message).toBe(MESSAGES.oldPasswordIncorrect);
    }
    const limited = await changePassword(session, {
      username: 'guess',
      oldpassword: 'Guess@19280',
      newpassword: 'Fresh@19280',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ success: false, message: MESSAGES.tooManyRequests });
    expect(await passwordHashOf('guess')).toBe(before);
    // Another user, from the same address, is not held back.
    const other = await changePassword(await login(ctx, 'other', 'Other@19280'), {
      username: 'other',
      oldpassword: 'Other@19280',
      newpassword: 'Fresh@19280',
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('V3 session management', () => {
  it('gives every sign-in a token of its own, with a random jti', async () => {
    const [first, second] = [
      await login(ctx, 'meera', 'Meera@1928'),
      await login(ctx, 'meera', 'Meera@1928'),
    ];
    expect(first).not.toBe(second);
    expect(decodeJwt(first).jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(decodeJwt(first).jti).not.toBe(decodeJwt(second).jti);
  });

  it('refuses a token signed with alg none, another HMAC algorithm or an RSA key, whatever its claims', async () => {
    const claims = { ...decodeJwt(token) };
    delete claims.iat;
    delete claims.exp;
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, exp: Date.now() / 1000 + 600 })}.`;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = [
      unsigned,
      createSigner({ algorithm: 'HS512', key: TEST_SECRETS.jwtSecret })(claims),
      createSigner({ algorithm: 'HS384', key: TEST_SECRETS.jwtSecret })(claims),
      createSigner({
        algorithm: 'RS256',
        key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      })(claims),
    ];
    const customers = (bearer: string) =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/customers/get-all-customers?search=98',
        headers: { authorization: `Bearer ${bearer}` },
      });
    for (const jwt of forged) {
      const response = await customers(jwt);
      expect(response.statusCode, jwt).toBe(401);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
    }
    // The same claims signed as the server signs them pass: the refusals were about the algorithm.
    const genuine = createSigner({
      algorithm: 'HS256',
      key: TEST_SECRETS.jwtSecret,
      expiresIn: 600_000,
    })(claims);
    expect((await customers(genuine)).statusCode).toBe(200);
  });

  it('refuses the token of a disabled user, even when its token version is current', async () => {
    await addUser(ctx, 'leaver', 'Leaver@1928');
    const session = await login(ctx, 'leaver', 'Leaver@1928');
    const probe = () =>
      ctx.app.inject(authed(session, { method: 'GET', url: '/api/customers/get-fyear' }));
    expect((await probe()).statusCode).toBe(200);
    await ctx.sql(`UPDATE users SET disabled_at = now() WHERE username = 'leaver'`);
    expect((await probe()).statusCode).toBe(401);
  });

  it('reads the token only from the Authorization header, never from the URL or a cookie', async () => {
    for (const options of [
      { url: `/api/customers/get-fyear?token=${token}` },
      { url: `/api/customers/get-fyear?access_token=${token}` },
      { url: '/api/customers/get-fyear', headers: { cookie: `token=${token}` } },
      { url: '/api/customers/get-fyear', headers: { authorization: token } },
    ]) {
      const response = await ctx.app.inject({ method: 'GET', ...options });
      expect(response.statusCode, JSON.stringify(options)).toBe(401);
    }
  });

  it('sets no cookie: the session lives in the Authorization header only', async () => {
    const response = await signIn('meera', 'Meera@1928');
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  describe('logout', () => {
    const logout = (bearer: string) =>
      ctx.app.inject(authed(bearer, { method: 'POST', url: '/api/logout' }));
    const fyear = (bearer: string) =>
      ctx.app.inject(authed(bearer, { method: 'GET', url: '/api/customers/get-fyear' }));
    const logoutsOf = (username: string) =>
      ctx.sql<{ detail: unknown }>(
        `SELECT a.detail FROM audit_log a JOIN users u ON u.id = a.user_id
         WHERE a.action = 'user.logout' AND u.username = $1 ORDER BY a.id`,
        [username],
      );

    it('ends the token on the server: it gets 401 afterwards, another session of the same user works on', async () => {
      await addUser(ctx, 'counter1', 'Counter@1928');
      const [ending, other] = [
        await login(ctx, 'counter1', 'Counter@1928'),
        await login(ctx, 'counter1', 'Counter@1928'),
      ];
      expect((await fyear(ending)).statusCode).toBe(200);

      const response = await logout(ending);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ success: true, message: MESSAGES.loggedOut });

      const refused = await fyear(ending);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
      expect((await fyear(other)).statusCode).toBe(200);
      const [ended] = await ctx.sql<{ jti: string; expires_at: Date }>(
        `SELECT jti, expires_at FROM ended_sessions e JOIN users u ON u.id = e.user_id
         WHERE u.username = 'counter1'`,
      );
      const claims = decodeJwt(ending);
      expect(ended).toEqual({ jti: claims.jti, expires_at: new Date(Number(claims.exp) * 1000) });
      expect(await logoutsOf('counter1')).toEqual([{ detail: { tokenEnded: true } }]);
    });

    it('takes a second logout of the same token harmlessly: 401, nothing more recorded', async () => {
      await addUser(ctx, 'counter2', 'Counter@1928');
      const session = await login(ctx, 'counter2', 'Counter@1928');
      expect((await logout(session)).statusCode).toBe(200);
      const again = await logout(session);
      expect(again.statusCode).toBe(401);
      expect(again.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
      // Two logouts racing each other both pass the door; the second records nothing.
      const racing = await login(ctx, 'counter2', 'Counter@1928');
      const statuses = (await Promise.all([logout(racing), logout(racing)])).map(
        (r) => r.statusCode,
      );
      expect(statuses.every((status) => status === 200 || status === 401)).toBe(true);
      expect(await logoutsOf('counter2')).toHaveLength(2);
      const [{ n }] = (await ctx.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM ended_sessions e JOIN users u ON u.id = e.user_id
         WHERE u.username = 'counter2'`,
      )) as [{ n: number }];
      expect(n).toBe(2);
    });

    it('refuses logout without a token or with a bad one with 401, recording nothing', async () => {
      const before = await ctx.sql(`SELECT count(*)::int AS n FROM ended_sessions`);
      for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
        const response = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
      }
      expect(await ctx.sql(`SELECT count(*)::int AS n FROM ended_sessions`)).toEqual(before);
    });

    it('checks for an ended token in the same query that loads the user (no extra round trip)', async () => {
      const queries: string[] = [];
      const pool = ctx.database.pool;
      const original = pool.query.bind(pool);
      pool.query = ((...args: Parameters<typeof pool.query>) => {
        const first = args[0] as unknown as string | { text: string };
        queries.push(typeof first === 'string' ? first : first.text);
        return original(...args);
      }) as typeof pool.query;
      try {
        expect((await fyear(token)).statusCode).toBe(200);
      } finally {
        pool.query = original;
      }
      // get-fyear reads nothing: the one query is the session check.
      expect(queries).toHaveLength(1);
      expect(queries[0]).toMatch(
        /from "users" where .*not exists \(select .* from "ended_sessions"/i,
      );
    });

    it('keeps accepting a token without jti (signed before logout ended tokens) until it expires', async () => {
      await addUser(ctx, 'counter3', 'Counter@1928');
      const claims = decodeJwt(await login(ctx, 'counter3', 'Counter@1928'));
      delete claims.jti;
      delete claims.iat;
      const legacy = createSigner({ algorithm: 'HS256', key: TEST_SECRETS.jwtSecret })(claims);
      expect((await logout(legacy)).statusCode).toBe(200);
      expect((await fyear(legacy)).statusCode).toBe(200);
      expect(await logoutsOf('counter3')).toEqual([{ detail: { tokenEnded: false } }]);
    });

    it('forgets ended tokens that have expired anyway, at the next logout', async () => {
      await addUser(ctx, 'counter4', 'Counter@1928');
      await ctx.sql(
        `INSERT INTO ended_sessions (jti, user_id, expires_at)
         SELECT 'expired-long-ago', id, now() - interval '2 hours' FROM users WHERE username = 'counter4'
         UNION ALL
         SELECT 'expired-just-now', id, now() - interval '1 minute' FROM users WHERE username = 'counter4'`,
      );
      expect((await logout(await login(ctx, 'counter4', 'Counter@1928'))).statusCode).toBe(200);
      const left = await ctx.sql<{ jti: string }>(
        `SELECT jti FROM ended_sessions WHERE jti LIKE 'expired-%' ORDER BY jti`,
      );
      // An hour's grace, for a server clock behind the database's.
      expect(left).toEqual([{ jti: 'expired-just-now' }]);
    });
  });
});

describe('V4 access control', () => {
  /** `logged` serves the web app too, so its page fallback is in play for every spelling. */
  let port: number;
  beforeAll(async () => {
    await logged.listen({ port: 0, host: '127.0.0.1' });
    port = (logged.server.address() as AddressInfo).port;
  });
  const send = (method: string, target: string, headers: Record<string, string> = {}) =>
    rawRequest(port, {
      method,
      target,
      ...(method === 'GET'
        ? { headers }
        : { headers: { 'content-type': 'application/json', ...headers }, body: '{}' }),
    });

  it('answers the reported ways round sign-in with 401 and no data', async () => {
    const answers = [
      await send('GET', '/%61pi/customers/download-customer-data?format=csv'),
      await send('GET', '/%61pi/social/get-panel-config'),
      await send('GET', '/ap%69/customers/get-fyear'),
      await send('GET', 'http://x/api/social/get-panel-config'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ success: false, message: MESSAGES.sessionExpired });
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    // And the line that makes the refusals traceable.
    expect(await waitForLog('GET /api/social/get-panel-config')).toContain('session refused');
  });

  it('refuses every route that is not public without a token however its path is spelled: 401 where the router takes it for the route, else 404', async () => {
    const routes = logged.registeredRoutes.filter((route) => !route.public);
    expect(routes.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, '1');
      for (const { target, reachesRoute } of pathSpellings(path)) {
        const answer = await send(route.method, target);
        const allowed = reachesRoute ? [401] : [401, 404];
        const where = `${route.method} ${target} -> ${answer.status}`;
        if (!allowed.includes(answer.status))
          problems.push(`${where}: ${answer.body.slice(0, 80)}`);
        else if (answer.headers['cache-control'] !== 'no-store')
          problems.push(`${where}: cacheable`);
        else if (JSON.parse(answer.body).success !== false) problems.push(`${where}: no refusal`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('serves the public routes and the web app by whatever spelling the router reads as theirs', async () => {
    const health = await send('GET', '/%61pi/health');
    expect(health.status).toBe(200);
    const page = await send('GET', '/home/customer-profile');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Kanak</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    // An API path written so that no route takes it is an unknown API path, not the app shell.
    for (const target of ['//api//customers/get-fyear', '/API/customers/get-fyear', '/%2561pi/x']) {
      expect((await send('GET', target)).status, target).toBe(404);
    }
  });
});

describe('V5 validation', () => {
  it('refuses a JSON body that carries __proto__ with 400, polluting nothing', async () => {
    for (const body of [
      '{"USERNAME":"meera","PASSWORD":"Meera@1928","__proto__":{"polluted":true}}',
      '{"USERNAME":"meera","PASSWORD":"Meera@1928","constructor":{"prototype":{"polluted":true}}}',
    ]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/login/verify',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect(response.statusCode, body).toBe(400);
      expect(response.json().success).toBe(false);
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('refuses a text/plain body with 415, as any body that is not JSON', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/customers/get-customer-data',
      payload: '{"mobileno":"9811100001"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.unsupportedContentType });
  });

  it('treats SQL typed into a search as text', async () => {
    for (const search of ["' OR '1'='1", "x'; DROP TABLE customers; --", '1 OR 1=1']) {
      const response = await call({
        method: 'GET',
        url: '/api/customers/get-all-customers',
        query: { search },
      });
      expect(response.statusCode, search).toBe(200);
      expect(response.json().data, search).toEqual([]);
    }
    expect(await ctx.sql(`SELECT count(*)::int AS n FROM customers`)).toEqual([{ n: 0 }]);
  });

  it('refuses a repeated query parameter (HTTP parameter pollution) with 400', async () => {
    const response = await call({
      method: 'GET',
      url: '/api/customers/get-all-customers?search=98&search=Shah',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
  });

  it('ignores fields a form does not have: a customer save cannot set points or authors', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/customers/update-customer-data',
      payload: {
        formData: {
          mobileno: '9811100001',
          custname: 'Mass Assignment',
          points: 50_000,
          points_balance: 50_000,
          pointsBalance: 50_000,
          created_by: 999,
          createdBy: 999,
        },
      },
    });
    expect(response.statusCode).toBe(200);
    const [row] = await ctx.sql(
      `SELECT a.balance AS points_balance,
              c.created_by = (SELECT id FROM users WHERE username = 'meera') AS by_caller
         FROM customers c JOIN points_accounts a ON a.customer_id = c.id
        WHERE c.mobileno = '9811100001'`,
    );
    expect(row).toEqual({ points_balance: 0, by_caller: true });
  });
});

describe('V7 logging and errors', () => {
  it('logs sign-ins and a customer save without the password, the token, the Aadhaar number or the search', async () => {
    logText = '';
    const password = 'Lekha#Secret1';
    await addUser(ctx, 'lekha', password);
    const signedIn = await signIn('lekha', password, logged);
    const jwt = signedIn.json<{ accessToken: string }>().accessToken;
    await signIn('lekha', 'Wrong#Guess99', logged);
    const aadhaar = aadhaarFrom('52347890123');
    const saved = await logged.inject(
      authed(jwt, {
        method: 'POST',
        url: '/api/customers/update-customer-data',
        payload: {
          formData: {
            mobileno: '9822200002',
            custname: 'Logged Customer',
            aadhaar,
            pan: 'LOGGD1234Q',
          },
        },
      }),
    );
    expect(saved.statusCode).toBe(200);
    await logged.inject(
      authed(jwt, {
        method: 'POST',
        url: '/api/social/panel-setup',
        payload: {
          formData: {
            instanceid: 'inst-1',
            token: 'panel-token-secret-77',
            panel: 1,
            phone: '9833300003',
          },
        },
      }),
    );
    await logged.inject(
      authed(jwt, { method: 'GET', url: '/api/customers/get-all-customers?search=9822200' }),
    );
    await logged.inject({ method: 'GET', url: '/api/customers/get-fyear' });
    const text = await waitForLog('session refused');

    // The log is there: who signed in, who failed, who did what, what was refused.
    expect(text).toContain('"url":"/api/customers/get-all-customers?search=*"');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'sign-in', user: 'lekha', status: 200 }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'sign-in refused', user: 'lekha', status: 401 }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'session refused', route: 'GET /api/customers/get-fyear' }),
    );
    const saveLine = lines.find(
      (line) =>
        (line.req as { url?: string } | undefined)?.url === '/api/customers/update-customer-data',
    );
    const finished = lines.filter(
      (line) => line.reqId === saveLine?.reqId && line.msg === 'request completed',
    );
    expect(finished).toEqual([expect.objectContaining({ user: 'lekha' })]);
    // And none of the secrets.
    for (const secret of [
      password,
      'Wrong#Guess99',
      jwt,
      jwt.split('.')[2]!,
      aadhaar,
      'panel-token-secret-77',
      '9822200',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('names a refused request that matched no route by its path without digits: no mobile number in the log', async () => {
    logText = '';
    const refused = await logged.inject({
      method: 'POST',
      url: '/api/customers/9822277777',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(refused.statusCode).toBe(400);
    const text = await waitForLog('input refused');
    expect(text).toContain('"route":"POST /api/customers/#"');
    expect(text).not.toContain('9822277777');
  });

  it('answers an unexpected database error with 500 and a request id, and logs it without the statement’s values', async () => {
    await ctx.sql(`
      CREATE FUNCTION test_refuse_customers() RETURNS trigger LANGUAGE plpgsql
        AS $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$;
      CREATE TRIGGER test_refuse_customers BEFORE INSERT ON customers
        FOR EACH ROW EXECUTE FUNCTION test_refuse_customers();`);
    try {
      logText = '';
      const jwt = (await signIn('meera', 'Meera@1928', logged)).json().accessToken as string;
      const response = await logged.inject(
        authed(jwt, {
          method: 'POST',
          url: '/api/customers/update-customer-data',
          // The client's own id is logged beside the server's, never in its place.
          headers: { 'x-request-id': 'forged"id {level:60} <b>' },
          payload: {
            formData: {
              mobileno: '9844400004',
              custname: 'Failing Save',
              email: 'failing.save@example.in',
              pan: 'FAILS1234Z',
              aadhaar: aadhaarFrom('61234567890'),
            },
          },
        }),
      );
      expect(response.statusCode).toBe(500);
      const body = response.json();
      expect(body).toEqual({
        success: false,
        message: MESSAGES.serverError,
        requestId: expect.any(String),
      });
      const text = await waitForLog('unhandled error');
      const line = text.split('\n').find((l) => l.includes('unhandled error'))!;
      expect(body.requestId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      expect(JSON.parse(line)).toMatchObject({
        reqId: body.requestId,
        clientRequestId: 'forged_id__level:60___b_',
        level: 50,
      });
      expect(line).toContain('simulated failure');
      expect(line).toContain('params: [redacted]');
      for (const value of ['9844400004', 'Failing Save', 'failing.save@example.in', 'FAILS1234Z']) {
        expect(text).not.toContain(value);
      }
    } finally {
      await ctx.sql(`DROP TRIGGER test_refuse_customers ON customers;
                     DROP FUNCTION test_refuse_customers();`);
    }
  });
});

describe('V7 a client that hangs up', () => {
  it('logs a body cut off by its client at info level, not as the database being away', async () => {
    await logged.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const { port } = logged.server.address() as AddressInfo;
    const jwt = (await signIn('meera', 'Meera@1928', logged)).json().accessToken as string;
    logText = '';
    for (const [target, type] of [
      ['/api/customers/update-customer-data', 'application/json'],
      ['/api/file/upload', 'multipart/form-data; boundary=cut'],
    ] as const) {
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST ${target} HTTP/1.1\r\nHost: kanak.test\r\nAuthorization: Bearer ${jwt}\r\n` +
          `Idempotency-Key: ${randomUUID()}\r\nContent-Type: ${type}\r\n` +
          `Content-Length: 100000\r\n\r\n${type.startsWith('multipart') ? '--cut\r\n' : '{"formData": {'}`,
      );
      await sleep(100);
      socket.destroy();
      await waitForLog('client closed the request');
      logText = logText.replace('client closed the request', 'seen');
    }
    await sleep(200);
    const lines = logText
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.msg === 'seen before its body arrived')).toHaveLength(2);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(logText).not.toContain('database unavailable');
    // The log is at trace level here, where the multipart parser logs the request's headers.
    expect(logText).toContain('busboyOptions');
    expect(logText).not.toContain(jwt.split('.')[2]!);
  });
});

describe('V8 data protection', () => {
  it('refuses to open a sealed value that was changed, and a DATA_KEY of the wrong length', () => {
    const cipher = createFieldCipher(TEST_SECRETS.dataKey);
    const sealed = cipher.encrypt('234123412346');
    expect(cipher.decrypt(sealed)).toBe('234123412346');
    const parts = sealed.split(':');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0]! ^= 1;
    const changed = [...parts.slice(0, 3), body.toString('base64url')].join(':');
    expect(() => cipher.decrypt(changed)).toThrow();
    expect(() => createFieldCipher('11'.repeat(16))).toThrow(/32 bytes/);
  });

  it('keeps API answers out of every cache: data, errors and the sign-in token get no-store', async () => {
    const answers = [
      await signIn('meera', 'Meera@1928'),
      await call({ method: 'GET', url: '/api/customers/get-all-customers?search=98' }),
      await call({ method: 'GET', url: '/api/customers/download-customer-data?format=csv' }),
      await call({ method: 'GET', url: '/api/social/get-panel-config' }),
      await ctx.app.inject({ method: 'GET', url: '/api/customers/get-fyear' }),
      await call({ method: 'GET', url: '/api/no-such-thing' }),
      await ctx.app.inject({ method: 'GET', url: '/api/health' }),
    ];
    for (const response of answers) {
      expect(response.headers['cache-control'], response.body.slice(0, 80)).toBe('no-store');
    }
    // Routes that choose to be cached keep their choice.
    const content = await ctx.app.inject({ method: 'GET', url: '/api/app/content' });
    expect(content.headers['cache-control']).toBe('no-cache');
  });

  it('marks every JSON answer of the API as a download (a tab never renders it)', async () => {
    const json = await call({ method: 'GET', url: '/api/customers/get-fyear' });
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toBe('attachment; filename="api.json"');
    const refused = await ctx.app.inject({ method: 'GET', url: '/api/customers/get-fyear' });
    expect(refused.headers['content-disposition']).toBe('attachment; filename="api.json"');
  });
});

describe('V12 files', () => {
  /** A real GIF with an HTML page after its last byte: a classic polyglot. */
  const POLYGLOT = Buffer.concat([
    Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
    Buffer.from('<html><script>alert(document.domain)</script></html>'),
  ]);

  it('serves an uploaded image that hides HTML as an image, never as a page', async () => {
    const form = new FormData();
    form.append('type', 'banner');
    form.append('file', new Blob([new Uint8Array(POLYGLOT)], { type: 'text/html' }), 'page.html');
    const request = new Request('http://kanak.test/', { method: 'POST', body: form });
    const uploaded = await call({
      method: 'POST',
      url: '/api/file/upload',
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    expect(uploaded.statusCode).toBe(200);
    const served = await ctx.app.inject({ method: 'GET', url: uploaded.json().data.URL });
    expect(served.headers['content-type']).toBe('image/gif');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain("script-src 'self'");
    expect(served.headers['content-security-policy']).toContain("object-src 'none'");
    expect(served.rawPayload.equals(POLYGLOT)).toBe(true);
  });

  it('serves the built scripts but not their source maps', async () => {
    const script = await logged.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
    expect(script.statusCode).toBe(200);
    const map = await logged.inject({ method: 'GET', url: '/assets/app-1a2b.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('App.tsx');
  });

  it('serves no file from outside the web app’s folder, however the path is written', async () => {
    for (const url of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/',
    ]) {
      const response = await logged.inject({ method: 'GET', url });
      expect(response.body, url).not.toContain('not for the web');
      expect(response.body, url).not.toMatch(/index of|<a href/i);
    }
  });
});

describe('V14 configuration and headers', () => {
  it('sends the browser-hardening headers on API answers and reveals no server software', async () => {
    for (const response of [
      await call({ method: 'GET', url: '/api/customers/get-fyear' }),
      await ctx.app.inject({ method: 'GET', url: '/api/customers/get-fyear' }),
    ]) {
      const headers = response.headers;
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['content-security-policy']).toContain("default-src 'self'");
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(headers['x-powered-by']).toBeUndefined();
      expect(headers.server).toBeUndefined();
    }
    // The public content is meant for the mobile app and other sites.
    const open = await ctx.app.inject({ method: 'GET', url: '/api/app/content' });
    expect(open.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('grants no other site CORS access: a preflight and a cross-origin call get no Allow-Origin', async () => {
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/customers/get-all-customers',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    // No route answers OPTIONS; what matters is the missing permission below.
    expect(preflight.statusCode).toBe(404);
    const crossOrigin = await call({
      method: 'GET',
      url: '/api/customers/get-fyear',
      headers: { origin: 'https://evil.example' },
    });
    for (const response of [preflight, crossOrigin]) {
      expect(
        Object.keys(response.headers).filter((name) => name.startsWith('access-control-')),
      ).toEqual([]);
    }
  });

  it('sends HSTS only to requests that came over HTTPS through a trusted proxy', async () => {
    const get = (app: FastifyInstance, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/api/health', headers });
    const https = await get(proxied, { 'x-forwarded-proto': 'https' });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect((await get(proxied)).headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY the header is anyone's to forge, so it counts for nothing.
    const forged = await get(ctx.app, { 'x-forwarded-proto': 'https' });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps generated secrets in a file only its owner can read, and never writes given ones', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kanak-secrets-'));
    const given = randomUUID() + randomUUID();
    const secrets = await resolveSecrets(dir, { jwtSecret: given });
    const file = path.join(dir, 'secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    expect(Object.keys(stored).sort()).toEqual(['dataKey', 'embeddedDbPassword']);
    expect(await readFile(file, 'utf8')).not.toContain(given);
    expect(secrets.dataKey).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(stored.embeddedDbPassword!, 'base64url').length).toBe(24);
  });
});
