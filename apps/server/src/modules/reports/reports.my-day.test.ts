import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';

/**
 * The counter home lists the installments the signed-in staff member took today: their own
 * only, never a colleague's at the same counter, nor another day's. A cashier may read it
 * though the owner's reports stay closed to them.
 */

const TODAY = '2026-03-10';
const now = new Date(`${TODAY}T12:00:00+05:30`);
let ctx: TestContext;
const tokens: Record<string, string> = {};

const as = (username: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject(authed(tokens[username]!, { method, url: `/api${url}`, payload }));
async function staffMember(username: string, role: Role, branch: string) {
  tokens[username] = (await staffSession(ctx, username, role, branch)).token;
}

async function activeScheme(username: string, mobileno: string, custname: string, amount: number) {
  const [customer] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
    [mobileno, custname],
  );
  const made = await as(username, 'POST', '/scheme/generate', {
    custid: customer!.id,
    mobileno,
    custname,
    startdt: '2026-01-10',
    amount,
  });
  expect(made.statusCode, made.body).toBe(200);
  const schemeid = made.json().data.schemeid as number;
  const activated = await as(username, 'POST', '/scheme/activate', {
    schemeid,
    date: '2026-01-10',
    mode: 'cash',
  });
  expect(activated.statusCode, activated.body).toBe(200);
  return schemeid;
}

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  await staffMember('owner1', 'owner', 'MAIN');
  await staffMember('asha', 'cashier', 'MAIN');
  await staffMember('ravi', 'cashier', 'MAIN');
}, 60_000);
afterAll(() => ctx.close());

describe("a staff member's own day", () => {
  it("lists only the caller's installments of today, with their receipts and totals", async () => {
    const ashas = await activeScheme('asha', '9500000001', 'Meera Iyer', 2000);
    const ravis = await activeScheme('ravi', '9500000002', 'Sunil Rao', 5000);
    // Stored before names were kept to one line: listed cleaned, as every answer lists it.
    await ctx.sql(`UPDATE customers SET custname = $1 WHERE mobileno = '9500000001'`, [
      'Meera\n\u202EIyer',
    ]);
    const paid = (username: string, schemeid: number, date: string, mode: string) =>
      as(username, 'POST', '/scheme/add-installment', { schemeid, date, mode });
    for (const answer of [
      await paid('asha', ashas, TODAY, 'upi'),
      await paid('ravi', ravis, TODAY, 'cash'),
      // Asha's, but of another day.
      await paid('asha', ravis, '2026-02-10', 'card'),
    ])
      expect(answer.statusCode, answer.body).toBe(200);

    const asha = await as('asha', 'GET', '/reports/my-day');
    expect(asha.statusCode, asha.body).toBe(200);
    const data = asha.json().data;
    expect(data.date).toBe(TODAY);
    expect(data.installments).toEqual([
      {
        time: expect.stringMatching(/^\d\d:\d\d$/),
        receipt: expect.any(String),
        schemeid: ashas,
        custname: 'Meera Iyer',
        mobileno: '9500000001',
        mode: 'upi',
        amount: 2000,
      },
    ]);
    expect(data.totals).toEqual({ installments: 1, amount: 2000 });
    const book = await as('owner1', 'POST', '/reports/collections', { from: TODAY, to: TODAY });
    expect(book.statusCode, book.body).toBe(200);
    expect(book.json().data).toContainEqual(
      expect.objectContaining({ schemeid: ashas, custname: 'Meera Iyer' }),
    );

    const ravi = (await as('ravi', 'GET', '/reports/my-day')).json().data;
    expect(ravi.installments.map((row: { schemeid: number }) => row.schemeid)).toEqual([ravis]);
    // The owner took none today: their own day is empty, not the shop's.
    const owner = (await as('owner1', 'GET', '/reports/my-day')).json().data;
    expect(owner.installments).toEqual([]);
  });

  it('keeps the cash book closed to a cashier, and refuses anyone not signed in', async () => {
    const book = await as('asha', 'POST', '/reports/collections', {});
    expect(book.statusCode).toBe(403);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/reports/my-day' });
    expect(anonymous.statusCode).toBe(401);
  });
});
