import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigner } from 'fast-jwt';
import { MESSAGES, POS_MESSAGES } from '@kanak/contract';
import {
  addUser,
  authed,
  createTestContext,
  login,
  TEST_SECRETS,
  type TestContext,
} from '../../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx, 'meera', 'Meera@1928');
});
afterAll(() => ctx.close());

let nextAddress = 1;
/** Each attempt from its own address unless one is named: the address's own limits stay out of play. */
const signIn = (
  USERNAME: string,
  PASSWORD: string,
  extra: Record<string, unknown> = {},
  remoteAddress = `10.0.${nextAddress >> 8}.${nextAddress++ & 255}`,
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/login/verify',
    payload: { USERNAME, PASSWORD, ...extra },
    remoteAddress,
  });

const lifetimeHours = (token: string) => {
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    iat: number;
    exp: number;
  };
  return (claims.exp - claims.iat) / 3600;
};

describe('POST /api/login/verify', () => {
  it('signs in with the right password and returns a 12-hour token', async () => {
    const response = await signIn('meera', 'Meera@1928');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, username: 'meera' });
    expect(lifetimeHours(body.accessToken)).toBe(12);
  });

  it('gives a 30-day token when "Stay logged in" is ticked', async () => {
    const body = (await signIn('meera', 'Meera@1928', { stayLoggedIn: true })).json();
    expect(lifetimeHours(body.accessToken)).toBe(30 * 24);
  });

  it('accepts the username in any case', async () => {
    expect((await signIn('MEERA', 'Meera@1928')).statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown user with the same 401 message', async () => {
    for (const response of [
      await signIn('meera', 'wrong-pass'),
      await signIn('nobody', 'whatever1'),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.invalidCredentials });
    }
  });

  it('refuses a body without credentials with a 400 naming the field', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/verify',
      payload: { USERNAME: 'meera' },
    });
    expect(response.statusCode).toBe(400);
    // Named as the sign-in screen names it, not by the body's key.
    expect(response.json().message).toBe('Password is required.');
  });

  it('locks an address out of a username after 5 failures, even for the right password, and not other users or addresses', async () => {
    await addUser(ctx, 'ravi', 'Ravi@19280');
    const from = '10.7.0.1';
    for (let i = 0; i < 5; i++)
      expect((await signIn('ravi', 'bad-password', {}, from)).statusCode).toBe(401);
    const locked = await signIn('ravi', 'Ravi@19280', {}, from);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(MESSAGES.accountLocked(15));
    expect((await signIn('meera', 'Meera@1928', {}, from)).statusCode).toBe(200);
    const [row] = await ctx.sql<{ minutes: number }>(
      `SELECT round(extract(epoch FROM locked_until - now()) / 60)::int AS minutes
         FROM login_address_lockouts WHERE username = 'ravi' AND address = '${from}'`,
    );
    expect(row?.minutes).toBe(15);
    expect((await signIn('ravi', 'Ravi@19280')).statusCode).toBe(200);
  });

  it('checks at most 5 of 15 wrong passwords sent at once from one address, then refuses the right one there until the lock ends', async () => {
    await addUser(ctx, 'burst', 'Burst@19280');
    const from = '10.7.0.2';
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => signIn('burst', 'Wrong@19280', {}, from)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // A 401 is a password that was checked and found wrong; a 429 was refused unchecked.
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const locked = await signIn('burst', 'Burst@19280', {}, from);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(MESSAGES.accountLocked(15));
    // When the lock period is over, the right password works and clears the count.
    await ctx.sql(
      `UPDATE login_address_lockouts SET window_started_at = now() - interval '31 minutes',
              locked_until = now() - interval '1 second' WHERE username = 'burst'`,
    );
    expect((await signIn('burst', 'Burst@19280', {}, from)).statusCode).toBe(200);
    expect(await ctx.sql(`SELECT * FROM login_address_lockouts WHERE username = 'burst'`)).toEqual(
      [],
    );
  });

  it('lets the fifth attempt in a window through to the password check, and the right password then clears the count', async () => {
    await addUser(ctx, 'fifth', 'Fifth@19280');
    const from = '10.7.0.3';
    for (let i = 0; i < 4; i++)
      expect((await signIn('fifth', 'bad-password', {}, from)).statusCode).toBe(401);
    expect((await signIn('fifth', 'Fifth@19280', {}, from)).statusCode).toBe(200);
    expect(await ctx.sql(`SELECT * FROM login_address_lockouts WHERE username = 'fifth'`)).toEqual(
      [],
    );
  });

  it('counts failures of a window that has passed afresh, and a success clears them', async () => {
    await addUser(ctx, 'asha', 'Asha@192800');
    const from = '10.7.0.4';
    for (let i = 0; i < 4; i++) await signIn('asha', 'bad-password', {}, from);
    await ctx.sql(
      `UPDATE login_address_lockouts SET window_started_at = now() - interval '16 minutes' WHERE username = 'asha'`,
    );
    await signIn('asha', 'bad-password', {}, from);
    expect((await signIn('asha', 'Asha@192800', {}, from)).statusCode).toBe(200);
    expect(
      await ctx.sql(`SELECT * FROM login_address_lockouts WHERE username = 'asha'`),
    ).toHaveLength(0);
  });

  it('allows 20 attempts a minute from one address, then answers 429', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await signIn(`user${i}`, 'whatever1', {}, '10.9.9.9')).statusCode).toBe(401);
    }
    const limited = await signIn('meera', 'Meera@1928', {}, '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ success: false, message: MESSAGES.tooManyRequests });
    expect((await signIn('meera', 'Meera@1928', {}, '10.9.9.10')).statusCode).toBe(200);
  });

  it('allows as many a minute as SIGN_IN_LIMIT_PER_MINUTE says', async () => {
    const shop = await createTestContext({ SIGN_IN_LIMIT_PER_MINUTE: '3' });
    try {
      const attempt = () =>
        shop.app.inject({
          method: 'POST',
          url: '/api/login/verify',
          payload: { USERNAME: 'nobody', PASSWORD: 'whatever1' },
          remoteAddress: '10.9.9.11',
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(429);
    } finally {
      await shop.close();
    }
  });

  it('refuses a disabled user', async () => {
    await addUser(ctx, 'gone', 'Gone@192800');
    await ctx.sql(`UPDATE users SET disabled_at = now() WHERE username = 'gone'`);
    expect((await signIn('gone', 'Gone@192800')).statusCode).toBe(401);
  });
});

