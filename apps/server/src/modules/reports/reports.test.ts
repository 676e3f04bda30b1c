import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { CSV_BOM, MESSAGES, REPORT_MESSAGES, type Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  movableClock,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { expireDueLots } from '../points/index.js';
import { expectSummariesAgree } from '../../../test/summaries.js';

/**
 * A known chain of two branches, MAIN and PUNE, over two months (and a few older rows the
 * windows must leave out), built through the API with the app's clock moved as it goes: every
 * dashboard figure and every report's rows and totals are then asserted exactly, for the
 * whole chain and each branch, as the owner and as a branch's manager.
 */

const TODAY = '2026-03-10';
const clock = movableClock(TODAY);
const { enteredOn } = clock;

let ctx: TestContext;
const tokens: Record<string, string> = {};
const keys: Record<'MAIN' | 'PUNE', string> = { MAIN: '', PUNE: '' };

async function ok(response: LightMyRequestResponse | Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json();
}

const as = (username: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  ctx.app.inject(
    authed(tokens[username]!, {
      method,
      url: `/api${url}`,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    }),
  );
const pos = (branch: 'MAIN' | 'PUNE', url: string, payload: object) =>
  ok(
    ctx.app.inject({
      method: 'POST',
      url: `/api/pos/${url}`,
      payload,
      headers: { 'x-api-key': keys[branch] },
    }),
  );

async function staffMember(username: string, name: string, role: Role, branch?: string) {
  const { user, token } = await staffSession(ctx, username, role, branch);
  await ctx.sql(`UPDATE users SET name = $2 WHERE id = $1`, [user.id, name]);
  tokens[username] = token;
}

/** The customers, by the names the reports show. */
const C = {
  kiran: { mobileno: '9800000001', custname: 'Kiran Mehta', id: 0 },
  lata: { mobileno: '9800000002', custname: 'Lata Iyer', id: 0 },
  mohan: { mobileno: '9800000003', custname: 'Mohan Das', id: 0 },
  nisha: { mobileno: '9800000004', custname: 'Nisha Jain', id: 0 },
  om: { mobileno: '9800000005', custname: 'Om Prakash', id: 0 },
  padma: { mobileno: '9800000006', custname: 'Padma Rao', id: 0 },
  ravi: { mobileno: '9800000007', custname: 'Ravi Kumar', id: 0 },
  sita: { mobileno: '9800000008', custname: 'Sita Devi', id: 0 },
  tara: { mobileno: '9800000009', custname: 'Tara Singh', id: 0 },
  uma: { mobileno: '9800000010', custname: 'Uma Bose', id: 0 },
};
type Customer = (typeof C)[keyof typeof C];

const gold = (amount: number) => ({ description: 'Chain', category: 'gold', amount });
const sale = (
  branch: 'MAIN' | 'PUNE',
  invoiceNo: string,
  date: string,
  who: Customer,
  ...lines: object[]
) => pos(branch, 'sales', { invoiceNo, invoiceDate: date, mobile: who.mobileno, lines });

const points = (
  username: string,
  who: Customer,
  cashcr: 'CR' | 'DB',
  amount: number,
  date: string,
) =>
  ok(
    as(username, 'POST', '/customers/update-points', {
      formData: { MOBILENO: who.mobileno, POINTS: amount, INVDATE: date, CASHCR: cashcr },
    }),
  );

/** The schemes, by the names the test gives them, and each installment's receipt. */
const S: Record<string, number> = {};
const receipts: Record<string, string> = {};

async function scheme(
  name: string,
  username: string,
  who: Customer,
  amount: number,
  start: string,
) {
  const made = await enteredOn(start, () =>
    ok(
      as(username, 'POST', '/scheme/generate', {
        custid: who.id,
        mobileno: who.mobileno,
        custname: who.custname,
        startdt: start,
        amount,
      }),
    ),
  );
  S[name] = made.data.schemeid;
}
async function pay(name: string, username: string, date: string, mode: string) {
  const first =
    (await ctx.sql(`SELECT 1 FROM scheme_installments WHERE scheme_id = $1`, [S[name]])).length ===
    0;
  const paid = await enteredOn(date, () =>
    ok(
      as(username, 'POST', first ? '/scheme/activate' : '/scheme/add-installment', {
        schemeid: S[name],
        date,
        mode,
      }),
    ),
  );
  receipts[`${name} ${date}`] = paid.data.receiptNo;
}

/**
 * The app stamps rows with the database's own clock; the cash book's times are pinned to the
 * scenario's day and hour, as they would have been recorded then.
 */
async function pinInstallmentTime(name: string, date: string, time: string) {
  await ctx.sql(
    `UPDATE scheme_installments SET created_at = ($2 || ' ' || $3)::timestamp AT TIME ZONE 'Asia/Kolkata'
      WHERE scheme_id = $1 AND paid_on = $2`,
    [S[name], date, time],
  );
}
async function pinRedemptionTime(
  invoiceNo: string,
  date: string,
  time: string,
  cancelTime?: string,
) {
  await ctx.sql(
    `UPDATE pos_redemptions
        SET created_at = ($2 || ' ' || $3)::timestamp AT TIME ZONE 'Asia/Kolkata',
            cancelled_at = CASE WHEN cancelled_at IS NOT NULL
                                THEN ($2 || ' ' || $4)::timestamp AT TIME ZONE 'Asia/Kolkata' END
      WHERE invoice_no = $1`,
    [invoiceNo, date, time, cancelTime ?? time],
  );
}

beforeAll(async () => {
  ctx = await createTestContext({ INSTALLMENTS: '11' }, clock.now);
  await staffMember('owner1', 'Owner One', 'owner');
  await ok(
    as('owner1', 'POST', '/branches', {
      code: 'PUNE',
      name: 'Pune showroom',
      address: '1 FC Road, Pune',
      phone: '+91 20 2345 6789',
    }),
  );
  await staffMember('asha', 'Asha Rao', 'cashier', 'MAIN');
  await staffMember('ravi', 'Ravi Patil', 'cashier', 'PUNE');
  await staffMember('mainmgr', 'Mahesh Gupta', 'manager', 'MAIN');
  await staffMember('meena', 'Meena Shah', 'manager', 'PUNE');
  await staffMember('cash3', 'Cash Three', 'cashier', 'MAIN');
  for (const [branch, label] of [
    ['MAIN', 'Main till'],
    ['PUNE', 'Pune till'],
  ] as const) {
    keys[branch] = (
      await ok(as('owner1', 'POST', '/settings/api-keys', { label, branch }))
    ).data.key;
  }
  for (const customer of Object.values(C)) {
    const [row] = await ctx.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
      [customer.mobileno, customer.custname],
    );
    customer.id = row!.id;
  }

  // Points. Older credits first: one expired on 15 Jan 2026, one expiring on 20 Mar 2026.
  await points('asha', C.om, 'CR', 80, '2024-01-15');
  await points('asha', C.padma, 'CR', 60, '2024-03-20');
  clock.set('2026-02-05');
  await sale('MAIN', 'INV-M1', '2026-02-05', C.kiran, gold(50_000));
  await sale('PUNE', 'INV-P1', '2026-02-05', C.lata, gold(30_000), {
    description: 'Coin',
    category: 'coin',
    amount: 10_000,
  });
  await points('asha', C.mohan, 'CR', 200, '2026-02-05');
  clock.set('2026-02-20');
  await pos('MAIN', 'redemptions', { invoiceNo: 'INV-M2', mobile: C.kiran.mobileno, points: 150 });
  await points('ravi', C.lata, 'DB', 50, '2026-02-20');
  clock.set('2026-03-02');
  await sale('MAIN', 'INV-M3', '2026-03-02', C.nisha, gold(20_000));
  await pos('MAIN', 'returns', {
    returnNo: 'RET-M1',
    invoiceNo: 'INV-M1',
    returnDate: '2026-03-02',
    lines: [gold(20_000)],
  });
  await sale('PUNE', 'INV-P4', '2026-03-02', C.mohan, gold(15_000));
  clock.set(TODAY);
  await sale('PUNE', 'INV-P2', TODAY, C.om, gold(10_000));
  await pos('PUNE', 'redemptions', { invoiceNo: 'INV-P3', mobile: C.lata.mobileno, points: 100 });
  await pos('MAIN', 'redemptions', { invoiceNo: 'INV-M4', mobile: C.nisha.mobileno, points: 100 });
  await pos('MAIN', 'redemptions/cancel', { invoiceNo: 'INV-M4' });
  const credit = await points('asha', C.om, 'CR', 40, TODAY);
  // A manager's correction: 40 becomes 45.
  const [entry] = await ctx.sql<{ mrn: number }>(
    `SELECT mrn FROM points_entries WHERE customer_id = $1 AND credit = 40`,
    [C.om.id],
  );
  expect(credit.data.balance).toBe(220);
  await ok(
    as('mainmgr', 'POST', '/customers/update-statement', {
      formData: {
        MRN: entry!.mrn,
        MOBILENO: C.om.mobileno,
        POINTS: 45,
        INVDATE: TODAY,
        CASHCR: 'CR',
        NARRATION: 'Corrected',
      },
    }),
  );
  await pos('PUNE', 'redemptions', { invoiceNo: 'INV-P5', mobile: C.mohan.mobileno, points: 300 });
  await pos('PUNE', 'returns', {
    returnNo: 'RET-P1',
    invoiceNo: 'INV-P4',
    returnDate: TODAY,
    lines: [gold(15_000)],
  });
  await expireDueLots({ db: ctx.database.db }, TODAY);
  // From now on a point is worth 25 paise (the redemptions above were made at ₹1).
  await ok(
    as('owner1', 'POST', '/settings/points', {
      rupeesPerPoint: 100,
      excludedCategories: ['coin', 'bullion'],
      pointValue: 0.25,
      minRedeemPoints: 100,
      expiryMonths: 24,
    }),
  );

  // Schemes (11 monthly installments).
  await scheme('S1', 'asha', C.kiran, 5000, '2025-10-15');
  await pay('S1', 'asha', '2025-10-15', 'cash');
  await pay('S1', 'asha', '2025-11-15', 'upi');
  await pay('S1', 'asha', '2025-12-15', 'card');
  await scheme('S2', 'asha', C.lata, 2000, '2026-01-05');
  await pay('S2', 'asha', '2026-01-05', 'upi');
  await pay('S2', 'asha', '2026-02-05', 'cash');
  await pay('S2', 'asha', TODAY, 'cash');
  await scheme('S3', 'ravi', C.mohan, 3000, '2025-04-10');
  await pay('S3', 'ravi', '2025-04-10', 'bank');
  for (const month of ['05', '06', '07', '08', '09', '10', '11', '12'])
    await pay('S3', 'ravi', `2025-${month}-10`, 'upi');
  await pay('S3', 'ravi', '2026-03-05', 'cheque');
  await scheme('S4', 'ravi', C.nisha, 1500, '2026-02-25');
  await pay('S4', 'ravi', '2026-02-25', 'cash');
  await pay('S4', 'ravi', TODAY, 'upi');
  await scheme('S5', 'asha', C.om, 1000, '2026-02-28'); // never activated
  await scheme('S6', 'ravi', C.padma, 4000, '2025-03-20');
  await pay('S6', 'ravi', '2025-03-20', 'cash');
  await scheme('S7', 'asha', C.ravi, 1000, '2025-02-01'); // matured, not closed
  await pay('S7', 'asha', '2025-02-01', 'cash');
  await scheme('S8', 'asha', C.sita, 2000, '2025-01-10');
  await pay('S8', 'asha', '2025-01-10', 'card');
  await ok(as('mainmgr', 'POST', '/scheme/close', { schemeid: S.S8 }));
  // On the edge of the grace: due 7 days ago (overdue today), and 6 days ago (not yet).
  await scheme('S9', 'asha', C.tara, 1200, '2026-02-03');
  await pay('S9', 'asha', '2026-02-03', 'upi');
  await scheme('S10', 'ravi', C.uma, 800, '2026-02-04');
  await pay('S10', 'ravi', '2026-02-04', 'card');

  await pinInstallmentTime('S2', TODAY, '10:15');
  await pinInstallmentTime('S4', TODAY, '11:30');
  await pinInstallmentTime('S2', '2026-02-05', '17:05');
  await pinInstallmentTime('S4', '2026-02-25', '09:45');
  await pinInstallmentTime('S9', '2026-02-03', '10:00');
  await pinInstallmentTime('S10', '2026-02-04', '10:30');
  await pinRedemptionTime('INV-P3', TODAY, '12:05');
  await pinRedemptionTime('INV-M4', TODAY, '12:40', '12:45');
  await pinRedemptionTime('INV-P5', TODAY, '16:20');
  await pinRedemptionTime('INV-M2', '2026-02-20', '15:00');
}, 120_000);
afterAll(() => ctx.close());

const modes = (
  figures: Partial<Record<'cash' | 'upi' | 'card' | 'bank' | 'cheque' | 'online', number>>,
) => ({
  cash: 0,
  upi: 0,
  card: 0,
  bank: 0,
  cheque: 0,
  online: 0,
  ...figures,
});
const MONTHS = [
  '2025-04',
  '2025-05',
  '2025-06',
  '2025-07',
  '2025-08',
  '2025-09',
  '2025-10',
  '2025-11',
  '2025-12',
  '2026-01',
  '2026-02',
  '2026-03',
];
/** Twelve months of zeros but for the months given. */
const byMonth = (values: Record<string, number>) => MONTHS.map((month) => values[month] ?? 0);

const dashboard = async (username: string, branch = '') =>
  (await ok(as(username, 'GET', `/dashboard${branch ? `?branch=${branch}` : ''}`))).data;
const report = async (username: string, name: string, filter: object = {}) =>
  ok(as(username, 'POST', `/reports/${name}`, filter));

describe('the dashboard', () => {
  it('keeps its daily totals and the schemes paid counts equal to the ledger and installments', async () => {
    await expectSummariesAgree(ctx);
  });

  it('gives the whole chain every figure', async () => {
    expect(await dashboard('owner1')).toEqual({
      today: {
        collections: { amount: 3500, installments: 2, byMode: modes({ cash: 2000, upi: 1500 }) },
        pointsIssued: 95,
      },
      month: {
        collections: {
          amount: 6500,
          installments: 3,
          byMode: modes({ cash: 2000, upi: 1500, cheque: 3000 }),
        },
        collectionsLastMonth: {
          amount: 5500,
          installments: 4,
          byMode: modes({ cash: 3500, upi: 1200, card: 800 }),
        },
        pointsIssued: 245,
        pointsIssuedLastMonth: 1000,
      },
      points: { outstanding: 705, value: 176.25 },
      schemes: {
        active: 8,
        monthlyCommitment: 18_500,
        maturingIn30Days: 2,
        overdueCount: 14,
        overdueAmount: 54_200,
      },
      series: {
        months: MONTHS,
        pointsIssued: byMonth({ '2026-02': 1000, '2026-03': 245 }),
        pointsRedeemed: byMonth({ '2026-02': 200, '2026-03': 400 }),
        pointsExpired: byMonth({ '2026-01': 80 }),
        collections: byMonth({
          '2025-04': 3000,
          '2025-05': 3000,
          '2025-06': 3000,
          '2025-07': 3000,
          '2025-08': 3000,
          '2025-09': 3000,
          '2025-10': 8000,
          '2025-11': 8000,
          '2025-12': 8000,
          '2026-01': 2000,
          '2026-02': 5500,
          '2026-03': 6500,
        }),
      },
    });
    // The chain's points outstanding are the customers' balances.
    const [balances] = await ctx.sql<{ sum: string }>(`SELECT sum(balance) FROM points_accounts`);
    expect(Number(balances!.sum)).toBe(705);
  });

  const pune = {
    today: {
      collections: { amount: 1500, installments: 1, byMode: modes({ upi: 1500 }) },
      pointsIssued: 50,
    },
    month: {
      collections: { amount: 4500, installments: 2, byMode: modes({ upi: 1500, cheque: 3000 }) },
      collectionsLastMonth: {
        amount: 2300,
        installments: 2,
        byMode: modes({ cash: 1500, card: 800 }),
      },
      pointsIssued: 200,
      pointsIssuedLastMonth: 300,
    },
    points: { outstanding: 250, value: 62.5 },
    schemes: {
      active: 4,
      monthlyCommitment: 9300,
      maturingIn30Days: 2,
      overdueCount: 11,
      overdueAmount: 43_000,
    },
    series: {
      months: MONTHS,
      pointsIssued: byMonth({ '2026-02': 300, '2026-03': 200 }),
      pointsRedeemed: byMonth({ '2026-02': 50, '2026-03': 400 }),
      pointsExpired: byMonth({}),
      collections: byMonth({
        '2025-04': 3000,
        '2025-05': 3000,
        '2025-06': 3000,
        '2025-07': 3000,
        '2025-08': 3000,
        '2025-09': 3000,
        '2025-10': 3000,
        '2025-11': 3000,
        '2025-12': 3000,
        '2026-02': 2300,
        '2026-03': 4500,
      }),
    },
  };

  it("gives the owner one branch's figures: PUNE, and MAIN (its own lots and schemes)", async () => {
    expect(await dashboard('owner1', 'PUNE')).toEqual(pune);
    expect(await dashboard('owner1', 'main')).toEqual({
      today: {
        collections: { amount: 2000, installments: 1, byMode: modes({ cash: 2000 }) },
        pointsIssued: 45,
      },
      month: {
        collections: { amount: 2000, installments: 1, byMode: modes({ cash: 2000 }) },
        collectionsLastMonth: {
          amount: 3200,
          installments: 2,
          byMode: modes({ cash: 2000, upi: 1200 }),
        },
        pointsIssued: 45,
        pointsIssuedLastMonth: 700,
      },
      points: { outstanding: 455, value: 113.75 },
      schemes: {
        active: 4,
        monthlyCommitment: 9200,
        maturingIn30Days: 0,
        overdueCount: 3,
        overdueAmount: 11_200,
      },
      series: {
        months: MONTHS,
        pointsIssued: byMonth({ '2026-02': 700, '2026-03': 45 }),
        pointsRedeemed: byMonth({ '2026-02': 150 }),
        pointsExpired: byMonth({ '2026-01': 80 }),
        collections: byMonth({
          '2025-10': 5000,
          '2025-11': 5000,
          '2025-12': 5000,
          '2026-01': 2000,
          '2026-02': 3200,
          '2026-03': 2000,
        }),
      },
    });
  });

  it("shows a manager their own branch's figures, whatever branch they ask for", async () => {
    expect(await dashboard('meena')).toEqual(pune);
    expect(await dashboard('meena', 'MAIN')).toEqual(pune);
  });

  it('refuses a cashier, and a branch that is not a code or not the shop’s', async () => {
    const cashier = await as('cash3', 'GET', '/dashboard');
    expect(cashier.statusCode).toBe(403);
    expect(cashier.json().message).toBe(MESSAGES.notAllowed);
    const unknown = await as('owner1', 'GET', '/dashboard?branch=ZZZ');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      success: false,
      message: REPORT_MESSAGES.unknownBranch('ZZZ'),
    });
    const malformed = await as('owner1', 'GET', '/dashboard?branch=M1');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('Branch must be a branch code of 2 to 6 letters.');
  });
});

