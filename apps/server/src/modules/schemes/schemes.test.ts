import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@kanak/contract';
import {
  authed,
  lateEntryReason,
  movableClock,
  signedIn,
  staffSession,
  type SignedIn,
} from '../../../test/helpers.js';

/** "Today" in Kolkata for every test, unless a test moves the clock (reset before each). */
const TODAY = '2026-02-10';
const clock = movableClock(TODAY);
const { enteredOn } = clock;

let ctx: SignedIn;
let staffId: number;

beforeAll(async () => {
  ctx = await signedIn('owner', {
    env: { INSTALLMENTS: '11', BONUS_PERCENT: '100' },
    clock: clock.now,
    username: 'kavya',
  });
  [{ id: staffId }] = (await ctx.sql<{ id: number }>(
    `SELECT id FROM users WHERE username = 'kavya'`,
  )) as [{ id: number }];
});
afterAll(() => ctx.close());
beforeEach(() => clock.reset());

/** The owner's reason, sent as the screen sends it: only with a date it asks one for. */
const reasonFor = (date: unknown) => lateEntryReason(date, clock.now());

const AMOUNT_RULE = 'Amount must be a whole number of rupees from 1 to 99,99,999.';
const VALID_PAN = 'ABCDE1234F';

const post = (path: string, payload: unknown, idempotencyKey?: string) =>
  ctx.inject({
    method: 'POST',
    url: `/api/scheme/${path}`,
    payload: payload as Record<string, unknown>,
    idempotencyKey,
  });

let nextMobile = 0;
interface Customer {
  id: number;
  mobileno: string;
  custname: string;
}
async function newCustomer(pan = ''): Promise<Customer> {
  nextMobile++;
  const mobileno = `98${String(nextMobile).padStart(8, '0')}`;
  const custname = `Customer ${nextMobile}`;
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname, pan) VALUES ($1, $2, $3) RETURNING id`,
    [mobileno, custname, pan],
  );
  return { id: row!.id, mobileno, custname };
}

const generate = (
  customer: Customer,
  amount: unknown,
  startdt = TODAY,
  extra: Record<string, unknown> = {},
) =>
  post('generate', {
    custid: customer.id,
    mobileno: customer.mobileno,
    custname: customer.custname,
    startdt,
    amount,
    ...reasonFor(startdt),
    ...extra,
  });

/** Generates a scheme and returns its id, failing loudly when refused. */
async function schemeFor(customer: Customer, amount: number, startdt = TODAY) {
  const response = await generate(customer, amount, startdt);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.schemeid as number;
}

const activate = (schemeid: unknown, date: string, mode = 'cash', reference?: string) =>
  post('activate', {
    schemeid,
    date,
    mode,
    ...(reference === undefined ? {} : { reference }),
    ...reasonFor(date),
  });
const addInstallment = (
  schemeid: unknown,
  date: string,
  mode: unknown = 'cash',
  extra: Record<string, unknown> = {},
  idempotencyKey?: string,
) =>
  post('add-installment', { schemeid, date, mode, ...reasonFor(date), ...extra }, idempotencyKey);

async function ok(response: LightMyRequestResponse | Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json();
}

const expectRefusal = (response: LightMyRequestResponse, status: number, message?: string) => {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(body.success).toBe(false);
  if (message !== undefined) expect(body.message).toBe(message);
};

const schemeRow = async (id: number) =>
  (
    await ctx.sql<{
      status: string;
      startdt: string;
      matdt: string;
      amount: number;
      bonus: number | null;
      maturity_value: string | null;
      cancelled_by: number | null;
      cancelled_at: Date | null;
      closed_by: number | null;
      closed_on: string | null;
    }>(
      `SELECT status, to_char(startdt, 'YYYY-MM-DD') AS startdt, to_char(matdt, 'YYYY-MM-DD') AS matdt,
              amount, bonus, maturity_value, cancelled_by, cancelled_at, closed_by,
              to_char(closed_on, 'YYYY-MM-DD') AS closed_on
         FROM schemes WHERE id = $1`,
      [id],
    )
  )[0]!;

const installmentCount = async (schemeId: number) =>
  (
    await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM scheme_installments WHERE scheme_id = $1`,
      [schemeId],
    )
  )[0]!.n;

const auditActions = async (entity: 'scheme' | 'customer', id: number) =>
  (
    await ctx.sql<{ action: string; user_id: number }>(
      `SELECT action, user_id FROM audit_log WHERE entity = $1 AND entity_id = $2 ORDER BY id`,
      [entity, String(id)],
    )
  ).map((row) => {
    expect(row.user_id).toBe(staffId);
    return row.action;
  });

