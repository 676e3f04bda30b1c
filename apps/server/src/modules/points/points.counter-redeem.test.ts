import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES, type Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  pointsBalance,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { checkLedger } from './points.ledger-check.js';

/**
 * Points redeemed at the counter by staff: the minimum and the balance hold under parallel
 * presses, a repeated press takes once, any branch's cashier may redeem a chain customer, and
 * the balance, the ledger and the lots agree afterwards.
 */
const now = new Date('2026-02-10T12:00:00+05:30');
let ctx: TestContext;
const tokens: Record<string, string> = {};

async function staffMember(username: string, role: Role, branch?: string) {
  const { user, token } = await staffSession(ctx, username, role, branch);
  tokens[username] = token;
  return user;
}

const call = (username: string, path: string, payload: object, idempotencyKey?: string) =>
  ctx.app.inject(
    authed(tokens[username]!, { method: 'POST', url: `/api${path}`, payload, idempotencyKey }),
  );

async function ok(response: Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json();
}

const redeem = (username: string, body: object, idempotencyKey?: string) =>
  call(username, '/points/redeem', body, idempotencyKey);

const balanceOf = async (mobile: string) => (await pointsBalance(ctx, mobile))!;

let nextMobile = 9876500000;
async function customerWith(points: number) {
  const mobile = String(nextMobile++);
  await ctx.sql(`INSERT INTO customers (mobileno, custname) VALUES ($1, 'Lakshmi Iyer')`, [mobile]);
  await ok(
    call('owner', '/customers/update-points', {
      formData: {
        MOBILENO: mobile,
        POINTS: String(points),
        INVDATE: '2026-02-01',
        CASHCR: 'CR',
        NARRATION: '',
      },
    }),
  );
  return mobile;
}

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  await staffMember('owner', 'owner');
  await ok(
    call('owner', '/branches', {
      code: 'ANN',
      name: 'Anna Nagar',
      address: '5 2nd Avenue, Anna Nagar, Chennai 600040',
      phone: '+91 44 2626 1001',
    }),
  );
  await staffMember('mainCashier', 'cashier');
  await staffMember('annCashier', 'cashier', 'ANN');
  // A point is worth ₹0.50; at least 100 points at a time.
  await ctx.sql(
    `INSERT INTO points_rules (valid_from, rupees_per_point_paise, excluded_categories,
       point_value_paise, min_redeem_points, expiry_months)
     VALUES ('2000-01-01', 10000, '[]', 50, 100, 12)`,
  );
});
afterAll(() => ctx.close());