describe('the collections report (the cash book)', () => {
  const todaysRows = () => [
    {
      date: TODAY,
      time: '10:15',
      branch: 'MAIN',
      staff: 'Asha Rao',
      kind: 'installment',
      receipt: receipts[`S2 ${TODAY}`],
      schemeid: S.S2,
      custname: C.lata.custname,
      mobileno: C.lata.mobileno,
      mode: 'cash',
      amount: 2000,
      points: null,
      enteredOn: TODAY,
    },
    {
      date: TODAY,
      time: '11:30',
      branch: 'PUNE',
      staff: 'Ravi Patil',
      kind: 'installment',
      receipt: receipts[`S4 ${TODAY}`],
      schemeid: S.S4,
      custname: C.nisha.custname,
      mobileno: C.nisha.mobileno,
      mode: 'upi',
      amount: 1500,
      points: null,
      enteredOn: TODAY,
    },
    {
      date: TODAY,
      time: '12:05',
      branch: 'PUNE',
      staff: 'Pune till',
      kind: 'redemption',
      receipt: 'INV-P3',
      schemeid: null,
      custname: C.lata.custname,
      mobileno: C.lata.mobileno,
      mode: 'points',
      amount: 100,
      points: 100,
      enteredOn: TODAY,
    },
    {
      date: TODAY,
      time: '12:40',
      branch: 'MAIN',
      staff: 'Main till',
      kind: 'redemption',
      receipt: 'INV-M4',
      schemeid: null,
      custname: C.nisha.custname,
      mobileno: C.nisha.mobileno,
      mode: 'points',
      amount: 100,
      points: 100,
      enteredOn: TODAY,
    },
    {
      date: TODAY,
      time: '12:45',
      branch: 'MAIN',
      staff: 'Main till',
      kind: 'redemptionCancelled',
      receipt: 'INV-M4',
      schemeid: null,
      custname: C.nisha.custname,
      mobileno: C.nisha.mobileno,
      mode: 'points',
      amount: -100,
      points: -100,
      enteredOn: TODAY,
    },
    {
      date: TODAY,
      time: '16:20',
      branch: 'PUNE',
      staff: 'Pune till',
      kind: 'redemption',
      receipt: 'INV-P5',
      schemeid: null,
      custname: C.mohan.custname,
      mobileno: C.mohan.mobileno,
      mode: 'points',
      amount: 300,
      points: 300,
      enteredOn: TODAY,
    },
  ];
  const todaysTotals = {
    installments: 2,
    collected: 3500,
    byMode: modes({ cash: 2000, upi: 1500 }),
    redemptions: 3,
    cancelledRedemptions: 1,
    pointsRedeemed: 400,
    redeemedValue: 400,
    backdated: 0,
  };

  it("lists today's installments and redemptions of the whole chain in the order recorded, with the till's totals", async () => {
    expect(receipts[`S2 ${TODAY}`]).toMatch(/^MAIN-\d{6}$/);
    expect(await report('owner1', 'collections')).toEqual({
      success: true,
      data: todaysRows(),
      total: 6,
      totals: todaysTotals,
    });
  });

  it('pages: the second page of two rows, the same total and totals', async () => {
    expect(await report('owner1', 'collections', { page: 2, pageSize: 2 })).toEqual({
      success: true,
      data: todaysRows().slice(2, 4),
      total: 6,
      totals: todaysTotals,
    });
  });

  it("filters one branch for the owner, and gives a manager their own branch's whatever they ask", async () => {
    const puneToday = {
      success: true,
      data: todaysRows().filter((row) => row.branch === 'PUNE'),
      total: 3,
      totals: {
        installments: 1,
        collected: 1500,
        byMode: modes({ upi: 1500 }),
        redemptions: 2,
        cancelledRedemptions: 0,
        pointsRedeemed: 400,
        redeemedValue: 400,
        backdated: 0,
      },
    };
    expect(await report('owner1', 'collections', { branch: 'PUNE' })).toEqual(puneToday);
    expect(await report('meena', 'collections', { branch: 'MAIN' })).toEqual(puneToday);
  });

  it('covers a range of days: February, whole chain', async () => {
    expect(await report('owner1', 'collections', { from: '2026-02-01', to: '2026-02-28' })).toEqual(
      {
        success: true,
        data: [
          {
            date: '2026-02-03',
            time: '10:00',
            branch: 'MAIN',
            staff: 'Asha Rao',
            kind: 'installment',
            receipt: receipts['S9 2026-02-03'],
            schemeid: S.S9,
            custname: C.tara.custname,
            mobileno: C.tara.mobileno,
            mode: 'upi',
            amount: 1200,
            points: null,
            enteredOn: '2026-02-03',
          },
          {
            date: '2026-02-04',
            time: '10:30',
            branch: 'PUNE',
            staff: 'Ravi Patil',
            kind: 'installment',
            receipt: receipts['S10 2026-02-04'],
            schemeid: S.S10,
            custname: C.uma.custname,
            mobileno: C.uma.mobileno,
            mode: 'card',
            amount: 800,
            points: null,
            enteredOn: '2026-02-04',
          },
          {
            date: '2026-02-05',
            time: '17:05',
            branch: 'MAIN',
            staff: 'Asha Rao',
            kind: 'installment',
            receipt: receipts['S2 2026-02-05'],
            schemeid: S.S2,
            custname: C.lata.custname,
            mobileno: C.lata.mobileno,
            mode: 'cash',
            amount: 2000,
            points: null,
            enteredOn: '2026-02-05',
          },
          {
            date: '2026-02-20',
            time: '15:00',
            branch: 'MAIN',
            staff: 'Main till',
            kind: 'redemption',
            receipt: 'INV-M2',
            schemeid: null,
            custname: C.kiran.custname,
            mobileno: C.kiran.mobileno,
            mode: 'points',
            amount: 150,
            points: 150,
            enteredOn: '2026-02-20',
          },
          {
            date: '2026-02-25',
            time: '09:45',
            branch: 'PUNE',
            staff: 'Ravi Patil',
            kind: 'installment',
            receipt: receipts['S4 2026-02-25'],
            schemeid: S.S4,
            custname: C.nisha.custname,
            mobileno: C.nisha.mobileno,
            mode: 'cash',
            amount: 1500,
            points: null,
            enteredOn: '2026-02-25',
          },
        ],
        total: 5,
        totals: {
          installments: 4,
          collected: 5500,
          byMode: modes({ cash: 3500, upi: 1200, card: 800 }),
          redemptions: 1,
          cancelledRedemptions: 0,
          pointsRedeemed: 150,
          redeemedValue: 150,
          backdated: 0,
        },
      },
    );
  });

  it('answers the whole report as CSV: byte-order mark, header, every row', async () => {
    const response = await as('owner1', 'POST', '/reports/collections', {
      format: 'csv',
      pageSize: 1,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="collections-${TODAY}.csv"`,
    );
    const s2 = receipts[`S2 ${TODAY}`];
    const s4 = receipts[`S4 ${TODAY}`];
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.body).toBe(
      CSV_BOM +
        'Date,Time,Branch,Staff,Kind,Receipt / invoice,Scheme ID,Customer,Mobile,Mode,Amount,Points,Entered on,Backdated\r\n' +
        `10/03/2026,10:15,MAIN,Asha Rao,Installment,${s2},${S.S2},Lata Iyer,9800000002,Cash,2000,,10/03/2026,\r\n` +
        `10/03/2026,11:30,PUNE,Ravi Patil,Installment,${s4},${S.S4},Nisha Jain,9800000004,UPI,1500,,10/03/2026,\r\n` +
        '10/03/2026,12:05,PUNE,Pune till,Points redeemed,INV-P3,,Lata Iyer,9800000002,Points,100,100,10/03/2026,\r\n' +
        '10/03/2026,12:40,MAIN,Main till,Points redeemed,INV-M4,,Nisha Jain,9800000004,Points,100,100,10/03/2026,\r\n' +
        '10/03/2026,12:45,MAIN,Main till,Redemption cancelled,INV-M4,,Nisha Jain,9800000004,Points,-100,-100,10/03/2026,\r\n' +
        '10/03/2026,16:20,PUNE,Pune till,Points redeemed,INV-P5,,Mohan Das,9800000003,Points,300,300,10/03/2026,\r\n',
    );
  });
});

describe('the overdue report', () => {
  const rows = () => [
    {
      schemeid: S.S6,
      mobileno: C.padma.mobileno,
      custname: C.padma.custname,
      monthsDue: 10,
      amountDue: 40_000,
      daysOverdue: 324,
      lastPaid: '2025-03-20',
    },
    {
      schemeid: S.S1,
      mobileno: C.kiran.mobileno,
      custname: C.kiran.custname,
      monthsDue: 2,
      amountDue: 10_000,
      daysOverdue: 54,
      lastPaid: '2025-12-15',
    },
    {
      schemeid: S.S3,
      mobileno: C.mohan.mobileno,
      custname: C.mohan.custname,
      monthsDue: 1,
      amountDue: 3000,
      daysOverdue: 28,
      lastPaid: '2026-03-05',
    },
    {
      schemeid: S.S9,
      mobileno: C.tara.mobileno,
      custname: C.tara.custname,
      monthsDue: 1,
      amountDue: 1200,
      daysOverdue: 7,
      lastPaid: '2026-02-03',
    },
  ];

  it('lists the schemes with installments unpaid 7 days after due (not 6), the longest overdue first', async () => {
    expect(await report('owner1', 'overdue')).toEqual({
      success: true,
      data: rows(),
      total: 4,
      totals: { schemes: 4, installments: 14, amount: 54_200 },
    });
  });

  it('pages, and filters a branch', async () => {
    expect(await report('owner1', 'overdue', { page: 2, pageSize: 2 })).toEqual({
      success: true,
      data: rows().slice(2),
      total: 4,
      totals: { schemes: 4, installments: 14, amount: 54_200 },
    });
    expect(await report('owner1', 'overdue', { branch: 'MAIN' })).toEqual({
      success: true,
      data: [rows()[1], rows()[3]],
      total: 2,
      totals: { schemes: 2, installments: 3, amount: 11_200 },
    });
    expect((await report('meena', 'overdue', { branch: 'MAIN' })).data).toEqual([
      rows()[0],
      rows()[2],
    ]);
  });

  it('judges a later day as if nothing more were paid, leaving out the schemes matured by then', async () => {
    // 25 March: S1's March installment (due the 15th) is overdue too, and S10's (due the 4th);
    // S6 matured on the 19th.
    expect(await report('owner1', 'overdue', { asOf: '2026-03-25' })).toEqual({
      success: true,
      data: [
        { ...rows()[1], monthsDue: 3, amountDue: 15_000, daysOverdue: 69 },
        { ...rows()[2], daysOverdue: 43 },
        { ...rows()[3], daysOverdue: 22 },
        {
          schemeid: S.S10,
          mobileno: C.uma.mobileno,
          custname: C.uma.custname,
          monthsDue: 1,
          amountDue: 800,
          daysOverdue: 21,
          lastPaid: '2026-02-04',
        },
      ],
      total: 4,
      totals: { schemes: 4, installments: 6, amount: 20_000 },
    });
  });

  it('answers the CSV with dates as DD/MM/YYYY', async () => {
    const response = await as('owner1', 'POST', '/reports/overdue', { format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe(
      CSV_BOM +
        'Scheme ID,Mobile,Customer,Months due,Amount due,Days overdue,Last paid\r\n' +
        `${S.S6},9800000006,Padma Rao,10,40000,324,20/03/2025\r\n` +
        `${S.S1},9800000001,Kiran Mehta,2,10000,54,15/12/2025\r\n` +
        `${S.S3},9800000003,Mohan Das,1,3000,28,05/03/2026\r\n` +
        `${S.S9},9800000009,Tara Singh,1,1200,7,03/02/2026\r\n`,
    );
  });
});

describe('the maturing report', () => {
  const s6 = () => ({
    schemeid: S.S6,
    custname: C.padma.custname,
    mobileno: C.padma.mobileno,
    branch: 'PUNE',
    startdt: '2025-03-20',
    matdt: '2026-03-19',
    installmentsPaid: 1,
    installments: 11,
    amountPaid: 4000,
  });
  const s3 = () => ({
    schemeid: S.S3,
    custname: C.mohan.custname,
    mobileno: C.mohan.mobileno,
    branch: 'PUNE',
    startdt: '2025-04-10',
    matdt: '2026-04-09',
    installmentsPaid: 10,
    installments: 11,
    amountPaid: 30_000,
  });

  it('lists the active schemes maturing in the next 30 days, soonest first', async () => {
    expect(await report('owner1', 'maturing')).toEqual({
      success: true,
      data: [s6(), s3()],
      total: 2,
      totals: { schemes: 2, amountPaid: 34_000 },
    });
    expect((await report('owner1', 'maturing', { branch: 'MAIN' })).total).toBe(0);
  });

  it('takes other dates: January holds the matured scheme not yet closed (the closed one is left out)', async () => {
    expect(await report('owner1', 'maturing', { from: '2025-12-01', to: '2026-01-31' })).toEqual({
      success: true,
      data: [
        {
          schemeid: S.S7,
          custname: C.ravi.custname,
          mobileno: C.ravi.mobileno,
          branch: 'MAIN',
          startdt: '2025-02-01',
          matdt: '2026-01-31',
          installmentsPaid: 1,
          installments: 11,
          amountPaid: 1000,
        },
      ],
      total: 1,
      totals: { schemes: 1, amountPaid: 1000 },
    });
  });
});

describe('the points liability report', () => {
  const row = (who: Customer, held: number, expiring = 0) => ({
    custid: who.id,
    custname: who.custname,
    mobileno: who.mobileno,
    points: held,
    value: held / 4,
    expiringIn30Days: expiring,
  });

  it("lists the customers holding points, the most first, at today's point value", async () => {
    expect(await report('owner1', 'points-liability')).toEqual({
      success: true,
      data: [
        row(C.nisha, 200),
        row(C.kiran, 150),
        row(C.lata, 150),
        row(C.om, 145),
        row(C.padma, 60, 60),
      ],
      total: 5,
      totals: { customers: 5, points: 705, value: 176.25, expiringIn30Days: 60 },
    });
  });

  it('for one branch, the points of the lots it gave that are still held', async () => {
    expect(await report('owner1', 'points-liability', { branch: 'PUNE' })).toEqual({
      success: true,
      data: [row(C.lata, 150), row(C.om, 100)],
      total: 2,
      totals: { customers: 2, points: 250, value: 62.5, expiringIn30Days: 0 },
    });
    expect(await report('mainmgr', 'points-liability', { pageSize: 3 })).toEqual({
      success: true,
      data: [row(C.nisha, 200), row(C.kiran, 150), row(C.padma, 60, 60)],
      total: 4,
      totals: { customers: 4, points: 455, value: 113.75, expiringIn30Days: 60 },
    });
  });

  it('answers the CSV', async () => {
    const response = await as('owner1', 'POST', '/reports/points-liability', {
      format: 'csv',
      branch: 'PUNE',
    });
    expect(response.body).toBe(
      CSV_BOM +
        'Customer ID,Customer,Mobile,Points,Value,Expiring in 30 days\r\n' +
        `${C.lata.id},Lata Iyer,9800000002,150,37.5,0\r\n` +
        `${C.om.id},Om Prakash,9800000005,100,25,0\r\n`,
    );
  });
});

describe('the unrecovered return points report', () => {
  const ret = {
    returnDate: TODAY,
    branch: 'PUNE',
    returnNo: 'RET-P1',
    invoiceNo: 'INV-P4',
    mobile: C.mohan.mobileno,
    unrecovered: 100,
  };

  it('lists the returns whose points were already spent, with totals, per branch', async () => {
    expect(await report('owner1', 'unrecovered')).toEqual({
      success: true,
      data: [ret],
      total: 1,
      totals: { returns: 1, unrecovered: 100 },
    });
    expect(await report('mainmgr', 'unrecovered', { branch: 'PUNE' })).toEqual({
      success: true,
      data: [],
      total: 0,
      totals: { returns: 0, unrecovered: 0 },
    });
    expect((await report('owner1', 'unrecovered', { to: '2026-03-09' })).total).toBe(0);
  });
});

describe('bad filters', () => {
  it.each([
    [
      'collections',
      { from: '2026-03-10', to: '2026-03-01' },
      'The from date must not be after the to date.',
    ],
    ['collections', { branch: 'ZZZ' }, REPORT_MESSAGES.unknownBranch('ZZZ')],
    ['collections', { page: 0 }, 'The page must be a whole number from 1 to 10,000.'],
    ['overdue', { pageSize: 501 }, 'Rows per page must be a whole number from 1 to 500.'],
    ['maturing', { format: 'xlsx' }, 'Format must be json or csv.'],
    ['collections', { asOf: TODAY }, REPORT_MESSAGES.dateNotRead('collections', 'asOf')],
    ['overdue', { from: TODAY }, REPORT_MESSAGES.dateNotRead('overdue', 'from')],
    ['points-liability', { to: TODAY }, REPORT_MESSAGES.dateNotRead('points-liability', 'to')],
    ['overdue', { asOf: '2026-03-09' }, REPORT_MESSAGES.asOfBeforeToday],
    ['overdue', { asOf: '2026-02-30' }, 'As of date must be a real date in YYYY-MM-DD format.'],
    ['overdue', { format: 'csv', branch: 'ZZZ' }, REPORT_MESSAGES.unknownBranch('ZZZ')],
  ])('%s %j -> 400 %s', async (name, filter, message) => {
    const response = await as('owner1', 'POST', `/reports/${name}`, filter);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
  });

  it('refuses a cashier every report', async () => {
    for (const name of ['collections', 'overdue', 'maturing', 'points-liability', 'unrecovered']) {
      const response = await as('cash3', 'POST', `/reports/${name}`, {});
      expect(response.statusCode, name).toBe(403);
    }
  });
});
