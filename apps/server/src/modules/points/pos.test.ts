import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { API_PATHS, API_PREFIX, MESSAGES, POS_MESSAGES } from '@kanak/contract';
import {
  addUser,
  authed,
  createTestContext,
  login,
  pointsBalance,
  type TestContext,
} from '../../../test/helpers.js';
import { expireDueLots, type ExpiryAccounts } from './points.expiry.js';
import { pointsAccountsRepo } from './points.ledger.js';

/** Today is 15 June 2025 in Kolkata. */
const now = new Date('2025-06-15T12:00:00+05:30');
let ctx: TestContext;
let owner: string;
let key: string;
let otherBranchKey: string;

const post = (url: string, payload: unknown, apiKey = key) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    headers: { 'x-api-key': apiKey },
  });
const sale = (payload: Record<string, unknown>, apiKey = key) =>
  post('/api/pos/sales', payload, apiKey);
const ret = (payload: Record<string, unknown>) => post('/api/pos/returns', payload);
const redeem = (payload: Record<string, unknown>) => post('/api/pos/redemptions', payload);
const cancel = (invoiceNo: string) => post('/api/pos/redemptions/cancel', { invoiceNo });
const counter = (mobile: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/pos/customers/${mobile}`,
    headers: { 'x-api-key': key },
  });
/** The managers' report of returns whose points were already spent. */
const UNRECOVERED = `${API_PREFIX}${API_PATHS.unrecoveredReport}`;
const ownerCall = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  ctx.app.inject(
    authed(owner, {
      method,
      url,
      ...(payload ? { payload: payload as InjectOptions['payload'] } : {}),
    }),
  );

const line = (amount: number | string, category = 'gold', description = 'Ring') => ({
  description,
  category,
  amount,
});

async function makeKey(label: string, branch?: string) {
  const response = await ownerCall('POST', '/api/settings/api-keys', {
    label,
    ...(branch ? { branch } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { id: number; key: string } }>().data;
}

/** The invariant: balance = ledger sum = lots' remaining, never negative, for every customer. */
async function expectBooksAgree() {
  const rows = await ctx.sql<{ mobileno: string; balance: string; ledger: string; lots: string }>(
    `SELECT c.mobileno, a.balance,
            (SELECT coalesce(sum(credit - debit), 0) FROM points_entries e WHERE e.customer_id = c.id) AS ledger,
            (SELECT coalesce(sum(remaining), 0) FROM points_lots l WHERE l.customer_id = c.id) AS lots
       FROM customers c JOIN points_accounts a ON a.customer_id = c.id`,
  );
  for (const row of rows) {
    expect({ mobile: row.mobileno, ledger: Number(row.ledger), lots: Number(row.lots) }).toEqual({
      mobile: row.mobileno,
      ledger: Number(row.balance),
      lots: Number(row.balance),
    });
    expect(Number(row.balance)).toBeGreaterThanOrEqual(0);
  }
}

const balanceOf = async (mobile: string) => (await pointsBalance(ctx, mobile))!;

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  await addUser(ctx, 'owner1', 'Owner@19281');
  owner = await login(ctx, 'owner1', 'Owner@19281');
  for (const [code, name] of [
    ['PUNE', 'Pune showroom'],
    ['SRT', 'Surat showroom'],
  ] as const) {
    const made = await ownerCall('POST', '/api/branches', {
      code,
      name,
      address: `1 Main Road, ${name}`,
      phone: '+91 20 2345 6789',
    });
    expect(made.statusCode, made.body).toBe(200);
  }
  key = (await makeKey('Counter 1', 'MAIN')).key;
  otherBranchKey = (await makeKey('Counter 2', 'pune')).key;
});
afterAll(() => ctx.close());

describe('API keys', () => {
  it('are shown once, kept only as a hash, listed with branch and last use, and revocable', async () => {
    const made = await makeKey('Till 9', 'SRT');
    expect(made.key).toMatch(/^kk_[A-Za-z0-9_-]{43}$/);
    const stored = await ctx.sql<{ key_hash: string }>(
      `SELECT key_hash FROM api_keys WHERE id = $1`,
      [made.id],
    );
    expect(stored[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await ctx.sql(`SELECT * FROM api_keys`))).not.toContain(
      made.key.slice(3),
    );

    expect((await counter('9000000001')).statusCode).toBe(404);
    const list = await ownerCall('GET', '/api/settings/api-keys');
    const entry = list
      .json<{ data: Record<string, unknown>[] }>()
      .data.find((k) => k.id === made.id);
    expect(entry).toMatchObject({
      label: 'Till 9',
      branch: 'SRT',
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(JSON.stringify(list.json())).not.toContain(made.key);
    const nowhere = await ownerCall('POST', '/api/settings/api-keys', {
      label: 'Till 10',
      branch: 'GOA',
    });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().message).toBe(MESSAGES.noSuchBranch('GOA'));

    const used = await ctx.app.inject({
      method: 'GET',
      url: '/api/pos/customers/9000000001',
      headers: { 'x-api-key': made.key },
    });
    expect(used.statusCode).toBe(404);
    const after = (await ownerCall('GET', '/api/settings/api-keys')).json<{
      data: Record<string, unknown>[];
    }>();
    expect(after.data.find((k) => k.id === made.id)!.lastUsedAt).toEqual(expect.any(String));

    const revoked = await ownerCall('POST', '/api/settings/api-keys/revoke', { id: made.id });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const refused = await ctx.app.inject({
      method: 'GET',
      url: '/api/pos/customers/9000000001',
      headers: { 'x-api-key': made.key },
    });
    expect(refused.statusCode).toBe(401);
    expect(
      (await ownerCall('POST', '/api/settings/api-keys/revoke', { id: 99999 })).statusCode,
    ).toBe(404);
  });

  it('opens only /api/pos/*: a staff token there is 401, a key elsewhere is 401', async () => {
    const staffThere = await ctx.app.inject(
      authed(owner, { method: 'GET', url: '/api/pos/customers/9000000001' }),
    );
    expect(staffThere.statusCode).toBe(401);
    const keyElsewhere = await ctx.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { 'x-api-key': key },
    });
    expect(keyElsewhere.statusCode).toBe(401);
    const keyAndToken = await ctx.app.inject(
      authed(owner, { method: 'GET', url: '/api/me', headers: { 'x-api-key': key } }),
    );
    expect(keyAndToken.statusCode).toBe(401);
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/settings/api-keys',
      payload: { label: 'x' },
      headers: { 'x-api-key': key },
    });
    expect(made.statusCode).toBe(401);
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/api/pos/customers/9000000001',
      headers: { 'x-api-key': `kk_${'a'.repeat(43)}` },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(POS_MESSAGES.apiKeyRequired);
  });
});

describe('points rules', () => {
  it('start with the defaults and keep every version; a change applies from its time on', async () => {
    const first = await ownerCall('GET', '/api/settings/points');
    expect(first.json().data.current).toMatchObject({
      rupeesPerPoint: 100,
      excludedCategories: ['coin', 'bullion'],
      pointValue: 1,
      minRedeemPoints: 100,
      expiryMonths: 24,
    });
    const before = await sale({
      invoiceNo: 'RULES-1',
      invoiceDate: '2025-06-15',
      mobile: '9100000001',
      name: 'Rule One',
      lines: [line(1000)],
    });
    expect(before.json().data.points).toBe(10);

    const saved = await ownerCall('POST', '/api/settings/points', {
      rupeesPerPoint: 50,
      excludedCategories: ['Coin', 'bullion', 'making'],
      pointValue: 0.5,
      minRedeemPoints: 10,
      expiryMonths: 12,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.current).toMatchObject({
      rupeesPerPoint: 50,
      pointValue: 0.5,
      excludedCategories: ['coin', 'bullion', 'making'],
    });
    expect(saved.json().data.history).toHaveLength(2);

    const after = await sale({
      invoiceNo: 'RULES-2',
      invoiceDate: '2025-06-15',
      mobile: '9100000001',
      lines: [line(1000), line(500, 'Making')],
    });
    expect(after.json().data).toMatchObject({
      points: 20,
      eligibleAmount: 1000,
      expiresOn: '2026-06-15',
    });
    // The first sale keeps its 10 points: nothing past is recomputed.
    expect(
      await ctx.sql(
        `SELECT credit FROM points_entries WHERE narration LIKE 'Sale, invoice RULES-%' ORDER BY mrn`,
      ),
    ).toEqual([{ credit: 10 }, { credit: 20 }]);

    // Back to the defaults for the other tests.
    await ownerCall('POST', '/api/settings/points', {
      rupeesPerPoint: 100,
      excludedCategories: ['coin', 'bullion'],
      pointValue: 1,
      minRedeemPoints: 100,
      expiryMonths: 24,
    });
  });

  it('refuses rules that make no sense, changing nothing', async () => {
    for (const bad of [
      { rupeesPerPoint: 0 },
      { rupeesPerPoint: 1.005 },
      { pointValue: -1 },
      { minRedeemPoints: 1.5 },
      { expiryMonths: 121 },
      { excludedCategories: 'coin' },
    ]) {
      const response = await ownerCall('POST', '/api/settings/points', {
        rupeesPerPoint: 100,
        excludedCategories: [],
        pointValue: 1,
        minRedeemPoints: 100,
        expiryMonths: 24,
        ...bad,
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await ctx.sql(`SELECT count(*)::int AS n FROM points_rules`)).toEqual([{ n: 3 }]);
  });
});

describe('sales', () => {
  it('enrol an unknown mobile, earn on the eligible lines only, and keep one S row with the whole invoice', async () => {
    const response = await sale({
      invoiceNo: 'INV-100',
      invoiceDate: '2025-06-14',
      mobile: '9200000001',
      name: 'Asha Rao',
      lines: [line(12345.67), line(5000, 'COIN'), line(99.99, 'silver')],
    });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      points: 124,
      balance: 124,
      eligibleAmount: 12445.66,
      expiresOn: '2027-06-14',
    });
    const [entry] = await ctx.sql(
      `SELECT ts, credit, debit, sale_amount_paise::int AS paise, narration, invdate::text FROM points_entries WHERE customer_id = $1`,
      [data.custid],
    );
    expect(entry).toEqual({
      ts: 'S',
      credit: 124,
      debit: 0,
      paise: 1744566,
      narration: 'Sale, invoice INV-100 (MAIN)',
      invdate: '2025-06-14',
    });
    expect(await ctx.sql(`SELECT custname FROM customers WHERE id = $1`, [data.custid])).toEqual([
      { custname: 'Asha Rao' },
    ]);
    await expectBooksAgree();
  });

  it('answers a repeat with the first answer and refuses the same number with other contents', async () => {
    const body = {
      invoiceNo: 'INV-101',
      invoiceDate: '2025-06-14',
      mobile: '9200000002',
      name: 'Bala',
      lines: [line(2500)],
    };
    const first = await sale(body);
    const again = await sale(body);
    expect(again.json()).toEqual(first.json());
    const other = await sale({ ...body, lines: [line(2600)] });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(POS_MESSAGES.invoiceConflict);
    // Another branch's invoice of the same number is another invoice.
    const elsewhere = await sale(body, otherBranchKey);
    expect(elsewhere.statusCode).toBe(200);
    expect(await balanceOf('9200000002')).toBe(50);
    // Each sale's ledger row belongs to the branch of the key that posted it.
    const rows = await ctx.sql<{ code: string }>(
      `SELECT b.code FROM points_entries e JOIN branches b ON b.id = e.branch_id
        JOIN customers c ON c.id = e.customer_id WHERE c.mobileno = '9200000002' ORDER BY e.mrn`,
    );
    expect(rows.map((row) => row.code)).toEqual(['MAIN', 'PUNE']);
  });

  it('needs a name for a new mobile, and refuses future dates; nothing is written', async () => {
    const noName = await sale({
      invoiceNo: 'INV-102',
      invoiceDate: '2025-06-14',
      mobile: '9200000003',
      lines: [line(100)],
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe(POS_MESSAGES.nameNeededToEnrol);
    const future = await sale({
      invoiceNo: 'INV-102',
      invoiceDate: '2025-06-16',
      mobile: '9200000003',
      name: 'X',
      lines: [line(100)],
    });
    expect(future.statusCode).toBe(400);
    expect(
      await ctx.sql(`SELECT count(*)::int AS n FROM pos_sales WHERE invoice_no = 'INV-102'`),
    ).toEqual([{ n: 0 }]);
    expect(
      await ctx.sql(`SELECT count(*)::int AS n FROM customers WHERE mobileno = '9200000003'`),
    ).toEqual([{ n: 0 }]);
  });
});

describe('returns', () => {
  it('take back points pro rata, never more than earned less earlier returns, from the invoice lot first', async () => {
    await sale({
      invoiceNo: 'R-1',
      invoiceDate: '2025-06-10',
      mobile: '9300000001',
      name: 'Chitra',
      lines: [line(1000), line(999), line(500, 'coin')],
    });
    expect(await balanceOf('9300000001')).toBe(19);
    const a = await ret({
      returnNo: 'RET-1',
      invoiceNo: 'R-1',
      returnDate: '2025-06-15',
      lines: [line(999), line(500, 'coin')],
    });
    expect(a.statusCode, a.body).toBe(200);
    // 19 × 999 / 1999 = 9.49…: 9 taken back.
    expect(a.json().data).toEqual({ points: 9, unrecovered: 0, balance: 10 });
    expect(
      (
        await ret({
          returnNo: 'RET-1',
          invoiceNo: 'R-1',
          returnDate: '2025-06-15',
          lines: [line(999), line(500, 'coin')],
        })
      ).json().data,
    ).toEqual(a.json().data);
    expect(
      (
        await ret({
          returnNo: 'RET-1',
          invoiceNo: 'R-1',
          returnDate: '2025-06-15',
          lines: [line(998)],
        })
      ).statusCode,
    ).toBe(409);
    const b = await ret({
      returnNo: 'RET-2',
      invoiceNo: 'R-1',
      returnDate: '2025-06-15',
      lines: [line(1000)],
    });
    // All of it back: exactly the 19 earned in total.
    expect(b.json().data).toEqual({ points: 10, unrecovered: 0, balance: 0 });
    const more = await ret({
      returnNo: 'RET-3',
      invoiceNo: 'R-1',
      returnDate: '2025-06-15',
      lines: [line(1)],
    });
    expect(more.statusCode).toBe(409);
    expect(more.json().message).toBe(POS_MESSAGES.returnedMoreThanSold);
    const unknown = await ret({
      returnNo: 'RET-4',
      invoiceNo: 'NOPE',
      returnDate: '2025-06-15',
      lines: [line(1)],
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      await ctx.sql(
        `SELECT ts, debit FROM points_entries WHERE narration LIKE 'Return RET-%' ORDER BY mrn`,
      ),
    ).toEqual([
      { ts: 'X', debit: 9 },
      { ts: 'X', debit: 10 },
    ]);
    await expectBooksAgree();
  });

  it('after a redemption, take what there is and record the rest as unrecovered', async () => {
    await sale({
      invoiceNo: 'R-2',
      invoiceDate: '2025-06-15',
      mobile: '9300000002',
      name: 'Dev',
      lines: [line(20000)],
    });
    const redeemed = await redeem({ invoiceNo: 'R-2-B', mobile: '9300000002', points: 150 });
    expect(redeemed.json().data).toEqual({ points: 150, value: 150, balance: 50 });
    const back = await ret({
      returnNo: 'RET-5',
      invoiceNo: 'R-2',
      returnDate: '2025-06-15',
      lines: [line(20000)],
    });
    expect(back.json().data).toEqual({ points: 50, unrecovered: 150, balance: 0 });
    expect(
      await ctx.sql(`SELECT points, unrecovered FROM pos_returns WHERE return_no = 'RET-5'`),
    ).toEqual([{ points: 50, unrecovered: 150 }]);
    await expectBooksAgree();

    // The managers' report lists it: date, branch, return, invoice, customer, points lost.
    const report = await ownerCall('POST', UNRECOVERED, { from: '2025-06-01', to: '2025-06-15' });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({
      success: true,
      total: 1,
      totals: { returns: 1, unrecovered: 150 },
    });
    expect(report.json().data).toEqual([
      {
        returnDate: '2025-06-15',
        branch: 'MAIN',
        returnNo: 'RET-5',
        invoiceNo: 'R-2',
        mobile: '9300000002',
        unrecovered: 150,
      },
    ]);
    const before = await ownerCall('POST', UNRECOVERED, { from: '2025-06-01', to: '2025-06-14' });
    expect(before.json()).toMatchObject({ data: [], total: 0 });
    const backwards = await ownerCall('POST', UNRECOVERED, {
      from: '2025-06-15',
      to: '2025-06-01',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({
      success: false,
      message: 'The from date must not be after the to date.',
    });
    // An API key opens no staff report.
    const byKey = await ctx.app.inject({
      method: 'POST',
      url: UNRECOVERED,
      payload: {},
      headers: { 'x-api-key': key },
    });
    expect(byKey.statusCode).toBe(401);
  });

  it('list for a manager only their own branch’s unrecovered returns; the owner sees every branch', async () => {
    const mobile = '9300000009';
    const pune = (url: string, payload: Record<string, unknown>) =>
      post(url, payload, otherBranchKey);
    expect(
      (
        await pune('/api/pos/sales', {
          invoiceNo: 'P-9',
          invoiceDate: '2025-06-14',
          mobile,
          name: 'Ila',
          lines: [line(10000)],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await pune('/api/pos/redemptions', { invoiceNo: 'P-9-B', mobile, points: 100 })).statusCode,
    ).toBe(200);
    const back = await pune('/api/pos/returns', {
      returnNo: 'P-RET-9',
      invoiceNo: 'P-9',
      returnDate: '2025-06-14',
      lines: [line(10000)],
    });
    expect(back.json().data).toMatchObject({ unrecovered: 100 });

    await addUser(ctx, 'manager1', 'Manager@19281', 'manager');
    const manager = await login(ctx, 'manager1', 'Manager@19281');
    const asManager = await ctx.app.inject(
      authed(manager, { method: 'POST', url: UNRECOVERED, payload: {} }),
    );
    expect(asManager.statusCode, asManager.body).toBe(200);
    const managerRows = asManager.json<{ data: { branch: string; returnNo: string }[] }>().data;
    expect(managerRows.map((r) => r.returnNo)).toContain('RET-5');
    expect(managerRows.every((r) => r.branch === 'MAIN')).toBe(true);

    const asOwner = await ownerCall('POST', UNRECOVERED, {});
    const ownerRows = asOwner.json<{ data: { branch: string; returnNo: string }[] }>().data;
    expect(ownerRows.find((r) => r.returnNo === 'P-RET-9')).toMatchObject({
      branch: 'PUNE',
      unrecovered: 100,
    });
  });
});

describe('redemptions', () => {
  it('refuse below the minimum and above the balance, answer the value, and cancel back to the same lots', async () => {
    await sale({
      invoiceNo: 'D-1',
      invoiceDate: '2025-06-15',
      mobile: '9400000001',
      name: 'Esha',
      lines: [line(30000)],
    });
    const small = await redeem({ invoiceNo: 'D-2', mobile: '9400000001', points: 99 });
    expect(small.statusCode).toBe(409);
    expect(small.json().message).toBe(POS_MESSAGES.belowMinimum(100));
    const big = await redeem({ invoiceNo: 'D-2', mobile: '9400000001', points: 301 });
    expect(big.statusCode).toBe(409);
    expect(big.json().message).toBe(POS_MESSAGES.insufficientPoints(300));
    expect((await redeem({ invoiceNo: 'D-2', mobile: '9499999999', points: 100 })).statusCode).toBe(
      404,
    );
    const ok = await redeem({ invoiceNo: 'D-2', mobile: '9400000001', points: 120 });
    expect(ok.json().data).toEqual({ points: 120, value: 120, balance: 180 });
    expect((await redeem({ invoiceNo: 'D-2', mobile: '9400000001', points: 120 })).json()).toEqual(
      ok.json(),
    );
    expect((await redeem({ invoiceNo: 'D-2', mobile: '9400000001', points: 121 })).statusCode).toBe(
      409,
    );

    const cancelled = await cancel('D-2');
    expect(cancelled.json().data).toEqual({ points: 120, balance: 300 });
    expect((await cancel('D-2')).json().data).toEqual({ points: 120, balance: 300 });
    expect((await cancel('D-404')).statusCode).toBe(404);
    expect(
      await ctx.sql(
        `SELECT ts, credit, debit, narration FROM points_entries e JOIN customers c ON c.id = e.customer_id WHERE c.mobileno = '9400000001' ORDER BY mrn`,
      ),
    ).toEqual([
      { ts: 'S', credit: 300, debit: 0, narration: 'Sale, invoice D-1 (MAIN)' },
      {
        ts: 'R',
        credit: 0,
        debit: 120,
        narration: 'Redemption, invoice D-2 (MAIN), value ₹120.00',
      },
      { ts: 'R', credit: 120, debit: 0, narration: 'Redemption cancelled, invoice D-2 (MAIN)' },
    ]);
    expect(
      await ctx.sql(
        `SELECT remaining FROM points_lots l JOIN customers c ON c.id = l.customer_id WHERE c.mobileno = '9400000001'`,
      ),
    ).toEqual([{ remaining: 300 }]);
    await expectBooksAgree();
  });

  it('take from the lots that expire first, across lots, and the counter sees what expires within 30 days', async () => {
    const mobile = '9400000002';
    await sale({
      invoiceNo: 'F-1',
      invoiceDate: '2023-07-01',
      mobile,
      name: 'Farah',
      lines: [line(8000)],
    }); // expires 2025-07-01
    await sale({ invoiceNo: 'F-2', invoiceDate: '2024-01-01', mobile, lines: [line(5000)] }); // expires 2026-01-01
    await sale({ invoiceNo: 'F-3', invoiceDate: '2023-06-01', mobile, lines: [line(3000)] }); // expires 2025-06-01 (due)
    const seen = await counter(mobile);
    expect(seen.json().data).toEqual({
      custname: 'Farah',
      balance: 160,
      value: 160,
      expiringIn30Days: 80,
    });
    // The staff's profile answer carries the same numbers: the balance's value at ₹1 a point
    // and the points of the lot earned on 1 July 2023, which expires on 1 July 2025.
    const profile = await ownerCall('POST', '/api/customers/get-customer-data', {
      mobileno: mobile,
    });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().data).toMatchObject({
      points: 160,
      pointsValue: 160,
      pointsExpiringIn30Days: 80,
    });
    await redeem({ invoiceNo: 'F-R', mobile, points: 100 });
    const lots = await ctx.sql(
      `SELECT l.earned_on::text, l.remaining FROM points_lots l JOIN customers c ON c.id = l.customer_id WHERE c.mobileno = $1 ORDER BY l.expires_on`,
      [mobile],
    );
    expect(lots).toEqual([
      { earned_on: '2023-06-01', remaining: 0 },
      { earned_on: '2023-07-01', remaining: 10 },
      { earned_on: '2024-01-01', remaining: 50 },
    ]);
    await expectBooksAgree();
  });
});

describe('expiry', () => {
  it('writes one E row per due lot, empties it, and changes nothing when run again', async () => {
    const mobile = '9500000001';
    await sale({
      invoiceNo: 'E-1',
      invoiceDate: '2023-06-10',
      mobile,
      name: 'Gita',
      lines: [line(4000)],
    }); // expires 2025-06-10
    await sale({ invoiceNo: 'E-2', invoiceDate: '2023-06-12', mobile, lines: [line(6000)] }); // expires 2025-06-12
    await sale({ invoiceNo: 'E-3', invoiceDate: '2025-06-01', mobile, lines: [line(1000)] });
    await redeem({ invoiceNo: 'E-R', mobile, points: 100 }); // takes 40 + 60: nothing left to expire there
    await sale({ invoiceNo: 'E-4', invoiceDate: '2023-06-14', mobile, lines: [line(2000)] }); // expires 2025-06-14
    const deps = { db: ctx.database.db };
    const first = await expireDueLots(deps, '2025-06-15');
    expect(first.lots).toBeGreaterThanOrEqual(1);
    const rows = await ctx.sql(
      `SELECT ts, debit, narration, invdate::text FROM points_entries e JOIN customers c ON c.id = e.customer_id WHERE c.mobileno = $1 AND ts = 'E'`,
      [mobile],
    );
    expect(rows).toEqual([
      { ts: 'E', debit: 20, narration: 'Points expired, earned 14-06-2023', invdate: '2025-06-14' },
    ]);
    expect(await balanceOf(mobile)).toBe(10);
    const again = await expireDueLots(deps, '2025-06-15');
    expect(again).toEqual({ lots: 0, points: 0 });
    expect(await balanceOf(mobile)).toBe(10);
    await expectBooksAgree();
  });

  it('writes each E row in the branch that gave the points, and expires in one more walk a lot given points back behind the first', async () => {
    const mobile = '9500000002';
    await sale({
      invoiceNo: 'W-1',
      invoiceDate: '2023-06-10',
      mobile,
      name: 'Walk',
      lines: [line(10000)],
    }); // 100 points at MAIN, expire 2025-06-10
    await sale(
      { invoiceNo: 'W-2', invoiceDate: '2023-06-12', mobile, lines: [line(6000)] },
      otherBranchKey,
    ); // 60 points at PUNE, expire 2025-06-12
    expect((await redeem({ invoiceNo: 'W-R', mobile, points: 100 })).statusCode).toBe(200); // empties W-1's lot

    // The walk's first batch holds only W-2's lot; before it locks, the redemption is cancelled
    // and W-1's lot, behind the walk's position, holds 100 points again.
    let cancelled = false;
    const accounts: ExpiryAccounts = {
      lockById: async (tx, ids) => {
        if (!cancelled) {
          cancelled = true;
          expect((await cancel('W-R')).statusCode).toBe(200);
        }
        return pointsAccountsRepo.lockById(tx, ids);
      },
    };
    await expireDueLots({ db: ctx.database.db, accounts }, '2025-06-15', 1);

    expect(cancelled).toBe(true);
    expect(
      await ctx.sql(
        `SELECT e.debit, e.narration, b.code AS branch FROM points_entries e
           JOIN customers c ON c.id = e.customer_id JOIN branches b ON b.id = e.branch_id
          WHERE c.mobileno = $1 AND e.ts = 'E' ORDER BY e.narration`,
        [mobile],
      ),
    ).toEqual([
      { debit: 100, narration: 'Points expired, earned 10-06-2023', branch: 'MAIN' },
      { debit: 60, narration: 'Points expired, earned 12-06-2023', branch: 'PUNE' },
    ]);
    expect(await balanceOf(mobile)).toBe(0);
    await expectBooksAgree();
  });

  it('runs while sales and redemptions post: books agree, nothing expires twice', async () => {
    const mobiles = Array.from({ length: 5 }, (_, i) => `95100000${String(i).padStart(2, '0')}`);
    for (const [i, mobile] of mobiles.entries()) {
      for (let j = 0; j < 6; j++)
        await sale({
          invoiceNo: `EX-${i}-${j}`,
          invoiceDate: '2023-05-01',
          mobile,
          name: `Old ${i}`,
          lines: [line(10000)],
        });
    }
    const deps = { db: ctx.database.db };
    const work: Promise<unknown>[] = [
      expireDueLots(deps, '2025-06-15'),
      expireDueLots(deps, '2025-06-15'),
    ];
    for (const [i, mobile] of mobiles.entries()) {
      work.push(
        sale({ invoiceNo: `EXN-${i}`, invoiceDate: '2025-06-15', mobile, lines: [line(10000)] }),
      );
      work.push(redeem({ invoiceNo: `EXR-${i}`, mobile, points: 100 }));
    }
    await Promise.all(work);
    await expireDueLots(deps, '2025-06-15');
    const expired = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM points_entries WHERE ts = 'E' AND narration = 'Points expired, earned 01-05-2023'`,
    );
    // A lot expired twice would leave the ledger below the lots (checked at the end).
    expect(
      await ctx.sql(
        `SELECT count(*)::int AS n FROM points_lots WHERE expires_on <= '2025-06-15' AND remaining > 0`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(expired[0]!.n).toBeLessThanOrEqual(30);
    for (const mobile of mobiles) {
      const b = await balanceOf(mobile);
      expect([100, 0]).toContain(b);
    }
    await expectBooksAgree();
  });
});

