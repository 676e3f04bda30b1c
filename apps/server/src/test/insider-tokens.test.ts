import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { MESSAGES } from '@kanak/contract';
import { addUser, createTestContext, TEST_SECRETS, type TestContext } from '../../test/helpers.js';

/**
 * Someone who holds the signing secret's output format but not a session: tokens forged with
 * the test secret, each stretching one claim, against a route that needs a session.
 */
let ctx: TestContext;
let good: { sub: string; name: string; ver: number };
beforeAll(async () => {
  ctx = await createTestContext();
  const user = await addUser(ctx, 'meera', 'Meera@1928');
  good = { sub: String(user.id), name: 'meera', ver: user.tokenVersion };
});
afterAll(() => ctx.close());

const HOUR = 3600;
const DAY = 24 * HOUR;
const now = () => Math.floor(Date.now() / 1000);

/** Signs exactly these claims (nothing added) with the server's secret and algorithm. */
function forge(claims: object) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  const signature = createHmac('sha256', TEST_SECRETS.jwtSecret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

const fyear = (jwt: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/customers/get-fyear',
    headers: { authorization: `Bearer ${jwt}` },
  });

describe('a forged session token', () => {
  it('passes when its claims are what a sign-in gives: the refusals below are about one claim each', async () => {
    for (const claims of [
      { ...good, iat: now(), exp: now() + 12 * HOUR },
      { ...good, stay: false, iat: now() - HOUR, exp: now() + 11 * HOUR },
      { ...good, stay: true, iat: now(), exp: now() + 30 * DAY },
    ]) {
      expect((await fyear(forge(claims))).statusCode, JSON.stringify(claims)).toBe(200);
    }
  });

  it.each([
    ['a user id beyond the id range', { sub: '2147483648' }],
    ['the largest 10-digit user id', { sub: '9999999999' }],
    ['a negative user id', { sub: '-1' }],
    ['a user id that is not a number', { sub: 'admin' }],
    ['an expiry in the year 3 trillion', { exp: 1e20 }],
    ['an expiry past the 12 hours of its kind', { exp: now() + 12 * HOUR + 60 }],
    ['a "stay logged in" expiry past 30 days', { stay: true, exp: now() + 30 * DAY + 60 }],
    ['a lifetime of 31 days without "stay logged in"', { exp: now() + 31 * DAY }],
    ['no signing time', { iat: undefined }],
    ['a signing time in the future', { iat: now() + DAY, exp: now() + DAY + HOUR }],
    ['a fractional expiry', { exp: now() + HOUR + 0.5 }],
  ])('answers 401 to %s', async (_, change: Record<string, unknown>) => {
    const claims: Record<string, unknown> = { ...good, iat: now(), exp: now() + HOUR, ...change };
    for (const [name, value] of Object.entries(change))
      if (value === undefined) delete claims[name];
    const response = await fyear(forge(claims));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
  });
});
