import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type CounterCustomer, type Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  movableClock,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';

/**
 * The counter home's read of the customer in front of the counter: the balance and its worth,
 * the points expiring within 30 days and when, the running schemes with what is overdue (as the
 * overdue report counts it) and what may be taken today (what add-installment then accepts).
 * Every staff role may read it, at any branch: customers are the chain's.
 */

const TODAY = '2026-03-10';
const clock = movableClock(TODAY);
let ctx: TestContext;
const tokens: Record<string, string> = {};

const as = (username: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject(authed(tokens[username]!, { method, url: `/api${url}`, payload }));
const counterOf = (username: string, mobile: string) =>
  as(username, 'POST', '/counter/customer', { mobile });
async function read(mobile: string, username = 'asha'): Promise<CounterCustomer> {
  const answer = await counterOf(username, mobile);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data;
}
async function ok(answer: Promise<{ statusCode: number; body: string }>) {
  const done = await answer;
  expect(done.statusCode, done.body).toBe(200);
  return JSON.parse(done.body) as { data: Record<string, unknown> };
}

const MEERA = { mobileno: '9500000011', custname: 'Meera Iyer' };
let custid: number;

/** A scheme started and activated on `startdt` by the owner, entered that day; Meera's unless told. */
async function activeScheme(
  startdt: string,
  amount: number,
  plan?: string,
  customer: { custid: number; mobileno: string; custname: string } = { custid, ...MEERA },
) {
  return clock.enteredOn(startdt, async () => {
    const made = await ok(
      as('owner1', 'POST', '/scheme/generate', {
        ...customer,
        startdt,
        amount,
        ...(plan ? { plan } : {}),
      }),
    );
    const schemeid = made.data.schemeid as number;
    await ok(as('owner1', 'POST', '/scheme/activate', { schemeid, date: startdt, mode: 'cash' }));
    return schemeid;
  });
}

/** Points credited by hand on `date` (entered that day): a lot expiring 24 months on. */
const credit = (date: string, points: number) =>
  clock.enteredOn(date, () =>
    ok(
      as('owner1', 'POST', '/customers/update-points', {
        formData: {
          MOBILENO: MEERA.mobileno,
          POINTS: String(points),
          INVDATE: date,
          CASHCR: 'CR',
          NARRATION: '',
        },
      }),
    ),
  );

async function staffMember(username: string, role: Role, branch: string) {
  tokens[username] = (await staffSession(ctx, username, role, branch)).token;
}

beforeAll(async () => {
  ctx = await createTestContext({}, clock.now);
  await staffMember('owner1', 'owner', 'MAIN');
  await ok(
    as('owner1', 'POST', '/branches', {
      code: 'PUNE',
      name: 'Pune showroom',
      address: '1 Main Road, Pune',
      phone: '+91 20 2345 6789',
    }),
  );
  await staffMember('asha', 'cashier', 'MAIN');
  await staffMember('ravi', 'manager', 'MAIN');
  await staffMember('pune', 'cashier', 'PUNE');
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
    [MEERA.mobileno, MEERA.custname],
  );
  custid = row!.id;
}, 60_000);
afterAll(() => ctx.close());

