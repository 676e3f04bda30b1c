import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { TIER_MESSAGES, todayIn } from '@kanak/contract';
import type { Db } from '../../db/client.js';
import {
  addUser,
  authed,
  createTestContext,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { reviewTierAnniversaries } from './points.tiers.js';

/** The clock the app reads; each step of the story moves it. Starts 15 June 2025, Kolkata. */
let now = new Date('2025-06-15T12:00:00+05:30');
let ctx: TestContext;
let owner: string;
let cashier: string;
let key: string;

const as = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  ctx.app.inject(
    authed(token, {
      method,
      url: `/api${url}`,
      ...(payload ? { payload: payload as InjectOptions['payload'] } : {}),
    }),
  );
let invoices = 0;
/** A sale of gold (eligible) for `rupees`, dated today unless given. */
const sale = (mobile: string, rupees: number, invoiceDate = todayIn('Asia/Kolkata', now)) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/pos/sales',
    headers: { 'x-api-key': key },
    payload: {
      invoiceNo: `T-${++invoices}`,
      invoiceDate,
      mobile,
      name: 'Meera Nair',
      lines: [{ description: 'Bangle', category: 'gold', amount: rupees }],
    },
  });
const saleData = async (mobile: string, rupees: number) => {
  const response = await sale(mobile, rupees);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { custid: number; points: number; tier?: string | null };
};
const counter = async (mobile: string) => {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/pos/customers/${mobile}`,
    headers: { 'x-api-key': key },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};
const standing = async (mobile: string) => {
  const { tier, spend12m, nextTier, toNextTier } = await counter(mobile);
  return { tier, spend12m, nextTier, toNextTier };
};
const upgradeNotices = async (custid: number) =>
  (
    await ctx.sql<{ text: string }>(
      `SELECT text FROM notices WHERE event = 'tierUpgraded' AND customer_id = $1`,
      [custid],
    )
  ).map((row) => row.text);
const review = (at: string, db: Db = ctx.database.db, batch?: number) =>
  reviewTierAnniversaries({ db }, todayIn('Asia/Kolkata', new Date(at)), batch);

const LADDER = {
  tiers: [
    { code: 'platinum', name: 'Platinum', minSpend: 200000, earnPercent: 200 },
    { code: 'GOLD', name: 'Gold', minSpend: 50000, earnPercent: 150 },
  ],
  downgrade: 'anniversary',
};

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  await addUser(ctx, 'owner1', 'Owner@19281');
  owner = (await staffSession(ctx, 'owner2', 'owner')).token;
  cashier = (await staffSession(ctx, 'cashier1', 'cashier')).token;
  const made = await as(owner, 'POST', '/settings/api-keys', { label: 'Till 1' });
  expect(made.statusCode, made.body).toBe(200);
  key = made.json().data.key;
});
afterAll(() => ctx.close());

describe('tiers', () => {
  it('are the owner’s to set; none set, a sale earns and answers as before', async () => {
    expect((await as(owner, 'GET', '/settings/tiers')).json().data).toEqual({
      tiers: [],
      downgrade: 'anniversary',
    });
    const before = await saleData('9811100000', 10000);
    expect(before.points).toBe(100);
    expect(before).not.toHaveProperty('tier');
    expect(await counter('9811100000')).not.toHaveProperty('tier');

    expect((await as(cashier, 'POST', '/settings/tiers', LADDER)).statusCode).toBe(403);
    const clash = await as(owner, 'POST', '/settings/tiers', {
      ...LADDER,
      tiers: [LADDER.tiers[1], { ...LADDER.tiers[1], minSpend: 1 }],
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toContain('Each tier must have its own code.');
    const saved = await as(owner, 'POST', '/settings/tiers', LADDER);
    expect(saved.statusCode, saved.body).toBe(200);
    // Lowest first, codes in capitals.
    expect(saved.json().data.tiers.map((t: { code: string }) => t.code)).toEqual([
      'GOLD',
      'PLATINUM',
    ]);
    expect(
      await ctx.sql(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'tiers.save'`),
    ).toEqual([{ n: 1 }]);
  });

  it('lift a customer with the sale that crosses the threshold, at the new rate, once', async () => {
    const mobile = '9822200000';
    const first = await saleData(mobile, 40000);
    expect(first).toMatchObject({ points: 400, tier: null });
    expect(await standing(mobile)).toEqual({
      tier: null,
      spend12m: 40000,
      nextTier: 'GOLD',
      toNextTier: 10000,
    });
    // ₹15,000.01 crosses ₹50,000 and earns at 150%: floor(1,500,001 × 150 / 1,000,000) = 225.
    const crossing = await saleData(mobile, 15000.01);
    expect(crossing).toMatchObject({ points: 225, tier: 'GOLD' });
    const after = await saleData(mobile, 1000);
    expect(after).toMatchObject({ points: 15, tier: 'GOLD' });
    expect(await upgradeNotices(first.custid)).toEqual([
      expect.stringContaining('you are now a Gold member'),
    ]);
    expect(await standing(mobile)).toEqual({
      tier: 'GOLD',
      spend12m: 56000.01,
      nextTier: 'PLATINUM',
      toNextTier: 143999.99,
    });
    // The staff's look-up before a redemption says the same.
    const terms = await as(cashier, 'POST', '/points/redeem-terms', { mobile });
    expect(terms.json().data).toMatchObject({ tier: 'GOLD', spend12m: 56000.01 });
  });

  it('two sales crossing together: one upgrade, one notice', async () => {
    const mobile = '9833300000';
    const { custid } = await saleData(mobile, 40000);
    const both = await Promise.all([sale(mobile, 15000), sale(mobile, 15000)]);
    const answers = both.map((r) => r.json().data);
    expect(answers.map((a) => [a.tier, a.points])).toEqual([
      ['GOLD', 225],
      ['GOLD', 225],
    ]);
    expect(await upgradeNotices(custid)).toHaveLength(1);
    expect(
      await ctx.sql(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'tier.raised' AND entity_id = $1`,
        [String(custid)],
      ),
    ).toEqual([{ n: 1 }]);
  });

  it('returns lower the 12-month spend; the tier holds until its anniversary', async () => {
    const mobile = '9844400000';
    await saleData(mobile, 30000);
    const big = await sale(mobile, 30000);
    expect(big.json().data).toMatchObject({ tier: 'GOLD', points: 450 });
    const back = await ctx.app.inject({
      method: 'POST',
      url: '/api/pos/returns',
      headers: { 'x-api-key': key },
      payload: {
        returnNo: 'TR-1',
        invoiceNo: `T-${invoices}`,
        returnDate: '2025-06-15',
        lines: [{ description: 'Bangle', category: 'gold', amount: 20000 }],
      },
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.points).toBe(300);
    expect(await standing(mobile)).toEqual({
      tier: 'GOLD',
      spend12m: 40000,
      nextTier: 'PLATINUM',
      toNextTier: 160000,
    });
  });

  it('an owner sets a tier by hand until a date; the higher applies, and it ends', async () => {
    const mobile = '9855500000';
    const { custid } = await saleData(mobile, 60000); // earns GOLD
    expect(
      (
        await as(cashier, 'POST', '/customers/tier', {
          custid,
          tier: 'PLATINUM',
          until: '2025-07-01',
        })
      ).statusCode,
    ).toBe(403);
    for (const [body, status] of [
      [{ custid, tier: 'DIAMOND', until: '2025-07-01' }, 400],
      [{ custid, tier: 'PLATINUM', until: '2025-06-14' }, 400],
      [{ custid: 999999, tier: 'PLATINUM', until: '2025-07-01' }, 404],
    ] as const) {
      expect((await as(owner, 'POST', '/customers/tier', body)).statusCode).toBe(status);
    }
    const set = await as(owner, 'POST', '/customers/tier', {
      custid,
      tier: 'platinum',
      until: '2025-07-01',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({
      tier: 'PLATINUM',
      earnedTier: 'GOLD',
      manualTier: 'PLATINUM',
      nextTier: null,
    });
    // A Platinum sale earns at 200%.
    expect(await saleData(mobile, 1000)).toMatchObject({ tier: 'PLATINUM', points: 20 });
    // A lower tier by hand does not pull the earned one down.
    const lower = await as(owner, 'POST', '/customers/tier', {
      custid,
      tier: 'GOLD',
      until: '2025-07-01',
    });
    expect(lower.json().data.tier).toBe('GOLD');
    await as(owner, 'POST', '/customers/tier', { custid, tier: 'PLATINUM', until: '2025-07-01' });

    now = new Date('2025-07-01T23:59:00+05:30');
    expect((await standing(mobile)).tier).toBe('PLATINUM');
    now = new Date('2025-07-02T00:00:00+05:30');
    expect((await standing(mobile)).tier).toBe('GOLD');
    expect((await saleData(mobile, 1000)).points).toBe(15);
  });

  it('counts customers per tier on the dashboard', async () => {
    const dashboard = await as(owner, 'GET', '/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    // Earned Gold: the customers of the four stories above.
    expect(dashboard.json().data.tiers).toEqual([
      { code: 'GOLD', name: 'Gold', customers: 4 },
      { code: 'PLATINUM', name: 'Platinum', customers: 0 },
    ]);
  });

  it('keep a tier customers hold; each earned tier and each by hand leaves an audit row', async () => {
    const withoutGold = { ...LADDER, tiers: LADDER.tiers.filter((t) => t.code !== 'GOLD') };
    const refused = await as(owner, 'POST', '/settings/tiers', withoutGold);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(TIER_MESSAGES.tierHeld('GOLD', 4));
    expect((await as(owner, 'GET', '/settings/tiers')).json().data.tiers).toHaveLength(2);
    // Platinum is held by nobody now (the one by hand ended on 1 July): it may go, and return.
    const withoutPlatinum = { ...LADDER, tiers: LADDER.tiers.filter((t) => t.code === 'GOLD') };
    expect((await as(owner, 'POST', '/settings/tiers', withoutPlatinum)).statusCode).toBe(200);
    expect((await as(owner, 'POST', '/settings/tiers', LADDER)).statusCode).toBe(200);

    const [found] = await ctx.sql<{ id: number }>(
      `SELECT id FROM customers WHERE mobileno = '9855500000'`,
    );
    const custid = found!.id;
    // Ending a tier by hand needs no date.
    const ended = await as(owner, 'POST', '/customers/tier', { custid, tier: null });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().data).toMatchObject({ manualTier: null, manualUntil: null, tier: 'GOLD' });
    expect((await as(owner, 'POST', '/customers/tier', { custid, tier: 'GOLD' })).statusCode).toBe(
      400,
    );
    const audit = await ctx.sql<{ action: string; tier: string | null }>(
      `SELECT action, detail -> 'after' ->> 'tier' AS tier FROM audit_log WHERE entity = 'customer_tier' AND entity_id = $1
        ORDER BY id`,
      [String(custid)],
    );
    expect(audit.map((row) => [row.action, row.tier])).toEqual([
      ['tier.raised', 'GOLD'],
      ['tier.setByHand', 'PLATINUM'],
      ['tier.setByHand', 'GOLD'],
      ['tier.setByHand', 'PLATINUM'],
      ['tier.setByHand', null],
    ]);
  });

  it('fall only on the anniversary, from midnight store time, safe to repeat and to stop midway', async () => {
    // A customer who keeps buying keeps Gold past the anniversary.
    now = new Date('2026-03-01T12:00:00+05:30');
    await saleData('9855500000', 50000);
    const tiersOf = async () =>
      Object.fromEntries(
        (
          await ctx.sql<{ mobileno: string; earned_code: string | null; review_on: string | null }>(
            `SELECT c.mobileno, t.earned_code, to_char(t.review_on, 'YYYY-MM-DD') AS review_on
               FROM customer_tiers t JOIN customers c ON c.id = t.customer_id`,
          )
        ).map((row) => [row.mobileno, [row.earned_code, row.review_on]]),
      );
    // 23:59:59 on 14 June 2026 in Kolkata: not yet the anniversary.
    expect(await review('2026-06-14T18:29:59Z')).toEqual({ reviewed: 0, lowered: 0 });

    // Killed after its first batch of one: what it did stands, a rerun does the rest.
    let calls = 0;
    const real = ctx.database.db;
    const dying = {
      transaction: (...args: Parameters<Db['transaction']>) => {
        if (++calls > 1) throw new Error('killed');
        return real.transaction(...args);
      },
    } as unknown as Db;
    await expect(review('2026-06-14T18:30:00Z', dying, 1)).rejects.toThrow('killed');
    expect(Object.values(await tiersOf()).filter(([, on]) => on === '2026-06-15')).toHaveLength(3);

    expect(await review('2026-06-14T18:30:00Z')).toEqual({ reviewed: 3, lowered: 2 });
    expect(await review('2026-06-15T18:29:00Z')).toEqual({ reviewed: 0, lowered: 0 });
    expect(await tiersOf()).toEqual({
      '9822200000': [null, null],
      '9833300000': [null, null],
      '9844400000': [null, null],
      // ₹50,000 bought since the last anniversary: Gold again for a year.
      '9855500000': ['GOLD', '2027-06-15'],
    });
    now = new Date('2026-06-15T09:00:00+05:30');
    expect(await standing('9822200000')).toEqual({
      tier: null,
      spend12m: 0,
      nextTier: 'GOLD',
      toNextTier: 50000,
    });
  });
});