describe('POST /api/scheme/generate', () => {
  it('starts an Inactive scheme maturing 364 days after the start, with an audit row', async () => {
    const customer = await newCustomer();
    const response = await generate(customer, 5000, '2026-01-15');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const schemeid = body.data.schemeid as number;
    expect(body).toEqual({
      success: true,
      message: MESSAGES.schemeGenerated(schemeid),
      data: { schemeid },
    });
    const list = await ok(post('get-all', { custid: customer.id }));
    expect(list.data).toEqual([
      {
        schemeid,
        startdt: '2026-01-15',
        matdt: '2027-01-14',
        amount: 5000,
        matyn: 'n',
        installments: 11,
        paid: 0,
      },
    ]);
    expect(await auditActions('scheme', schemeid)).toEqual(['scheme.generate']);
  });

  it('counts 364 days across a leap day', async () => {
    clock.set('2024-03-01');
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 100, '2024-03-01');
    expect((await schemeRow(schemeid)).matdt).toBe('2025-02-28');
  });

  it('refuses an unknown customer (404) and a mobile number that is not the customer’s (400)', async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    expectRefusal(
      await generate({ ...customer, id: 999_999 }, 1000),
      404,
      MESSAGES.customerNotFound,
    );
    expectRefusal(
      await generate({ ...customer, mobileno: other.mobileno }, 1000),
      400,
      MESSAGES.customerMismatch,
    );
    const [row] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM schemes WHERE customer_id IN ($1, $2)`,
      [customer.id, other.id],
    );
    expect(row!.n).toBe(0);
  });

  it.each([0, -5, 1.5, 10_000_000, 'abc', '', '12.5', null])(
    'refuses the amount %j with 400',
    async (amount) => {
      const customer = await newCustomer(VALID_PAN);
      expectRefusal(await generate(customer, amount), 400, AMOUNT_RULE);
      expect(await ctx.sql(`SELECT 1 FROM schemes WHERE customer_id = $1`, [customer.id])).toEqual(
        [],
      );
    },
  );

  it('accepts the smallest and largest amounts, also as digits in text', async () => {
    await schemeFor(await newCustomer(), 1);
    const rich = await newCustomer(VALID_PAN);
    const response = await generate(rich, '9999999');
    expect(response.statusCode, response.body).toBe(200);
    expect((await schemeRow(response.json().data.schemeid)).amount).toBe(9_999_999);
  });

  it('refuses a start date in the future but accepts today and past dates', async () => {
    const customer = await newCustomer();
    expectRefusal(await generate(customer, 1000, '2026-02-11'), 400, MESSAGES.startInFuture);
    const first = await schemeFor(customer, 1000, TODAY);
    await ok(post('delete', { schemeid: first }));
    await schemeFor(customer, 1000, '2025-03-01');
  });

  it('takes "today" in Kolkata, not UTC', async () => {
    clock.set(new Date('2026-02-10T19:00:00Z')); // 00:30 on 11 February in Kolkata
    const customer = await newCustomer();
    await schemeFor(customer, 1000, '2026-02-11');
  });

  it('refuses an impossible start date', async () => {
    const customer = await newCustomer();
    const response = await generate(customer, 1000, '2025-02-30');
    expectRefusal(response, 400);
    expect(response.json().message).toContain('Start date');
  });

  it('needs a PAN from ₹16,000: 15,999 without PAN passes, 16,000 is refused until a PAN is saved', async () => {
    const small = await newCustomer();
    await schemeFor(small, 15_999);

    const customer = await newCustomer();
    expectRefusal(await generate(customer, 16_000), 409, MESSAGES.panRequired);
    expect(MESSAGES.panRequired).toBe('PAN is mandatory for schemes of ₹16,000 or above.');
    expect(await ctx.sql(`SELECT 1 FROM schemes WHERE customer_id = $1`, [customer.id])).toEqual(
      [],
    );
    await ok(post('update-pan', { custid: customer.id, pan: VALID_PAN }));
    const schemeid = await schemeFor(customer, 16_000);
    expect((await schemeRow(schemeid)).amount).toBe(16_000);
  });

  it('refuses a PAN that is stored but malformed', async () => {
    const customer = await newCustomer('ABCDE12345');
    expectRefusal(await generate(customer, 20_000), 409, MESSAGES.panRequired);
  });

  it('refuses a new scheme while the latest is Inactive, allows it once activated or cancelled', async () => {
    const customer = await newCustomer();
    const first = await schemeFor(customer, 1000, '2026-01-05');
    const refused = await generate(customer, 2000);
    expectRefusal(
      refused,
      409,
      'The previous scheme installment must be completed before initiating a new scheme.',
    );
    await ok(activate(first, '2026-01-05'));
    const second = await schemeFor(customer, 2000);
    await ok(post('delete', { schemeid: second }));
    await schemeFor(customer, 3000);
    const rows = await ctx.sql<{ status: string }>(
      `SELECT status FROM schemes WHERE customer_id = $1 ORDER BY id`,
      [customer.id],
    );
    expect(rows.map((row) => row.status)).toEqual(['a', 'x', 'n']);
  });

  it('creates exactly one scheme from two concurrent requests for one customer', async () => {
    const customer = await newCustomer();
    const responses = await Promise.all([generate(customer, 1000), generate(customer, 2000)]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const refused = responses.find((response) => response.statusCode === 409)!;
    expect(refused.json().message).toBe(MESSAGES.previousSchemePending);
    const [row] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM schemes WHERE customer_id = $1`,
      [customer.id],
    );
    expect(row!.n).toBe(1);
    const [audit] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'scheme.generate' AND mobile = $1`,
      [customer.mobileno],
    );
    expect(audit!.n).toBe(1);
  });

  it('replays a retried generate instead of refusing it as a second scheme', async () => {
    const customer = await newCustomer();
    const payload = {
      custid: customer.id,
      mobileno: customer.mobileno,
      custname: customer.custname,
      startdt: TODAY,
      amount: 1000,
    };
    const first = await post('generate', payload, 'generate-retry-key-1');
    const again = await post('generate', payload, 'generate-retry-key-1');
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(
      await ctx.sql(`SELECT 1 FROM schemes WHERE customer_id = $1`, [customer.id]),
    ).toHaveLength(1);
  });
});

describe('POST /api/scheme/get-all', () => {
  it('lists the customer’s schemes newest first with the installments paid, without cancelled ones', async () => {
    const customer = await newCustomer();
    const first = await schemeFor(customer, 1000, '2025-12-01');
    await ok(activate(first, '2025-12-01'));
    await ok(addInstallment(first, '2026-01-02', 'upi'));
    const cancelled = await schemeFor(customer, 500);
    await ok(post('delete', { schemeid: cancelled }));
    const second = await schemeFor(customer, 2000);
    const list = await ok(post('get-all', { custid: customer.id }));
    expect(list.data.map((s: { schemeid: number }) => s.schemeid)).toEqual([second, first]);
    expect(list.data[1]).toMatchObject({ matyn: 'a', paid: 2, installments: 11 });
  });

  it('returns an empty list for a customer without schemes', async () => {
    const customer = await newCustomer();
    expect(await ok(post('get-all', { custid: customer.id }))).toEqual({
      success: true,
      data: [],
    });
  });
});

describe('POST /api/scheme/update-pan and verify-pan', () => {
  it('upper-cases and saves a valid PAN, which verify-pan returns, with an audit row', async () => {
    const customer = await newCustomer();
    expect((await ok(post('verify-pan', { custid: customer.id }))).data).toEqual({ pan: '' });
    expect(await ok(post('update-pan', { custid: customer.id, pan: ' abcde1234f ' }))).toEqual({
      success: true,
      message: MESSAGES.panSaved,
    });
    expect(await ok(post('verify-pan', { custid: customer.id }))).toEqual({
      success: true,
      data: { pan: 'ABCDE1234F' },
    });
    expect(await auditActions('customer', customer.id)).toEqual(['customer.pan']);
  });

  it.each(['ABCDE12345', 'ABC', '', 'ABCDE1234FG', '1BCDE1234F'])(
    'refuses the PAN %j with 400 and keeps the stored one',
    async (pan) => {
      const customer = await newCustomer('PQRST6789K');
      expectRefusal(
        await post('update-pan', { custid: customer.id, pan }),
        400,
        'PAN must be a 10-character alphanumeric code.',
      );
      expect((await ok(post('verify-pan', { custid: customer.id }))).data.pan).toBe('PQRST6789K');
      expect(await auditActions('customer', customer.id)).toEqual([]);
    },
  );

  it('refuses a missing PAN and an unknown customer', async () => {
    const customer = await newCustomer();
    expectRefusal(await post('update-pan', { custid: customer.id }), 400, MESSAGES.panFormat);
    expectRefusal(
      await post('update-pan', { custid: 999_999, pan: VALID_PAN }),
      404,
      MESSAGES.customerNotFound,
    );
    expectRefusal(await post('verify-pan', { custid: 999_999 }), 404, MESSAGES.customerNotFound);
  });
});

describe('POST /api/scheme/delete (cancel)', () => {
  it('marks an Inactive scheme x with who and when; the row stays but is hidden', async () => {
    const customer = await newCustomer();
    const schemeid = await enteredOn('2024-08-15', () => schemeFor(customer, 7777, '2024-08-15'));
    expect(await ok(post('delete', { schemeid }))).toEqual({
      success: true,
      message: MESSAGES.schemeCancelled,
    });
    const row = await schemeRow(schemeid);
    expect(row.status).toBe('x');
    expect(row.cancelled_by).toBe(staffId);
    expect(row.cancelled_at).toBeInstanceOf(Date);
    expect((await ok(post('get-all', { custid: customer.id }))).data).toEqual([]);
    const summary = await ok(
      post('generate-summary', {
        selected: 'All',
        formData: { mobileno: customer.mobileno, datefrom: '2024-01-01', dateto: TODAY },
      }),
    );
    expect(summary).toMatchObject({ success: false, message: MESSAGES.noMatchingRecords });
    expect(await auditActions('scheme', schemeid)).toEqual(['scheme.generate', 'scheme.cancel']);
  });

  it('refuses to cancel an Active scheme (409) and leaves it Active', async () => {
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 1000, '2026-01-20');
    await ok(activate(schemeid, '2026-01-20'));
    expectRefusal(await post('delete', { schemeid }), 409, MESSAGES.onlyInactiveCancellable);
    expect((await schemeRow(schemeid)).status).toBe('a');
  });

  it('refuses to cancel a scheme that has an installment even if it reads Inactive', async () => {
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 1000, '2026-01-20');
    await ok(activate(schemeid, '2026-01-20'));
    await ctx.sql(`UPDATE schemes SET status = 'n' WHERE id = $1`, [schemeid]);
    expectRefusal(await post('delete', { schemeid }), 409, MESSAGES.onlyInactiveCancellable);
    expect((await schemeRow(schemeid)).status).toBe('n');
  });

  it('refuses a Completed scheme (409), an unknown id (404) and a cancelled one again', async () => {
    const customer = await newCustomer();
    const schemeid = await enteredOn('2024-01-10', async () => {
      const started = await schemeFor(customer, 1000, '2024-01-10');
      await ok(activate(started, '2024-01-10'));
      return started;
    });
    await ok(post('close', { schemeid }));
    expectRefusal(await post('delete', { schemeid }), 409, MESSAGES.onlyInactiveCancellable);
    expectRefusal(await post('delete', { schemeid: 999_999 }), 404, MESSAGES.schemeNotFound);

    const other = await newCustomer();
    const cancelled = await schemeFor(other, 1000);
    await ok(post('delete', { schemeid: cancelled }));
    const again = await post('delete', { schemeid: cancelled });
    expectRefusal(again, 409, MESSAGES.onlyInactiveCancellable);
    expect(await auditActions('scheme', cancelled)).toEqual(['scheme.generate', 'scheme.cancel']);
  });

  it.each([{ schemeid: '' }, { schemeid: '  ' }, {}])(
    'refuses %j with 400 "Scheme ID cannot be blank."',
    async (payload) => {
      expectRefusal(await post('delete', payload), 400, 'Scheme ID cannot be blank.');
    },
  );
});

describe('POST /api/scheme/activate', () => {
  it('records the first installment with a receipt and sets the scheme Active', async () => {
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 2500, '2026-01-03');
    const body = await ok(activate(schemeid, '2026-01-04', 'upi', 'UTR 12345'));
    expect(body).toEqual({
      success: true,
      message: MESSAGES.schemeActivated(schemeid),
      data: {
        receiptNo: expect.stringMatching(/^MAIN-\d{6}$/),
        branch: {
          code: 'MAIN',
          name: 'Main showroom',
          address: '12 Zaveri Bazaar, Mumbai 400002',
          phone: '+91 22 2342 1928',
        },
        schemeid,
        custname: customer.custname,
        mobileno: customer.mobileno,
        date: '2026-01-04',
        amount: 2500,
        mode: 'upi',
        reference: 'UTR 12345',
        installmentNo: 1,
        installments: 11,
        forMonth: '2026-01',
        paidSoFar: 2500,
      },
    });
    expect((await schemeRow(schemeid)).status).toBe('a');
    const rows = await ctx.sql(
      `SELECT receipt, to_char(paid_on, 'YYYY-MM-DD') AS paid_on, period,
              amount, mode, reference, created_by,
              (SELECT code FROM branches WHERE id = branch_id) AS branch
         FROM scheme_installments WHERE scheme_id = $1`,
      [schemeid],
    );
    expect(rows).toEqual([
      {
        receipt: body.data.receiptNo,
        branch: 'MAIN',
        paid_on: '2026-01-04',
        period: '2026-01',
        amount: 2500,
        mode: 'upi',
        reference: 'UTR 12345',
        created_by: staffId,
      },
    ]);
    expect(await auditActions('scheme', schemeid)).toEqual([
      'scheme.generate',
      'scheme.installment',
      'scheme.activate',
    ]);
  });

  it('refuses anything but an Inactive scheme, and bad dates or modes, without a trace', async () => {
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 1000, '2026-01-10');
    expectRefusal(
      await activate(schemeid, '2026-01-09'),
      400,
      MESSAGES.installmentOutsideTerm('10-01-2026', '09-01-2027'),
    );
    expectRefusal(await activate(schemeid, '2026-02-11'), 400, MESSAGES.entryDateInFuture);
    expectRefusal(await activate(schemeid, '2026-01-10', 'gold'), 400);
    expectRefusal(await activate(schemeid, '2026-13-01'), 400);
    expectRefusal(await activate(999_999, '2026-01-10'), 404, MESSAGES.schemeNotFound);
    expect(await installmentCount(schemeid)).toBe(0);
    expect((await schemeRow(schemeid)).status).toBe('n');

    await ok(activate(schemeid, '2026-01-10'));
    expectRefusal(await activate(schemeid, '2026-02-10'), 409, MESSAGES.onlyInactiveActivatable);
    expect(await installmentCount(schemeid)).toBe(1);
    expect(await auditActions('scheme', schemeid)).toEqual([
      'scheme.generate',
      'scheme.installment',
      'scheme.activate',
    ]);
  });

  it('numbers receipts one after another across schemes, even after refused requests', async () => {
    const a = await schemeFor(await newCustomer(), 1000, '2025-11-01');
    const b = await schemeFor(await newCustomer(), 1000, '2025-11-01');
    const numberOf = (receipt: string) => Number(/^MAIN-(\d{6})$/.exec(receipt)![1]);
    const first = numberOf((await ok(activate(a, '2025-11-01'))).data.receiptNo);
    expectRefusal(await activate(a, '2025-11-02'), 409);
    expectRefusal(await activate(b, '2025-10-31'), 400);
    expectRefusal(await addInstallment(a, '2025-11-20'), 409);
    const second = numberOf((await ok(activate(b, '2025-11-02'))).data.receiptNo);
    const third = numberOf((await ok(addInstallment(a, '2025-12-01'))).data.receiptNo);
    expect([second, third]).toEqual([first + 1, first + 2]);
  });
});

describe('POST /api/scheme/add-installment', () => {
  it('records an installment for an Active scheme with the next number and receipt', async () => {
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 1500, '2025-06-10');
    await ok(activate(schemeid, '2025-06-10'));
    const body = await ok(
      addInstallment(schemeid, '2025-07-05', 'cheque', { reference: 'CHQ 001', narration: 'x' }),
    );
    expect(body.message).toBe(MESSAGES.installmentRecorded(body.data.receiptNo));
    expect(body.data).toMatchObject({
      schemeid,
      date: '2025-07-05',
      amount: 1500,
      mode: 'cheque',
      reference: 'CHQ 001',
      installmentNo: 2,
      installments: 11,
    });
    expect(await auditActions('scheme', schemeid)).toEqual([
      'scheme.generate',
      'scheme.installment',
      'scheme.activate',
      'scheme.installment',
    ]);
  });

  it('refuses an Inactive scheme and an unknown one', async () => {
    const schemeid = await schemeFor(await newCustomer(), 1000, '2026-01-01');
    expectRefusal(
      await addInstallment(schemeid, '2026-01-02'),
      409,
      MESSAGES.onlyActiveInstallments,
    );
    expectRefusal(await addInstallment(999_999, '2026-01-02'), 404, MESSAGES.schemeNotFound);
    expect(await installmentCount(schemeid)).toBe(0);
  });

  it('takes one installment per calendar month', async () => {
    const schemeid = await schemeFor(await newCustomer(), 1000, '2025-06-10');
    await ok(activate(schemeid, '2025-06-10'));
    expectRefusal(
      await addInstallment(schemeid, '2025-06-30'),
      409,
      MESSAGES.installmentMonthTaken('06-2025'),
    );
    await ok(addInstallment(schemeid, '2025-07-01'));
    expectRefusal(await addInstallment(schemeid, '2025-07-31', 'upi'), 409);
    expect(await installmentCount(schemeid)).toBe(2);
  });

  it('keeps one installment per month under two concurrent requests', async () => {
    const schemeid = await schemeFor(await newCustomer(), 1000, '2025-06-10');
    await ok(activate(schemeid, '2025-06-10'));
    const responses = await Promise.all([
      addInstallment(schemeid, '2025-08-01', 'upi'),
      addInstallment(schemeid, '2025-08-15', 'card'),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await installmentCount(schemeid)).toBe(2);
  });

  it('takes dates only within [start, maturity] and not in the future', async () => {
    const schemeid = await schemeFor(await newCustomer(), 1000, '2025-02-20');
    await ok(activate(schemeid, '2025-02-20'));
    const outside = MESSAGES.installmentOutsideTerm('20-02-2025', '19-02-2026');
    expectRefusal(await addInstallment(schemeid, '2025-01-31'), 400, outside);
    expectRefusal(await addInstallment(schemeid, '2026-02-11'), 400, MESSAGES.entryDateInFuture);
    // The last day of the term is in; the day after is out (once it is no longer in the future).
    clock.set('2026-03-01');
    await ok(addInstallment(schemeid, '2026-02-19'));
    expectRefusal(await addInstallment(schemeid, '2026-02-20'), 400, outside);
    expect(await installmentCount(schemeid)).toBe(2);
  });

  it.each(['cash', 'upi', 'card', 'bank', 'cheque'])('accepts the mode %s', async (mode) => {
    const schemeid = await schemeFor(await newCustomer(), 1000, '2025-06-10');
    await ok(activate(schemeid, '2025-06-10', 'upi'));
    expect((await ok(addInstallment(schemeid, '2025-07-10', mode))).data.mode).toBe(mode);
  });

  it.each(['neft', '', 'CASH', null, 3])('refuses the mode %j with 400', async (mode) => {
    const schemeid = await schemeFor(await newCustomer(), 1000, '2025-06-10');
    await ok(activate(schemeid, '2025-06-10'));
    const response = await addInstallment(schemeid, '2025-07-10', mode);
    expectRefusal(response, 400, 'Mode must be cash, upi, card, bank or cheque.');
    expect(await installmentCount(schemeid)).toBe(1);
  });

  it('refuses cash that would bring one scheme to ₹2,00,000, other modes still pass', async () => {
    const customer = await newCustomer(VALID_PAN);
    const schemeid = await schemeFor(customer, 50_000, '2025-04-01');
    await ok(activate(schemeid, '2025-04-01', 'cash'));
    await ok(addInstallment(schemeid, '2025-05-01', 'cash'));
    await ok(addInstallment(schemeid, '2025-06-01', 'cash'));
    const refused = await addInstallment(schemeid, '2025-07-01', 'cash');
    expectRefusal(refused, 409, MESSAGES.cashLimit('₹2,00,000', '₹1,50,000'));
    expect(refused.json().message).toContain('₹2,00,000');
    await ok(addInstallment(schemeid, '2025-07-01', 'upi'));
    expectRefusal(await addInstallment(schemeid, '2025-08-01', 'cash'), 409);
    await ok(addInstallment(schemeid, '2025-08-01', 'bank'));
    const [row] = await ctx.sql<{ cash: number; total: number }>(
      `SELECT sum(amount) FILTER (WHERE mode = 'cash')::int AS cash, sum(amount)::int AS total
         FROM scheme_installments WHERE scheme_id = $1`,
      [schemeid],
    );
    expect(row).toEqual({ cash: 150_000, total: 250_000 });
  });

  it('allows cash up to just below ₹2,00,000', async () => {
    const schemeid = await schemeFor(await newCustomer(VALID_PAN), 66_666, '2025-04-01');
    await ok(activate(schemeid, '2025-04-01', 'cash'));
    await ok(addInstallment(schemeid, '2025-05-01', 'cash'));
    await ok(addInstallment(schemeid, '2025-06-01', 'cash')); // 1,99,998
    expectRefusal(await addInstallment(schemeid, '2025-07-01', 'cash'), 409);
  });

  it('records an installment sent twice with one Idempotency-Key once, answering the same', async () => {
    const schemeid = await schemeFor(await newCustomer(), 1000, '2025-09-01');
    await ok(activate(schemeid, '2025-09-01'));
    const key = `installment-${schemeid}-retry`;
    const first = await addInstallment(schemeid, '2025-10-01', 'upi', {}, key);
    const again = await addInstallment(schemeid, '2025-10-01', 'upi', {}, key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await installmentCount(schemeid)).toBe(2);
    const actions = await auditActions('scheme', schemeid);
    expect(actions.filter((action) => action === 'scheme.installment')).toHaveLength(2);
  });
});

describe('installments count and closing', () => {
  /** Start 15 Feb 2025, maturity 14 Feb 2026; "today" is 10 Feb 2026. */
  let full: number;
  const AMOUNT = 1234;
  const modes = ['cash', 'upi', 'card', 'bank', 'cheque'] as const;

  beforeAll(async () => {
    full = await schemeFor(await newCustomer(), AMOUNT, '2025-02-15');
    await ok(activate(full, '2025-02-15'));
    for (let month = 3; month <= 11; month++) {
      const date = `2025-${String(month).padStart(2, '0')}-05`;
      await ok(addInstallment(full, date, modes[month % modes.length]));
    }
  });

  it('refuses to close before all are paid and before maturity', async () => {
    expect(await installmentCount(full)).toBe(10);
    expectRefusal(
      await post('close', { schemeid: full }),
      409,
      MESSAGES.notYetClosable(11, '14-02-2026'),
    );
    expect((await schemeRow(full)).status).toBe('a');
  });

  it('takes at most INSTALLMENTS installments', async () => {
    const eleventh = await ok(addInstallment(full, '2025-12-05', 'upi'));
    expect(eleventh.data).toMatchObject({ installmentNo: 11, installments: 11 });
    expectRefusal(
      await addInstallment(full, '2026-01-05', 'upi'),
      409,
      MESSAGES.allInstallmentsPaid(11),
    );
    expect(await installmentCount(full)).toBe(11);
  });

  it('closes once all are paid, before maturity: bonus is one installment (100% × 11/11)', async () => {
    const body = await ok(post('close', { schemeid: full }));
    expect(body).toEqual({
      success: true,
      message: MESSAGES.schemeClosed(full),
      data: { bonus: AMOUNT, maturityValue: AMOUNT * 11 + AMOUNT, paid: 11 },
    });
    const row = await schemeRow(full);
    expect(row).toMatchObject({
      status: 'm',
      bonus: AMOUNT,
      closed_by: staffId,
      closed_on: TODAY,
    });
    expect(Number(row.maturity_value)).toBe(AMOUNT * 12);
    expect(await auditActions('scheme', full)).toContain('scheme.close');
  });

  it('refuses installments and a second close on a Completed scheme', async () => {
    expectRefusal(await post('close', { schemeid: full }), 409, MESSAGES.onlyActiveClosable);
    expectRefusal(
      await addInstallment(full, '2026-01-05', 'upi'),
      409,
      MESSAGES.onlyActiveInstallments,
    );
    const closes = (await auditActions('scheme', full)).filter((a) => a === 'scheme.close');
    expect(closes).toHaveLength(1);
  });

  it('refuses to close an Inactive scheme and an unknown one', async () => {
    const customer = await newCustomer();
    const schemeid = await enteredOn('2024-01-01', () => schemeFor(customer, 1000, '2024-01-01'));
    expectRefusal(await post('close', { schemeid }), 409, MESSAGES.onlyActiveClosable);
    expectRefusal(await post('close', { schemeid: 999_999 }), 404, MESSAGES.schemeNotFound);
  });

  it('closes after maturity with 7 of 11 paid: bonus = floor(amount × 7 / 11)', async () => {
    // Start 1 Mar 2025, maturity 28 Feb 2026.
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 1000, '2025-03-01');
    await ok(activate(schemeid, '2025-03-01', 'upi'));
    for (let month = 4; month <= 9; month++) {
      await ok(addInstallment(schemeid, `2025-0${month}-01`, 'cash'));
    }
    expect(await installmentCount(schemeid)).toBe(7);
    expectRefusal(await post('close', { schemeid }), 409);
    clock.set('2026-02-28'); // the maturity date itself: not yet passed
    expectRefusal(
      await post('close', { schemeid }),
      409,
      MESSAGES.notYetClosable(11, '28-02-2026'),
    );
    clock.set('2026-03-01');
    const body = await ok(post('close', { schemeid }));
    const bonus = Math.floor((1000 * 7) / 11);
    expect(bonus).toBe(636);
    expect(body.data).toEqual({ bonus, maturityValue: 7000 + bonus, paid: 7 });
    const row = await schemeRow(schemeid);
    expect(row).toMatchObject({ status: 'm', bonus: 636, closed_on: '2026-03-01' });
    expect(Number(row.maturity_value)).toBe(7636);

    const statement = await ok(post('generate-statement', { schemeid }));
    expect(statement.data).toHaveLength(8);
    expect(statement.data[7]).toEqual({
      date: '2026-03-01',
      narration: 'Maturity bonus',
      amount: 636,
      receiptNo: null,
      branch: null,
      mode: null,
      reference: null,
      period: null,
    });
    expectRefusal(await post('close', { schemeid }), 409, MESSAGES.onlyActiveClosable);
    expect(await auditActions('scheme', schemeid)).toEqual([
      'scheme.generate',
      'scheme.installment',
      'scheme.activate',
      ...Array(6).fill('scheme.installment'),
      'scheme.close',
    ]);
  });
});

describe('POST /api/scheme/generate-statement', () => {
  it('lists the installments with mode and receipt, the customer and the scheme', async () => {
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 3000, '2025-10-15');
    const r1 = (await ok(activate(schemeid, '2025-10-15', 'cash'))).data.receiptNo as string;
    const r2 = (
      await ok(
        addInstallment(schemeid, '2025-11-20', 'upi', { reference: 'UTR 9', narration: 'Nov' }),
      )
    ).data.receiptNo as string;
    const main = {
      code: 'MAIN',
      name: 'Main showroom',
      address: '12 Zaveri Bazaar, Mumbai 400002',
      phone: '+91 22 2342 1928',
    };
    const body = await ok(post('generate-statement', { schemeid: String(schemeid) }));
    expect(body).toMatchObject({
      success: true,
      custname: customer.custname,
      mobileno: customer.mobileno,
    });
    expect(body.data).toEqual([
      {
        date: '2025-10-15',
        narration: expect.any(String),
        amount: 3000,
        receiptNo: r1,
        branch: main,
        mode: 'cash',
        reference: '',
        period: '2025-10',
      },
      {
        date: '2025-11-20',
        narration: expect.any(String),
        amount: 3000,
        receiptNo: r2,
        branch: main,
        mode: 'upi',
        reference: 'UTR 9',
        period: '2025-11',
      },
    ]);
    expect(body.data[0].narration).toContain('Cash');
    expect(body.data[0].narration).toContain(`Receipt ${r1}`);
    expect(body.data[1].narration).toContain('UPI');
    expect(body.data[1].narration).toContain('UTR 9');
    expect(body.data[1].narration).toContain(`Receipt ${r2}`);
    expect(body.data.some((row: { narration: string }) => row.narration === 'Maturity bonus')).toBe(
      false,
    );
  });

  it('gives an Inactive scheme an empty statement', async () => {
    const customer = await newCustomer();
    const schemeid = await schemeFor(customer, 3000);
    expect(await ok(post('generate-statement', { schemeid }))).toMatchObject({
      success: true,
      data: [],
      custname: customer.custname,
      mobileno: customer.mobileno,
    });
  });

  it('answers 404 "Scheme not found." for an unknown or cancelled id, 400 for a blank one', async () => {
    expectRefusal(
      await post('generate-statement', { schemeid: 999_999 }),
      404,
      'Scheme not found.',
    );
    const schemeid = await schemeFor(await newCustomer(), 3000);
    await ok(post('delete', { schemeid }));
    expectRefusal(await post('generate-statement', { schemeid }), 404, 'Scheme not found.');
    expectRefusal(
      await post('generate-statement', { schemeid: '' }),
      400,
      MESSAGES.schemeIdRequired,
    );
    expectRefusal(await post('generate-statement', { schemeid: 'abc' }), 400);
  });
});

describe('POST /api/scheme/generate-summary', () => {
  // Start dates in May–June 2024, which no other test of this file uses.
  let s1: Customer;
  let s2: Customer;
  let matured: number;
  let active: number;
  let inactive: number;
  let june: number;

  beforeAll(async () => {
    s1 = await newCustomer();
    s2 = await newCustomer();
    // Each entered the day it started.
    matured = await enteredOn('2024-05-01', async () => {
      const started = await schemeFor(s1, 1000, '2024-05-01');
      await ok(activate(started, '2024-05-01'));
      return started;
    });
    await ok(post('close', { schemeid: matured })); // past maturity (30 Apr 2025)
    active = await enteredOn('2024-05-10', async () => {
      const started = await schemeFor(s1, 2000, '2024-05-10');
      await ok(activate(started, '2024-05-10'));
      return started;
    });
    inactive = await enteredOn('2024-05-20', () => schemeFor(s1, 4000, '2024-05-20'));
    const cancelled = await enteredOn('2024-05-31', () => schemeFor(s2, 8000, '2024-05-31'));
    await ok(post('delete', { schemeid: cancelled }));
    june = await enteredOn('2024-06-01', () => schemeFor(s2, 3000, '2024-06-01'));
  });

  const summary = (
    selected: unknown,
    datefrom = '2024-05-01',
    dateto = '2024-05-31',
    mobileno = '',
  ) => post('generate-summary', { selected, formData: { mobileno, datefrom, dateto } });
  const ids = (body: { data: { schemeid: number }[] }) => body.data.map((row) => row.schemeid);

  it('All lists every status but cancelled, with rows as the spec shapes them and the total', async () => {
    const body = await ok(summary('All'));
    expect(body).toEqual({
      success: true,
      total: 7000,
      data: [
        {
          schemeid: matured,
          custname: s1.custname,
          mobileno: s1.mobileno,
          startdt: '2024-05-01',
          amount: 1000,
          matyn: 'm',
        },
        {
          schemeid: active,
          custname: s1.custname,
          mobileno: s1.mobileno,
          startdt: '2024-05-10',
          amount: 2000,
          matyn: 'a',
        },
        {
          schemeid: inactive,
          custname: s1.custname,
          mobileno: s1.mobileno,
          startdt: '2024-05-20',
          amount: 4000,
          matyn: 'n',
        },
      ],
    });
  });

  it.each([
    ['Active', () => [active], 2000],
    ['Inactive', () => [inactive], 4000],
    ['Matured', () => [matured], 1000],
  ] as const)('filters %s', async (selected, expected, total) => {
    const body = await ok(summary(selected));
    expect(ids(body)).toEqual(expected());
    expect(body.total).toBe(total);
  });

  it('takes the start-date range inclusively', async () => {
    expect(ids(await ok(summary('All', '2024-05-10', '2024-05-20')))).toEqual([active, inactive]);
    expect(ids(await ok(summary('All', '2024-05-01', '2024-05-01')))).toEqual([matured]);
    const wider = await ok(summary('All', '2024-05-01', '2024-06-01'));
    expect(ids(wider)).toEqual([matured, active, inactive, june]);
    expect(wider.total).toBe(10_000);
  });

  it('filters by the exact mobile number', async () => {
    const mine = await ok(summary('All', '2024-01-01', '2024-12-31', s2.mobileno));
    expect(ids(mine)).toEqual([june]);
    expect(mine.total).toBe(3000);
    expect(ids(await ok(summary('All', '2024-01-01', '2024-12-31', s1.mobileno)))).toEqual([
      matured,
      active,
      inactive,
    ]);
    expectRefusal(
      await summary('All', '2024-01-01', '2024-12-31', s1.mobileno.slice(0, 9)),
      400,
      MESSAGES.mobileLength,
    );
  });

  it('answers success false with the spec’s message when nothing matches', async () => {
    for (const response of [
      await summary('All', '2023-01-01', '2023-12-31'),
      await summary('Matured', '2024-05-02', '2024-05-31'),
      await summary('All', '2024-01-01', '2024-12-31', '9999999999'),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        success: false,
        message: 'No records match the specified filters.',
      });
    }
  });

  describe('one page at a time', () => {
    const paged = (paging: object, selected = 'All', mobileno = '') =>
      post('generate-summary', {
        selected,
        formData: { mobileno, datefrom: '2024-05-01', dateto: '2024-05-31' },
        ...paging,
      });

    it('answers the page asked for, with the count and amount of the whole filter', async () => {
      const first = await ok(paged({ page: 1, pageSize: 2 }));
      expect(first).toMatchObject({ success: true, count: 3, total: 7000, page: 1, pageSize: 2 });
      expect(ids(first)).toEqual([matured, active]);
      const second = await ok(paged({ page: 2, pageSize: 2 }));
      expect(second).toMatchObject({ success: true, count: 3, total: 7000, page: 2 });
      expect(ids(second)).toEqual([inactive]);
      // Past the last page: the filter still holds rows, this page none.
      const past = await ok(paged({ page: 3, pageSize: 2 }));
      expect(past).toEqual({
        success: true,
        data: [],
        count: 3,
        total: 7000,
        page: 3,
        pageSize: 2,
      });
    });

    it('takes page 1 or 100 rows when only the other is given, and filters as the whole call', async () => {
      expect(await ok(paged({ page: 1 }))).toMatchObject({ count: 3, pageSize: 100 });
      expect(ids(await ok(paged({ page: 1 })))).toEqual([matured, active, inactive]);
      const sized = await ok(paged({ pageSize: 1 }, 'Inactive'));
      expect(sized).toMatchObject({ success: true, count: 1, total: 4000, page: 1 });
      expect(ids(sized)).toEqual([inactive]);
      const mine = await ok(paged({ page: 1, pageSize: 1 }, 'All', s1.mobileno));
      expect(mine).toMatchObject({ count: 3, total: 7000 });
      expect(ids(mine)).toEqual([matured]);
    });

    it('answers success false with the message, a zero count and total when nothing matches', async () => {
      const response = await paged({ page: 1 }, 'All', '9999999999');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: false,
        message: MESSAGES.noMatchingRecords,
        data: [],
        total: 0,
        count: 0,
        page: 1,
        pageSize: 100,
      });
    });

    it.each([
      [{ page: 0 }, 'The page must be a whole number from 1 to 10000.'],
      [{ page: 1.5 }, 'The page must be a whole number from 1 to 10000.'],
      [{ page: '2' }, 'The page must be a whole number from 1 to 10000.'],
      [{ page: 10_001 }, 'The page must be a whole number from 1 to 10000.'],
      [{ pageSize: 0 }, 'Rows per page must be a whole number from 1 to 500.'],
      [{ pageSize: 501 }, 'Rows per page must be a whole number from 1 to 500.'],
      [{ pageSize: null }, 'Rows per page must be a whole number from 1 to 500.'],
    ])('refuses %j with 400 and the rule', async (paging, message) => {
      expectRefusal(await paged(paging), 400, message);
    });
  });

  it.each([['Completed'], ['all'], [''], [1]])('refuses selected %j with 400', async (selected) => {
    expectRefusal(await summary(selected), 400);
  });

  it.each([
    ['2025-02-30', '2025-03-31'],
    ['2025-02-01', '2025-02-30'],
    ['01-02-2025', '2025-03-31'],
    ['', '2025-03-31'],
  ])('refuses the dates %s to %s with 400', async (datefrom, dateto) => {
    expectRefusal(await summary('All', datefrom, dateto), 400);
  });
});

describe('how far back a scheme may be dated', () => {
  // Today is 10-02-2026: staff may date back to 03-02-2026 themselves.
  const EARLIEST = '03-02-2026';
  const tokens: Partial<Record<'cashier' | 'manager', string>> = {};
  const as = async (role: 'cashier' | 'manager', path: string, payload: object) => {
    tokens[role] ??= (await staffSession(ctx, `dated-${role}`, role)).token;
    return ctx.app.inject(
      authed(tokens[role], { method: 'POST', url: `/api/scheme/${path}`, payload }),
    );
  };
  const counts = async (custid: number) =>
    (
      await ctx.sql<{ schemes: number; installments: number; audits: number }>(
        `SELECT (SELECT count(*)::int FROM schemes WHERE customer_id = $1) AS schemes,
                (SELECT count(*)::int FROM scheme_installments i JOIN schemes s ON s.id = i.scheme_id
                  WHERE s.customer_id = $1) AS installments,
                (SELECT count(*)::int FROM audit_log a JOIN customers c ON c.mobileno = a.mobile
                  WHERE c.id = $1) AS audits`,
        [custid],
      )
    )[0]!;
  const startPayload = (customer: Customer, startdt: string, extra: object = {}) => ({
    custid: customer.id,
    mobileno: customer.mobileno,
    custname: customer.custname,
    startdt,
    amount: 2000,
    ...extra,
  });
  const auditAfter = async (action: string, schemeid: number) =>
    (
      await ctx.sql<{ after: Record<string, unknown> }>(
        `SELECT detail->'after' AS after FROM audit_log
          WHERE action = $1 AND entity = 'scheme' AND entity_id = $2 ORDER BY id DESC LIMIT 1`,
        [action, String(schemeid)],
      )
    )[0]!.after;

  it('refuses a cashier a start in 1900 and a manager one 8 days back, writing nothing', async () => {
    const customer = await newCustomer();
    const before = await counts(customer.id);
    expectRefusal(
      await as('cashier', 'generate', startPayload(customer, '1900-01-01')),
      403,
      `A cashier can date a scheme's start at most 7 days back (from ${EARLIEST}). Ask the owner to record an older one.`,
    );
    // A reason does not open the way for anyone but the owner.
    expectRefusal(
      await as(
        'manager',
        'generate',
        startPayload(customer, '2026-02-02', { backdateReason: 'Slip found in the drawer' }),
      ),
      403,
      MESSAGES.backdateTooFar('manager', "a scheme's start", EARLIEST),
    );
    expect(await counts(customer.id)).toEqual(before);
    // Seven days back is still theirs to date.
    await ok(as('cashier', 'generate', startPayload(customer, '2026-02-03')));
  });

  it('refuses a cashier an installment 30 days back and an activation 8 days back, writing nothing', async () => {
    const customer = await newCustomer();
    const schemeid = await enteredOn('2026-01-01', () => schemeFor(customer, 1000, '2026-01-01'));
    expectRefusal(
      await as('cashier', 'activate', { schemeid, date: '2026-02-02', mode: 'cash' }),
      403,
      MESSAGES.backdateTooFar('cashier', 'an activation', EARLIEST),
    );
    await enteredOn('2026-01-01', () => ok(activate(schemeid, '2026-01-01')));
    const before = await counts(customer.id);
    const response = await as('cashier', 'add-installment', {
      schemeid,
      date: '2026-01-11',
      mode: 'cash',
    });
    expectRefusal(
      response,
      403,
      `A cashier can date an installment at most 7 days back (from ${EARLIEST}). Ask the owner to record an older one.`,
    );
    expect(await counts(customer.id)).toEqual(before);
    // Within the week, the cashier records it.
    await ok(as('cashier', 'add-installment', { schemeid, date: '2026-02-04', mode: 'cash' }));
    expect((await counts(customer.id)).installments).toBe(before.installments + 1);
  });

  it('lets the owner date further back with a reason, kept in the audit row; without one, 400', async () => {
    const customer = await newCustomer();
    const before = await counts(customer.id);
    expectRefusal(
      await post('generate', startPayload(customer, '2025-06-01')),
      400,
      MESSAGES.backdateReasonRequired(EARLIEST),
    );
    expectRefusal(
      await post('generate', startPayload(customer, '2025-06-01', { backdateReason: 'ab' })),
      400,
      'Reason must be 3 to 200 characters.',
    );
    expectRefusal(
      await post(
        'generate',
        startPayload(customer, '2025-06-01', { backdateReason: 'x'.repeat(201) }),
      ),
      400,
      'Reason must be 3 to 200 characters.',
    );
    expect(await counts(customer.id)).toEqual(before);

    const reason = 'Signed on paper at the Diwali mela';
    const started = await ok(
      post('generate', startPayload(customer, '2025-06-01', { backdateReason: ` ${reason} ` })),
    );
    const schemeid = started.data.schemeid as number;
    expect(await auditAfter('scheme.generate', schemeid)).toMatchObject({
      startdt: '2025-06-01',
      backdateReason: reason,
    });

    expectRefusal(
      await post('activate', { schemeid, date: '2025-06-01', mode: 'cash' }),
      400,
      MESSAGES.backdateReasonRequired(EARLIEST),
    );
    await ok(
      post('activate', {
        schemeid,
        date: '2025-06-01',
        mode: 'cash',
        backdateReason: 'First installment paid on paper',
      }),
    );
    expect(await auditAfter('scheme.installment', schemeid)).toMatchObject({
      paidOn: '2025-06-01',
      backdateReason: 'First installment paid on paper',
    });
    await ok(
      post('add-installment', {
        schemeid,
        date: '2025-07-01',
        mode: 'upi',
        backdateReason: 'July slip entered late',
      }),
    );
    expect(await auditAfter('scheme.installment', schemeid)).toMatchObject({
      paidOn: '2025-07-01',
      backdateReason: 'July slip entered late',
    });
    // A recent date needs no reason, and none is kept.
    await ok(post('add-installment', { schemeid, date: TODAY, mode: 'upi' }));
    expect(await auditAfter('scheme.installment', schemeid)).not.toHaveProperty('backdateReason');
  });

  it('refuses even the owner a start whose scheme would already have matured, as 1900', async () => {
    const customer = await newCustomer();
    const before = await counts(customer.id);
    expectRefusal(
      await post(
        'generate',
        startPayload(customer, '1900-01-01', { backdateReason: 'Old ledger brought in' }),
      ),
      400,
      'A scheme started on 01-01-1900 would have matured on 31-12-1900, before today. Choose a later start date.',
    );
    // Started 364 days ago, it matures today: still running.
    expectRefusal(
      await post(
        'generate',
        startPayload(customer, '2025-02-10', { backdateReason: 'Old ledger brought in' }),
      ),
      400,
      MESSAGES.startAlreadyMatured('10-02-2025', '09-02-2026'),
    );
    expect(await counts(customer.id)).toEqual(before);
    await ok(
      post(
        'generate',
        startPayload(customer, '2025-02-11', { backdateReason: 'Old ledger brought in' }),
      ),
    );
  });
});

