import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, POS_MESSAGES } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../test/helpers.js';

/**
 * Someone on the shop's network guessing the counters' API keys: wrong keys from one address
 * are limited like sign-ins, in the database.
 */
let ctx: SignedIn;
let key: string;
beforeAll(async () => {
  ctx = await signedIn('owner');
  const made = await ctx.post('/api/settings/api-keys', { label: 'Counter 1' });
  expect(made.statusCode, made.body).toBe(200);
  key = made.json<{ data: { key: string } }>().data.key;
});
afterAll(() => ctx.close());

const LIMIT = LIMITS.posWrongKeysPerIp;
const guess = () => `kk_${randomBytes(32).toString('base64url')}`;
const lookUp = (apiKey: string, remoteAddress: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/pos/customers/9876543210',
    headers: { 'x-api-key': apiKey },
    remoteAddress,
  });
const tooMany = {
  success: false,
  message: POS_MESSAGES.tooManyWrongKeys(LIMITS.posWrongKeysWindowMinutes),
};

describe('wrong API keys at the POS calls', () => {
  it(`answers ${LIMIT} wrong keys from one address with 401, then 429 to that address only, a valid key too`, async () => {
    for (let i = 0; i < LIMIT; i++) {
      const answer = await lookUp(i % 2 ? guess() : 'not-even-a-key', '127.0.0.2');
      expect(answer.statusCode).toBe(401);
    }
    const refused = await lookUp(guess(), '127.0.0.2');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(tooMany);
    // While the window lasts the address gets nothing, whatever key it sends.
    const valid = await lookUp(key, '127.0.0.2');
    expect(valid.statusCode).toBe(429);
    expect(valid.json()).toEqual(tooMany);
    // Another counter is not affected: its wrong key is 401, its valid key works.
    expect((await lookUp(guess(), '127.0.0.3')).statusCode).toBe(401);
    const other = await lookUp(key, '127.0.0.3');
    expect(other.statusCode, other.body).not.toBe(401);
    expect(other.statusCode).not.toBe(429);
  });

  it(`refuses all but ${LIMIT} of ${LIMIT + 15} wrong keys fired at once`, async () => {
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 15 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/pos/sales',
          headers: { 'x-api-key': guess() },
          payload: {},
          remoteAddress: '127.0.0.4',
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(15).fill(429)]);
    expect((await lookUp(key, '127.0.0.4')).statusCode).toBe(429);
  });

  it('lets the address in again when its window has ended, and keeps the count in the database', async () => {
    for (let i = 0; i < LIMIT; i++) await lookUp(guess(), '127.0.0.5');
    expect((await lookUp(key, '127.0.0.5')).statusCode).toBe(429);
    const rows = await ctx.sql(
      `UPDATE rate_limit_hits SET window_ends_at = now() - interval '1 second'
        WHERE key LIKE '%127.0.0.5' RETURNING hits`,
    );
    expect(rows).toEqual([{ hits: LIMIT }]);
    expect((await lookUp(key, '127.0.0.5')).statusCode).not.toBe(429);
  });

  it('does not count a call that sends no key at all: nothing was guessed', async () => {
    for (let i = 0; i < LIMIT + 5; i++) {
      const answer = await ctx.app.inject({
        method: 'GET',
        url: '/api/pos/customers/9876543210',
        remoteAddress: '127.0.0.6',
      });
      expect(answer.statusCode).toBe(401);
    }
    expect((await lookUp(key, '127.0.0.6')).statusCode).not.toBe(429);
  });
});