describe('every API route needs a valid token unless it is public', () => {
  const PUBLIC = [
    'GET /api/health',
    'GET /api/ready',
    'GET /api/app/branding',
    'POST /api/login/verify',
    'GET /api/openapi.json',
    // The browser's download of the customer CSV: a single-use ticket stands for the token.
    'GET /api/customers/export-download',
    // And the owner's download of a backup file, the same way.
    'GET /api/backups/download',
    // A customer asks for a code and signs in with it; Razorpay's webhook is proved by its
    // signature. The other member calls take a member token (members.test.ts).
    'POST /api/member/otp',
    'POST /api/member/verify',
    'POST /api/payments/razorpay/webhook',
    // Meta's webhook: its handshake is proved by the verify token, its events by their
    // signature with the app secret (whatsapp.webhook.test.ts).
    'GET /api/whatsapp/webhook',
    'POST /api/whatsapp/webhook',
  ];
  let token: string;
  beforeAll(async () => {
    token = await login(ctx, 'meera', 'Meera@1928');
  });

  const apiRoutes = () => ctx.app.registeredRoutes.filter((route) => route.url.startsWith('/api/'));
  const request = (route: { method: string; url: string }, authorization?: string) =>
    ctx.app.inject({
      method: route.method as 'GET',
      url: route.url.replace(/:(\w+)/g, '1'),
      headers: authorization ? { authorization } : {},
      ...(route.method === 'GET' ? {} : { payload: {} }),
    });

  it('marks exactly the designed routes public', () => {
    const publicRoutes = apiRoutes()
      .filter((r) => r.public)
      .map((r) => `${r.method} ${r.url}`);
    // The API docs page and its files are public too: they describe the calls, not data.
    const isPublicByDesign = (r: string) =>
      PUBLIC.includes(r) || r.startsWith('GET /api/app/') || r.startsWith('GET /api/docs');
    expect(publicRoutes.filter((r) => !isPublicByDesign(r))).toEqual([]);
    expect(apiRoutes().filter((r) => !r.public).length).toBeGreaterThan(0);
  });

  it('answers 401 with the session message without a token, or with a bad, expired or outdated one', async () => {
    const expired = createSigner({
      key: TEST_SECRETS.jwtSecret,
      expiresIn: 1000,
      clockTimestamp: Date.now() - 3_600_000,
    })({ sub: '1', name: 'meera', ver: 0 });
    const tampered = `${token.slice(0, -4)}AAAA`;
    const foreign = createSigner({ key: 'another-secret-another-secret-another-secret' })({
      sub: '1',
      name: 'meera',
      ver: 0,
    });
    for (const route of apiRoutes().filter((r) => !r.public)) {
      for (const authorization of [
        undefined,
        'Bearer nonsense',
        `Bearer ${expired}`,
        `Bearer ${tampered}`,
        `Bearer ${foreign}`,
      ]) {
        const response = await request(route, authorization);
        expect(response.statusCode, `${route.method} ${route.url} with ${authorization}`).toBe(401);
        // The counter's calls take an API key, never a token: their 401 asks for the key.
        const message = route.url.startsWith('/api/pos/')
          ? POS_MESSAGES.apiKeyRequired
          : MESSAGES.sessionExpired;
        expect(response.json()).toEqual({ success: false, message });
      }
    }
  });

  it('refuses an authentic token without an expiry, or whose user id or version is malformed, with 401', async () => {
    const sign = createSigner({ key: TEST_SECRETS.jwtSecret, expiresIn: 600_000 });
    const signForever = createSigner({ key: TEST_SECRETS.jwtSecret });
    const [user] = await ctx.sql<{ id: number; token_version: number }>(
      `SELECT id, token_version FROM users WHERE username = 'meera'`,
    );
    const good = { sub: String(user!.id), name: 'meera', ver: user!.token_version };
    const route = { method: 'GET', url: '/api/customers/get-fyear' };
    // The same claims, signed with an expiry, pass: the refusals below are about their shape.
    expect((await request(route, `Bearer ${sign(good)}`)).statusCode).toBe(200);
    for (const jwt of [
      signForever(good),
      sign({ ...good, sub: 'abc' }),
      sign({ ...good, sub: '1.5' }),
      sign({ ...good, sub: '-1' }),
      sign({ ...good, sub: '99999999999999999999' }),
      sign({ ...good, sub: user!.id }),
      sign({ name: 'meera', ver: 0 }),
      sign({ ...good, ver: 'x' }),
      sign({ ...good, ver: null }),
    ]) {
      const response = await request(route, `Bearer ${jwt}`);
      expect(response.statusCode, jwt).toBe(401);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
    }
  });

  it('ends old sessions when the token version changes', async () => {
    const old = await login(ctx, 'meera', 'Meera@1928');
    const route = { method: 'POST', url: '/api/user/update-current-user' };
    expect((await request(route, `Bearer ${old}`)).statusCode).toBe(400); // valid token, empty body
    await ctx.sql(`UPDATE users SET token_version = token_version + 1 WHERE username = 'meera'`);
    expect((await request(route, `Bearer ${old}`)).statusCode).toBe(401);
  });

  it('serves the public routes without a token', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ success: true });
    const branding = await ctx.app.inject({ method: 'GET', url: '/api/app/branding' });
    expect(branding.json()).toMatchObject({
      success: true,
      data: { companyTagline: 'Since 1928' },
    });
  });

  it('answers an unknown API path with the JSON envelope', async () => {
    const fresh = await login(ctx, 'meera', 'Meera@1928');
    const response = await ctx.app.inject(
      authed(fresh, { method: 'GET', url: '/api/no-such-thing' }),
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.notFound });
  });
});