describe('counter redemption', () => {
  it('redeems: the points, their value in rupees and the balance left', async () => {
    const mobile = await customerWith(500);
    const body = await ok(redeem('mainCashier', { mobile, points: 200, invoiceNo: 'B-17' }));
    expect(body.data).toEqual({ points: 200, value: 100, balance: 300 });
    expect(await balanceOf(mobile)).toBe(300);
    const [entry] = await ctx.sql<{ debit: number; ts: string; narration: string }>(
      `SELECT debit, ts, narration FROM points_entries e JOIN customers c ON c.id = e.customer_id
        WHERE c.mobileno = $1 AND e.debit > 0`,
      [mobile],
    );
    expect(entry).toEqual({
      debit: 200,
      ts: 'R',
      narration: 'Redemption at the counter, invoice B-17, value ₹100.00',
    });
    const audit = await ctx.sql(`SELECT 1 FROM audit_log WHERE action = 'points.redeem'`);
    expect(audit.length).toBeGreaterThan(0);
    const notices = await ctx.sql(
      `SELECT 1 FROM notices n JOIN customers c ON c.id = n.customer_id
        WHERE c.mobileno = $1 AND n.event = 'pointsRedeemed'`,
      [mobile],
    );
    expect(notices).toHaveLength(1);
  });

  it('shows the balance, its value and the minimum before redeeming', async () => {
    const mobile = await customerWith(500);
    const body = await ok(call('mainCashier', '/points/redeem-terms', { mobile }));
    expect(body.data).toEqual({ balance: 500, value: 250, pointValue: 0.5, minRedeemPoints: 100 });
  });

  it('refuses fewer points than the minimum, changing nothing', async () => {
    const mobile = await customerWith(500);
    const response = await redeem('mainCashier', { mobile, points: 99 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      message: MESSAGES.redeemBelowMinimum(100),
    });
    expect(await balanceOf(mobile)).toBe(500);
  });

  it('refuses more points than the balance, changing nothing', async () => {
    const mobile = await customerWith(150);
    const response = await redeem('mainCashier', { mobile, points: 151 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.insufficientPoints(150) });
    expect(await balanceOf(mobile)).toBe(150);
  });

  it('never overdraws when two counters redeem at once', async () => {
    const mobile = await customerWith(300);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        redeem(i % 2 ? 'annCashier' : 'mainCashier', { mobile, points: 100 }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 409, 409]);
    expect(await balanceOf(mobile)).toBe(0);
  });

  it('a repeated press with the same key answers the first answer and takes once', async () => {
    const mobile = await customerWith(400);
    const key = randomUUID();
    const first = await ok(redeem('mainCashier', { mobile, points: 100 }, key));
    const again = await ok(redeem('mainCashier', { mobile, points: 100 }, key));
    expect(again).toEqual(first);
    expect(await balanceOf(mobile)).toBe(300);
  });

  it("another branch's cashier redeems a chain customer, in their own branch", async () => {
    const mobile = await customerWith(250);
    const body = await ok(redeem('annCashier', { mobile, points: 100 }));
    expect(body.data.balance).toBe(150);
    const [row] = await ctx.sql<{ code: string }>(
      `SELECT b.code FROM points_entries e JOIN branches b ON b.id = e.branch_id
         JOIN customers c ON c.id = e.customer_id WHERE c.mobileno = $1 AND e.debit > 0`,
      [mobile],
    );
    expect(row!.code).toBe('ANN');
  });

  it('refuses a press repeated after logout: 401, nothing more taken', async () => {
    const mobile = await customerWith(400);
    const { token } = await staffSession(ctx, 'leavingCashier', 'cashier');
    const key = randomUUID();
    const send = () =>
      ctx.app.inject(
        authed(token, {
          method: 'POST',
          url: '/api/points/redeem',
          payload: { mobile, points: 100 },
          idempotencyKey: key,
        }),
      );
    await ok(send());
    await ok(ctx.app.inject(authed(token, { method: 'POST', url: '/api/logout' })));
    const again = await send();
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
    expect(await balanceOf(mobile)).toBe(300);
  });

  it('refuses an invoice number on two lines or too long, changing nothing', async () => {
    const mobile = await customerWith(300);
    const twoLines = await redeem('mainCashier', { mobile, points: 100, invoiceNo: 'B-17\nPaid' });
    expect(twoLines.statusCode).toBe(400);
    expect(twoLines.json().message).toBe(MESSAGES.nameOnOneLine('Invoice number'));
    const long = await redeem('mainCashier', { mobile, points: 100, invoiceNo: 'B'.repeat(41) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Invoice number must be at most 40 characters.');
    expect(await balanceOf(mobile)).toBe(300);
  });

  it('refuses an unknown customer and bad points plainly', async () => {
    const unknown = await redeem('mainCashier', { mobile: '9000000001', points: 100 });
    expect(unknown.statusCode).toBe(404);
    const bad = await redeem('mainCashier', { mobile: '9000000001', points: -5 });
    expect(bad.statusCode).toBe(400);
  });

  it('leaves the balance, the ledger and the lots agreeing', async () => {
    const check = await checkLedger(ctx.database.db);
    expect(check.differing).toBe(0);
  });
});
