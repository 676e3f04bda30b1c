import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  movableClock,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';

/**
 * The counter home lists the installments the signed-in staff member took today: their own
 * only, never a colleague's at the same counter, nor another day's. A cashier may read it
 * though the owner's reports stay closed to them.
 */

const TODAY = '2026-03-10';
const clock = movableClock(TODAY);
let ctx: TestContext;
const tokens: Record<string, string> = {};

const as = (username: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject(authed(tokens[username]!, { method, url: `/api${url}`, payload }));
async function staffMember(username: string, role: Role, branch: string) {
  tokens[username] = (await staffSession(ctx, username, role, branch)).token;
}

/** A scheme started and activated on 10 Jan, entered that day at the counter. */
async function activeScheme(username: string, mobileno: string, custname: string, amount: number) {
  clock.set('2026-01-10');
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
  clock.reset();
  return schemeid;
}

beforeAll(async () => {
  ctx = await createTestContext({}, clock.now);
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
    const answers = [
      await paid('asha', ashas, TODAY, 'upi'),
      await paid('ravi', ravis, TODAY, 'cash'),
    ];
    // Asha's, but of another day (and entered that day).
    clock.set('2026-02-10');
    answers.push(await paid('asha', ravis, '2026-02-10', 'card'));
    clock.reset();
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);

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

describe('the cash book by the day entered', () => {
  it('lists an installment entered today but dated 5 days back under today’s entries, marked backdated', async () => {
    const schemeid = await activeScheme('asha', '9500000003', 'Kavita Menon', 3000);
    const dated = '2026-03-05';
    const paid = await as('asha', 'POST', '/scheme/add-installment', {
      schemeid,
      date: dated,
      mode: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const receipt = paid.json().data.receiptNo as string;
    // The database stamps the row with its own clock: pinned to today, as it was entered then.
    await ctx.sql(
      `UPDATE scheme_installments SET created_at = ($2 || ' 11:20')::timestamp AT TIME ZONE 'Asia/Kolkata'
        WHERE receipt = $1`,
      [receipt, TODAY],
    );
    const entry = {
      date: dated,
      time: '11:20',
      branch: 'MAIN',
      staff: 'asha',
      kind: 'installment',
      receipt,
      schemeid,
      custname: 'Kavita Menon',
      mobileno: '9500000003',
      mode: 'cash',
      amount: 3000,
      points: null,
      enteredOn: TODAY,
    };
    const book = async (filter: object) => {
      const answer = await as('owner1', 'POST', '/reports/collections', filter);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json();
    };

    // Today's entries: it is there, with the day it is dated, and counted as backdated.
    const enteredToday = await book({ from: TODAY, to: TODAY, by: 'entered' });
    expect(enteredToday.data).toEqual([entry]);
    expect(enteredToday.totals).toMatchObject({
      installments: 1,
      collected: 3000,
      byMode: expect.objectContaining({ cash: 3000 }),
      backdated: 1,
    });
    // Today's payments by their date leave it out; the day it is dated shows it, entered today.
    const datedToday = await book({ from: TODAY, to: TODAY });
    expect(datedToday.data).not.toContainEqual(expect.objectContaining({ receipt }));
    // (This file's other rows are stamped by the database's clock, after the test's today.)
    expect(datedToday.totals.backdated).toBe(
      datedToday.data.filter(
        (row: { kind: string; date: string; enteredOn: string }) =>
          row.kind === 'installment' && row.date < row.enteredOn,
      ).length,
    );
    const datedThen = await book({ from: dated, to: dated });
    expect(datedThen.data).toEqual([entry]);
    expect(datedThen.totals.backdated).toBe(1);

    // The CSV says when it was entered, and that it was backdated.
    const csv = await as('owner1', 'POST', '/reports/collections', {
      from: TODAY,
      to: TODAY,
      by: 'entered',
      format: 'csv',
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="collections-entered-${TODAY}.csv"`,
    );
    expect(csv.body).toContain(
      `05/03/2026,11:20,MAIN,asha,Installment,${receipt},${schemeid},Kavita Menon,9500000003,Cash,3000,,10/03/2026,Yes\r\n`,
    );
  });

  it('refuses the choice of days on another report', async () => {
    const overdue = await as('owner1', 'POST', '/reports/overdue', { by: 'entered' });
    expect(overdue.statusCode).toBe(400);
    expect(overdue.json().message).toBe(
      'Dated or entered days apply only to the collections report.',
    );
    const unknown = await as('owner1', 'POST', '/reports/collections', { by: 'typed' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Choose the days installments are dated or entered.');
  });
});