describe('receipts and audit across the file', () => {
  it('has issued receipt numbers 1, 2, 3 … with no gaps and no repeats', async () => {
    const rows = await ctx.sql<{ receipt_no: string }>(
      `SELECT receipt_no FROM scheme_installments ORDER BY receipt_no`,
    );
    const numbers = rows.map((row) => Number(row.receipt_no));
    expect(numbers.length).toBeGreaterThan(50);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const printed = await ctx.sql<{ receipt: string }>(
      `SELECT receipt FROM scheme_installments ORDER BY receipt_no`,
    );
    expect(printed.map((row) => row.receipt)).toEqual(
      numbers.map((n) => `MAIN-${String(n).padStart(6, '0')}`),
    );
    const [counter] = await ctx.sql<{ last_no: string }>(`SELECT last_no FROM receipt_counter`);
    expect(Number(counter!.last_no)).toBe(numbers.length);
  });

  it('has one audit row per change', async () => {
    const counts = await ctx.sql<{ action: string; n: number }>(
      `SELECT action, count(*)::int AS n FROM audit_log
        WHERE action LIKE 'scheme.%' OR action = 'customer.pan' GROUP BY action`,
    );
    const byAction = Object.fromEntries(counts.map((row) => [row.action, row.n]));
    const [facts] = await ctx.sql<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM schemes) AS generate,
              (SELECT count(*)::int FROM schemes WHERE status = 'x') AS cancel,
              (SELECT count(*)::int FROM schemes WHERE status = 'm') AS close,
              (SELECT count(*)::int FROM scheme_installments) AS installment`,
    );
    expect(byAction['scheme.generate']).toBe(facts!.generate);
    expect(byAction['scheme.cancel']).toBe(facts!.cancel);
    expect(byAction['scheme.close']).toBe(facts!.close);
    expect(byAction['scheme.installment']).toBe(facts!.installment);
    expect(byAction['scheme.activate']).toBeGreaterThan(0);
    expect(byAction['customer.pan']).toBeGreaterThan(0);
  });
});
