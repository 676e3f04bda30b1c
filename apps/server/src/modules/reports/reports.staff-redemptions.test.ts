import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { CSV_BOM, type Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  movableClock,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';

/**
 * The cash book holds the points staff redeem on the Redeem Points screen beside those the
 * billing system posts: who redeemed, where, for whom, the points and what they were worth,
 * in the day's rows, its totals and its CSV, per branch, each redemption once. Points staff
 * credit or deduct by hand are corrections, not money at the till, and stay out.
 */

const TODAY = '2026-03-10';
const YESTERDAY = '2026-03-09';
const clock = movableClock(TODAY);

let ctx: TestContext;
const tokens: Record<string, string> = {};
let mainTill = '';

async function ok(response: Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json();
}
const as = (username: string, url: string, payload: object) =>
  ctx.app.inject(authed(tokens[username]!, { method: 'POST', url: `/api${url}`, payload }));

async function staffMember(username: string, name: string, role: Role, branch?: string) {
  const { user, token } = await staffSession(ctx, username, role, branch);
  await ctx.sql(`UPDATE users SET name = $2 WHERE id = $1`, [user.id, name]);
  tokens[username] = token;
}

const C = {
  lata: { mobileno: '9810000001', custname: 'Lata Iyer' },
  mohan: { mobileno: '9810000002', custname: 'Mohan Das' },
  nisha: { mobileno: '9810000003', custname: 'Nisha Jain' },
};

const byHand = (username: string, mobile: string, cashcr: 'CR' | 'DB', points: number) =>
  ok(
    as(username, '/customers/update-points', {
      formData: { MOBILENO: mobile, POINTS: points, INVDATE: TODAY, CASHCR: cashcr },
    }),
  );

/** A staff redemption, its ledger row then pinned to the hour of the scenario's day. */
async function staffRedeems(
  username: string,
  mobile: string,
  points: number,
  at: { date: string; time: string },
  invoiceNo?: string,
) {
  await ok(as(username, '/points/redeem', { mobile, points, ...(invoiceNo && { invoiceNo }) }));
  const [entry] = await ctx.sql<{ mrn: string }>(
    `UPDATE points_entries
        SET created_at = ($1 || ' ' || $2)::timestamp AT TIME ZONE 'Asia/Kolkata'
      WHERE mrn = (SELECT max(mrn) FROM points_entries WHERE ts = 'R')
      RETURNING mrn`,
    [at.date, at.time],
  );
  return Number(entry!.mrn);
}

const entries: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext({}, clock.now);
  await staffMember('owner1', 'Owner One', 'owner');
  await ok(
    as('owner1', '/branches', {
      code: 'PUNE',
      name: 'Pune showroom',
      address: '1 FC Road, Pune',
      phone: '+91 20 2345 6789',
    }),
  );
  await staffMember('asha', 'Asha Rao', 'cashier', 'MAIN');
  await staffMember('ravi', 'Ravi Patil', 'cashier', 'PUNE');
  await staffMember('meena', 'Meena Shah', 'manager', 'PUNE');
  mainTill = (await ok(as('owner1', '/settings/api-keys', { label: 'Main till', branch: 'MAIN' })))
    .data.key;
  // A point is worth 50 paise: the rupees differ from the points.
  await ok(
    as('owner1', '/settings/points', {
      rupeesPerPoint: 100,
      excludedCategories: ['coin', 'bullion'],
      pointValue: 0.5,
      minRedeemPoints: 100,
      expiryMonths: 24,
    }),
  );
  for (const customer of Object.values(C))
    await ctx.sql(`INSERT INTO customers (mobileno, custname) VALUES ($1, $2)`, [
      customer.mobileno,
      customer.custname,
    ]);

  // Points given and taken by hand: corrections, not in the cash book.
  await byHand('asha', C.lata.mobileno, 'CR', 1000);
  await byHand('ravi', C.mohan.mobileno, 'CR', 1000);
  await byHand('asha', C.nisha.mobileno, 'CR', 1000);
  await byHand('asha', C.lata.mobileno, 'DB', 50);

  entries.yesterday = await staffRedeems('asha', C.lata.mobileno, 120, {
    date: YESTERDAY,
    time: '17:00',
  });
  // The bill's number holds a comma, as a billing system's may.
  entries.lata = await staffRedeems(
    'asha',
    C.lata.mobileno,
    300,
    { date: TODAY, time: '11:00' },
    'B-17, counter 2',
  );
  // Posted by the billing system: its own row, never a second one from the ledger.
  await ok(
    ctx.app.inject({
      method: 'POST',
      url: '/api/pos/redemptions',
      payload: { invoiceNo: 'INV-M7', mobile: C.nisha.mobileno, points: 100 },
      headers: { 'x-api-key': mainTill },
    }),
  );
  await ctx.sql(
    `UPDATE pos_redemptions
        SET created_at = ($1 || ' 12:15')::timestamp AT TIME ZONE 'Asia/Kolkata'
      WHERE invoice_no = 'INV-M7'`,
    [TODAY],
  );
  // Redeemed at Pune without naming a bill: 201 points at 50 paise are ₹100.50.
  entries.mohan = await staffRedeems('ravi', C.mohan.mobileno, 201, { date: TODAY, time: '13:30' });
}, 60_000);
afterAll(() => ctx.close());

