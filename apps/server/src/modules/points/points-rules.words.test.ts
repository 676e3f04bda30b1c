import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  addUser,
  authed,
  createTestContext,
  login,
  type TestContext,
} from '../../../test/helpers.js';

let ctx: TestContext;
let owner: string;

const ownerCall = (method: 'GET' | 'POST', payload?: unknown) =>
  ctx.app.inject(
    authed(owner, {
      method,
      url: '/api/settings/points',
      ...(payload ? { payload: payload as InjectOptions['payload'] } : {}),
    }),
  );
const rules = {
  rupeesPerPoint: 100,
  excludedCategories: ['coin', 'bullion'],
  pointValue: 1,
  minRedeemPoints: 100,
  expiryMonths: 24,
};

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx, 'owner1', 'Owner@19281');
  owner = await login(ctx, 'owner1', 'Owner@19281');
});
afterAll(() => ctx.close());

describe('points rules in plain words', () => {
  it('say the installed rules were never changed, until an owner changes them', async () => {
    const first = await ownerCall('GET');
    expect(first.json().data.current).toMatchObject({ isDefault: true });

    const saved = await ownerCall('POST', { ...rules, expiryMonths: 12 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.current).toMatchObject({ isDefault: false, expiryMonths: 12 });
    expect(saved.json().data.history.map((v: { isDefault: boolean }) => v.isDefault)).toEqual([
      false,
      true,
    ]);
  });

  it('refuse bad rules naming the fields as the screen does, never by their code names', async () => {
    for (const [bad, words] of [
      [{ rupeesPerPoint: 0 }, 'Rupees per point must be'],
      [{ pointValue: -1 }, 'The value of a point must be'],
      [{ minRedeemPoints: 1.5 }, 'Minimum points to redeem must be'],
      [{ expiryMonths: 121 }, 'Points expire after a whole number of months'],
      [{ excludedCategories: 'coin' }, 'Categories that earn no points must be'],
    ] as const) {
      const response = await ownerCall('POST', { ...rules, ...bad });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      const message = response.json<{ message: string }>().message;
      expect(message).toContain(words);
      expect(message).not.toMatch(
        /rupeesPerPoint|pointValue|minRedeemPoints|expiryMonths|excludedCategories/,
      );
    }
  });
});