describe('the customer at the counter', () => {
  it('tells the balance, its worth, and the points expiring within 30 days by the day they expire', async () => {
    // Lots expire 24 months after they are earned: two on 20 March, one on 1 April (within
    // 30 days of 10 March), and one next year.
    await credit('2024-03-20', 100);
    await credit('2024-03-20', 50);
    await credit('2024-04-01', 30);
    await credit('2025-06-01', 500);

    const customer = await read(MEERA.mobileno);
    expect(customer).toMatchObject({ custid, ...MEERA, schemes: [] });
    expect(customer.points).toEqual({
      balance: 680,
      value: 680,
      expiringSoon: 180,
      expiring: [
        { points: 150, expiresOn: '2026-03-20' },
        { points: 30, expiresOn: '2026-04-01' },
      ],
    });
    // No tiers are set: none is told.
    expect(customer.tier).toBeUndefined();
  });

  it('lists the running schemes with what is overdue and what may be taken today, which add-installment then accepts', async () => {
    const plan = await ok(
      as('owner1', 'POST', '/scheme-plans', {
        code: 'ELEVEN',
        name: 'Eleven months',
        kind: 'value',
        installments: 11,
        minAmount: 1000,
        bonusPercent: 50,
        graceDays: 7,
      }),
    );
    expect(plan.data).toMatchObject({ code: 'ELEVEN' });
    // Paid for January only: February's (due 5 Feb) is overdue, March's is due.
    const behind = await activeScheme('2026-01-05', 2000);
    // Paid for February and March: April's may be taken in advance.
    const ahead = await activeScheme('2026-02-10', 3000, 'ELEVEN');
    await ok(
      as('asha', 'POST', '/scheme/add-installment', { schemeid: ahead, date: TODAY, mode: 'upi' }),
    );
    // Started but not activated: not running, not listed.
    await ok(
      as('owner1', 'POST', '/scheme/generate', {
        custid,
        ...MEERA,
        startdt: TODAY,
        amount: 1000,
      }),
    );

    const { schemes } = await read(MEERA.mobileno);
    expect(schemes).toEqual([
      {
        schemeid: ahead,
        plan: { code: 'ELEVEN', name: 'Eleven months', kind: 'value' },
        amount: 3000,
        installments: 11,
        paid: 2,
        startdt: '2026-02-10',
        matdt: expect.any(String),
        nextDue: '2026-04-10',
        overdue: 0,
        due: { month: '2026-04', advance: true },
      },
      {
        schemeid: behind,
        plan: null,
        amount: 2000,
        installments: 11,
        paid: 1,
        startdt: '2026-01-05',
        matdt: '2027-01-04',
        nextDue: '2026-02-05',
        overdue: 1,
        due: { month: '2026-03', advance: false },
      },
    ]);

    // The overdue report, on the same day, counts the same.
    const report = await ok(as('owner1', 'POST', '/reports/overdue', { asOf: TODAY }));
    expect(report.data).toEqual([
      expect.objectContaining({ schemeid: behind, monthsDue: 1, amountDue: 2000 }),
    ]);

    // What the counter offers is what add-installment takes: the month, in advance or not.
    for (const scheme of schemes) {
      const taken = await ok(
        as('asha', 'POST', '/scheme/add-installment', {
          schemeid: scheme.schemeid,
          date: TODAY,
          mode: 'cash',
          advance: scheme.due!.advance,
        }),
      );
      expect(taken.data).toMatchObject({ schemeid: scheme.schemeid, forMonth: scheme.due!.month });
    }
    const after = await read(MEERA.mobileno);
    const byId = new Map(after.schemes.map((scheme) => [scheme.schemeid, scheme]));
    // March and April both paid: nothing more today.
    expect(byId.get(ahead)).toMatchObject({ paid: 3, due: null });
    // March paid: April may follow in advance; two paid of the two due by the cutoff.
    expect(byId.get(behind)).toMatchObject({
      paid: 2,
      overdue: 0,
      due: { month: '2026-04', advance: true },
    });
  });

  it("counts an installment overdue after its plan's own grace, as the overdue report does", async () => {
    const KAVYA = { mobileno: '9500000012', custname: 'Kavya Nair' };
    const [row] = await ctx.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
      [KAVYA.mobileno, KAVYA.custname],
    );
    const kavya = { custid: row!.id, ...KAVYA };
    for (const graceDays of [15, 3])
      await ok(
        as('owner1', 'POST', '/scheme-plans', {
          code: `GRACE${graceDays}`,
          name: `Grace of ${graceDays} days`,
          kind: 'value',
          installments: 11,
          minAmount: 1000,
          bonusPercent: 50,
          graceDays,
        }),
      );
    // January paid at the start; February's fell due on 28 February, 10 days ago.
    const lenient = await activeScheme('2026-01-28', 1000, 'GRACE15', kavya);
    const strict = await activeScheme('2026-01-28', 1000, 'GRACE3', kavya);

    const byId = new Map((await read(KAVYA.mobileno)).schemes.map((s) => [s.schemeid, s]));
    expect(byId.get(lenient)).toMatchObject({ nextDue: '2026-02-28', overdue: 0 });
    expect(byId.get(strict)).toMatchObject({ nextDue: '2026-02-28', overdue: 1 });
    const listed = (await ok(as('owner1', 'POST', '/reports/overdue', { asOf: TODAY })))
      .data as unknown as { schemeid: number; monthsDue: number }[];
    expect(listed).toContainEqual(expect.objectContaining({ schemeid: strict, monthsDue: 1 }));
    expect(listed.map((overdue) => overdue.schemeid)).not.toContain(lenient);
  });

  it('answers every role at every branch, and refuses an unknown number, a bad one and no session', async () => {
    for (const username of ['asha', 'ravi', 'owner1', 'pune']) {
      const answer = await counterOf(username, MEERA.mobileno);
      expect(answer.statusCode, `${username}: ${answer.body}`).toBe(200);
    }
    const unknown = await counterOf('asha', '9500000099');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: MESSAGES.customerNotFound });
    const short = await counterOf('asha', '95000');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe(MESSAGES.mobileLength);
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/counter/customer',
      payload: { mobile: MEERA.mobileno },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