describe('races', () => {
  it('10 concurrent posts of one invoice make one row', async () => {
    const body = {
      invoiceNo: 'RACE-1',
      invoiceDate: '2025-06-15',
      mobile: '9600000001',
      name: 'Hari',
      lines: [line(10000)],
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => sale(body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(
      await ctx.sql(
        `SELECT count(*)::int AS n FROM points_entries WHERE narration LIKE 'Sale, invoice RACE-1 %'`,
      ),
    ).toEqual([{ n: 1 }]);
    expect(await balanceOf('9600000001')).toBe(100);
  });

  it('20 concurrent sales and redemptions for one customer: balance = ledger, never negative', async () => {
    const mobile = '9600000002';
    await sale({
      invoiceNo: 'RACE-S0',
      invoiceDate: '2025-06-15',
      mobile,
      name: 'Indu',
      lines: [line(20000)],
    });
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? sale({
            invoiceNo: `RACE-S${i + 1}`,
            invoiceDate: '2025-06-15',
            mobile,
            lines: [line(10000)],
          })
        : redeem({ invoiceNo: `RACE-R${i}`, mobile, points: 150 }),
    );
    const answers = await Promise.all(calls);
    for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
    const redeemed = answers.filter((a, i) => i % 2 === 1 && a.statusCode === 200).length;
    expect(await balanceOf(mobile)).toBe(200 + 10 * 100 - redeemed * 150);
    await expectBooksAgree();
  });
});

describe('manual entries and lots', () => {
  const manual = (url: string, formData: Record<string, unknown>) =>
    ownerCall('POST', `/api/customers/${url}`, { formData });
  const lotsOf = (mobile: string) =>
    ctx.sql(
      `SELECT l.points, l.remaining, l.expires_on::text FROM points_lots l JOIN customers c ON c.id = l.customer_id
        WHERE c.mobileno = $1 ORDER BY l.id`,
      [mobile],
    );

  it('a manual credit is a lot by the rules in force, a manual debit takes the soonest-expiring', async () => {
    const mobile = '9700000001';
    await sale({
      invoiceNo: 'M-1',
      invoiceDate: '2025-06-01',
      mobile,
      name: 'Jaya',
      lines: [line(10000)],
    });
    const credit = await manual('update-points', {
      MOBILENO: mobile,
      POINTS: 40,
      INVDATE: '2024-01-10',
      CASHCR: 'CR',
    });
    expect(credit.statusCode, credit.body).toBe(200);
    await manual('update-points', {
      MOBILENO: mobile,
      POINTS: 50,
      INVDATE: '2025-06-15',
      CASHCR: 'DB',
    });
    expect(await lotsOf(mobile)).toEqual([
      { points: 100, remaining: 90, expires_on: '2027-06-01' },
      { points: 40, remaining: 0, expires_on: '2026-01-10' },
    ]);
    await expectBooksAgree();
  });

  it('edits of manual rows keep the lots equal to the balance: grow, shrink, move, turn into a debit', async () => {
    const a = '9700000002';
    const b = '9700000003';
    await sale({
      invoiceNo: 'M-2',
      invoiceDate: '2025-06-01',
      mobile: a,
      name: 'Kiran',
      lines: [line(20000)],
    });
    await sale({
      invoiceNo: 'M-3',
      invoiceDate: '2025-06-01',
      mobile: b,
      name: 'Lata',
      lines: [line(10000)],
    });
    await manual('update-points', { MOBILENO: a, POINTS: 60, INVDATE: '2025-06-10', CASHCR: 'CR' });
    const [{ mrn }] = (await ctx.sql(
      `SELECT mrn FROM points_entries e JOIN customers c ON c.id = e.customer_id WHERE c.mobileno = $1 AND ts = 'M'`,
      [a],
    )) as [{ mrn: number }];
    const edit = async (formData: Record<string, unknown>) => {
      const response = await manual('update-statement', {
        MRN: mrn,
        INVDATE: '2025-06-10',
        ...formData,
      });
      expect(response.statusCode, response.body).toBe(200);
      await expectBooksAgree();
    };
    await edit({ MOBILENO: a, POINTS: 90, CASHCR: 'CR' });
    await edit({ MOBILENO: a, POINTS: 30, CASHCR: 'CR' });
    await edit({ MOBILENO: b, POINTS: 30, CASHCR: 'CR' });
    await edit({ MOBILENO: b, POINTS: 70, CASHCR: 'DB' });
    await edit({ MOBILENO: a, POINTS: 10, CASHCR: 'DB' });
    await edit({ MOBILENO: a, POINTS: 25, CASHCR: 'CR' });
    expect([await balanceOf(a), await balanceOf(b)]).toEqual([225, 100]);
  });
});