const redemption = {
  date: TODAY,
  kind: 'redemption',
  schemeid: null,
  mode: 'points',
  enteredOn: TODAY,
};
const todaysRows = () => [
  {
    ...redemption,
    time: '11:00',
    branch: 'MAIN',
    staff: 'Asha Rao',
    receipt: 'B-17, counter 2',
    custname: C.lata.custname,
    mobileno: C.lata.mobileno,
    amount: 150,
    points: 300,
    entry: entries.lata,
  },
  {
    ...redemption,
    time: '12:15',
    branch: 'MAIN',
    staff: 'Main till',
    receipt: 'INV-M7',
    custname: C.nisha.custname,
    mobileno: C.nisha.mobileno,
    amount: 50,
    points: 100,
  },
  {
    ...redemption,
    time: '13:30',
    branch: 'PUNE',
    staff: 'Ravi Patil',
    receipt: '',
    custname: C.mohan.custname,
    mobileno: C.mohan.mobileno,
    amount: 100.5,
    points: 201,
    entry: entries.mohan,
  },
];
const noInstallments = {
  installments: 0,
  collected: 0,
  byMode: { cash: 0, upi: 0, card: 0, bank: 0, cheque: 0, online: 0 },
  cancelledRedemptions: 0,
  backdated: 0,
};

const cashBook = async (username: string, filter: object = {}) =>
  ok(as(username, '/reports/collections', filter));

describe('points redeemed by staff in the cash book', () => {
  it("are the day's rows and totals beside the billing system's, each once", async () => {
    expect(await cashBook('owner1')).toEqual({
      success: true,
      data: todaysRows(),
      total: 3,
      totals: { ...noInstallments, redemptions: 3, pointsRedeemed: 601, redeemedValue: 300.5 },
    });
  });

  it('keep their order across pages', async () => {
    expect(await cashBook('owner1', { page: 2, pageSize: 1 })).toEqual({
      success: true,
      data: todaysRows().slice(1, 2),
      total: 3,
      totals: { ...noInstallments, redemptions: 3, pointsRedeemed: 601, redeemedValue: 300.5 },
    });
  });

  it("belong to the redeeming staff member's branch: the owner's filter and a manager's own", async () => {
    const pune = {
      success: true,
      data: todaysRows().filter((row) => row.branch === 'PUNE'),
      total: 1,
      totals: { ...noInstallments, redemptions: 1, pointsRedeemed: 201, redeemedValue: 100.5 },
    };
    expect(await cashBook('owner1', { branch: 'PUNE' })).toEqual(pune);
    expect(await cashBook('meena', { branch: 'MAIN' })).toEqual(pune);
    const main = await cashBook('owner1', { branch: 'MAIN' });
    expect(main.data).toEqual(todaysRows().filter((row) => row.branch === 'MAIN'));
    expect(main.totals).toMatchObject({ redemptions: 2, pointsRedeemed: 400, redeemedValue: 200 });
  });

  it('fall on the day they were made, by either choice of days', async () => {
    const yesterday = await cashBook('owner1', { from: YESTERDAY, to: YESTERDAY });
    expect(yesterday.data).toEqual([
      {
        ...redemption,
        date: YESTERDAY,
        enteredOn: YESTERDAY,
        time: '17:00',
        branch: 'MAIN',
        staff: 'Asha Rao',
        receipt: '',
        custname: C.lata.custname,
        mobileno: C.lata.mobileno,
        amount: 60,
        points: 120,
        entry: entries.yesterday,
      },
    ]);
    const entered = await cashBook('owner1', { by: 'entered' });
    expect(entered.data).toEqual(todaysRows());
    expect(entered.totals.redeemedValue).toBe(300.5);
  });

  it('are lines of the CSV', async () => {
    const response = await as('owner1', '/reports/collections', { format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe(
      CSV_BOM +
        'Date,Time,Branch,Staff,Kind,Receipt / invoice,Scheme ID,Customer,Mobile,Mode,Amount,Points,Entered on,Backdated\r\n' +
        '10/03/2026,11:00,MAIN,Asha Rao,Points redeemed,"B-17, counter 2",,Lata Iyer,9810000001,Points,150,300,10/03/2026,\r\n' +
        '10/03/2026,12:15,MAIN,Main till,Points redeemed,INV-M7,,Nisha Jain,9810000003,Points,50,100,10/03/2026,\r\n' +
        '10/03/2026,13:30,PUNE,Ravi Patil,Points redeemed,,,Mohan Das,9810000002,Points,100.5,201,10/03/2026,\r\n',
    );
  });
});
