import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { LIMITS, MESSAGES, statementTotals, type StatementRow } from '@kanak/contract';
import { pointsBalance, signedIn, type SignedIn } from '../../../test/helpers.js';

/** Today is 15 June 2025 in Kolkata unless a test moves the clock. */
const NOON_15_JUNE = new Date('2025-06-15T12:00:00+05:30');
let now = NOON_15_JUNE;
let ctx: SignedIn;
let staffId: number;

beforeAll(async () => {
  ctx = await signedIn('owner', { clock: () => now, username: 'meera' });
  const [user] = await ctx.sql<{ id: number }>(`SELECT id FROM users WHERE username = 'meera'`);
  staffId = user!.id;
});
afterAll(() => ctx.close());

type Form = Record<string, unknown>;

const updatePoints = (formData: Form, idempotencyKey?: string) =>
  ctx.inject({
    method: 'POST',
    url: '/api/customers/update-points',
    payload: { formData },
    idempotencyKey,
  });
const updateStatement = (formData: Form, idempotencyKey?: string) =>
  ctx.inject({
    method: 'POST',
    url: '/api/customers/update-statement',
    payload: { formData },
    idempotencyKey,
  });
const statement = (MOBILENO: string, DFROM: string, DTO: string) =>
  ctx.inject({
    method: 'POST',
    url: '/api/customers/generate-statement',
    payload: { MOBILENO, DFROM, DTO },
  });
const rowsOf = async (MOBILENO: string, DFROM: string, DTO: string) => {
  const response = await statement(MOBILENO, DFROM, DTO);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: StatementRow[] }>().data;
};

const credit = (MOBILENO: string, POINTS: number, INVDATE = '2025-06-01', NARRATION = '') =>
  updatePoints({ MOBILENO, POINTS: String(POINTS), INVDATE, CASHCR: 'CR', NARRATION });
const debit = (MOBILENO: string, POINTS: number, INVDATE = '2025-06-01', NARRATION = '') =>
  updatePoints({ MOBILENO, POINTS: String(POINTS), INVDATE, CASHCR: 'DB', NARRATION });

async function newCustomer(mobileno: string, custname = `Customer ${mobileno}`) {
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
    [mobileno, custname],
  );
  return { id: row!.id, mobileno, custname };
}

async function balance(mobileno: string) {
  return (await pointsBalance(ctx, mobileno))!;
}

/** The newest ledger row (requests in these tests run one at a time unless said otherwise). */
async function lastEntry() {
  const [row] = await ctx.sql<Record<string, unknown> & { mrn: number }>(
    `SELECT mrn, customer_id, invdate, narration, credit, debit, ts, created_by
     FROM points_entries ORDER BY mrn DESC LIMIT 1`,
  );
  return row!;
}

/** Polls until `probe` gives a value (5 s at most). */
async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (const until = Date.now() + 5_000; Date.now() < until;) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(20);
  }
  throw new Error('waited 5 s in vain');
}

/** Customers whose cached balance differs from the sum of their ledger: must be none. */
/** Customers whose balance is not their ledger's sum, or not their points lots' remaining. */
async function balancesDisagreeing() {
  return ctx.sql(`
    SELECT c.id, a.balance,
           (SELECT coalesce(sum(credit - debit), 0) FROM points_entries e WHERE e.customer_id = c.id)::bigint AS ledger,
           (SELECT coalesce(sum(remaining), 0) FROM points_lots l WHERE l.customer_id = c.id)::bigint AS lots
    FROM customers c JOIN points_accounts a ON a.customer_id = c.id
    WHERE a.balance <> (SELECT coalesce(sum(credit - debit), 0) FROM points_entries e WHERE e.customer_id = c.id)
       OR a.balance <> (SELECT coalesce(sum(remaining), 0) FROM points_lots l WHERE l.customer_id = c.id)`);
}

/** Ledger, balances, history and audit, to show a refused request changed nothing. */
async function snapshot() {
  const [row] = await ctx.sql(`
    SELECT (SELECT md5(coalesce(string_agg(e::text, '|' ORDER BY mrn), '')) FROM points_entries e) AS entries,
           (SELECT md5(coalesce(string_agg(customer_id || ':' || balance, '|' ORDER BY customer_id), '')) FROM points_accounts) AS balances,
           (SELECT count(*)::int FROM points_entry_history) AS history,
           (SELECT count(*)::int FROM audit_log) AS audits`);
  return row;
}

const pointsRule = `Loyalty points must be a whole number from 1 to ${LIMITS.pointsMax.toLocaleString('en-IN')}.`;

describe('POST /api/customers/update-points', () => {
  const mobile = '9800000001';
  beforeAll(async () => {
    await newCustomer(mobile, 'Lakshmi Iyer');
  });

  it('credits points with the spec message, an M row, the balance and an audit row', async () => {
    const response = await updatePoints({
      CUSTNAME: 'Lakshmi Iyer',
      MOBILENO: mobile,
      POINTS: '100',
      NARRATION: 'Diwali purchase',
      INVDATE: '2025-06-10',
      CASHCR: 'CR',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: MESSAGES.pointsUpdated,
      data: { balance: 100 },
    });
    const entry = await lastEntry();
    expect(entry).toMatchObject({
      invdate: '2025-06-10',
      narration: 'Diwali purchase',
      credit: 100,
      debit: 0,
      ts: 'M',
      created_by: staffId,
    });
    expect(await balance(mobile)).toBe(100);
    const audits = await ctx.sql(
      `SELECT user_id, action, entity, detail FROM audit_log WHERE entity = 'points_entry' AND entity_id = $1`,
      [String(entry.mrn)],
    );
    expect(audits).toEqual([
      {
        user_id: staffId,
        action: 'points.credit',
        entity: 'points_entry',
        detail: {
          before: null,
          after: expect.objectContaining({ credit: 100, debit: 0, balance: 100 }),
        },
      },
    ]);
  });

  it('deducts points, with "Points deducted" for an empty narration and a debit audit row', async () => {
    const response = await debit(mobile, 30, '2025-06-15');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: MESSAGES.pointsUpdated,
      data: { balance: 70 },
    });
    const entry = await lastEntry();
    expect(entry).toMatchObject({
      narration: 'Points deducted',
      credit: 0,
      debit: 30,
      invdate: '2025-06-15',
    });
    expect(await balance(mobile)).toBe(70);
    expect(
      await ctx.sql(`SELECT action FROM audit_log WHERE entity_id = $1`, [String(entry.mrn)]),
    ).toEqual([{ action: 'points.debit' }]);
  });

  it('says "Points allocated" when the narration is empty or missing, and takes POINTS as a number', async () => {
    expect(
      (await updatePoints({ MOBILENO: mobile, POINTS: 5, INVDATE: '2025-06-01', CASHCR: 'CR' }))
        .statusCode,
    ).toBe(200);
    expect(await lastEntry()).toMatchObject({ narration: 'Points allocated', credit: 5 });
    expect((await credit(mobile, 5, '2025-06-01', '   ')).statusCode).toBe(200);
    expect(await lastEntry()).toMatchObject({ narration: 'Points allocated', credit: 5 });
    expect(await balance(mobile)).toBe(80);
  });

  it('accepts the largest allowed value, 9,999,999', async () => {
    const big = await newCustomer('9800000002');
    expect((await credit(big.mobileno, 9_999_999)).statusCode).toBe(200);
    expect(await balance(big.mobileno)).toBe(9_999_999);
    expect((await debit(big.mobileno, 9_999_999)).statusCode).toBe(200);
    expect(await balance(big.mobileno)).toBe(0);
  });

  it('refuses a deduction beyond the balance with 409 naming the balance, changing nothing', async () => {
    const before = await snapshot();
    const response = await debit(mobile, 81);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      message: 'Insufficient points. Available balance: 80.',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('allows a deduction of exactly the balance', async () => {
    const exact = await newCustomer('9800000003');
    await credit(exact.mobileno, 40);
    expect((await debit(exact.mobileno, 41)).statusCode).toBe(409);
    expect((await debit(exact.mobileno, 40)).statusCode).toBe(200);
    expect(await balance(exact.mobileno)).toBe(0);
    const refused = await debit(exact.mobileno, 1);
    expect(refused.json().message).toBe('Insufficient points. Available balance: 0.');
  });

  it('accepts a date of today in the store time zone (already tomorrow in Kolkata, not in UTC)', async () => {
    now = new Date('2025-06-15T20:00:00Z'); // 16 June, 01:30 IST
    try {
      expect((await credit(mobile, 1, '2025-06-16')).statusCode).toBe(200);
      expect((await credit(mobile, 1, '2025-06-17')).statusCode).toBe(400);
    } finally {
      now = NOON_15_JUNE;
    }
  });

  const valid = {
    MOBILENO: mobile,
    POINTS: '10',
    INVDATE: '2025-06-01',
    CASHCR: 'CR',
    NARRATION: '',
  };
  const refusals: [string, Form, number, string][] = [
    ['POINTS with a letter', { ...valid, POINTS: '12a' }, 400, pointsRule],
    ['POINTS 0', { ...valid, POINTS: '0' }, 400, pointsRule],
    ['POINTS 0 as a number', { ...valid, POINTS: 0 }, 400, pointsRule],
    ['negative POINTS', { ...valid, POINTS: '-5' }, 400, pointsRule],
    ['negative POINTS as a number', { ...valid, POINTS: -5 }, 400, pointsRule],
    ['POINTS 10,000,000', { ...valid, POINTS: '10000000' }, 400, pointsRule],
    ['POINTS 10,000,000 as a number', { ...valid, POINTS: 10_000_000 }, 400, pointsRule],
    ['fractional POINTS', { ...valid, POINTS: '1.5' }, 400, pointsRule],
    ['fractional POINTS as a number', { ...valid, POINTS: 1.5 }, 400, pointsRule],
    ['empty POINTS', { ...valid, POINTS: '' }, 400, pointsRule],
    ['POINTS in exponent form', { ...valid, POINTS: '1e3' }, 400, pointsRule],
    ['missing POINTS', { ...valid, POINTS: undefined }, 400, pointsRule],
    [
      'CASHCR other than CR/DB',
      { ...valid, CASHCR: 'XX' },
      400,
      'Choose Points Allocation (credit) or Points Deduction (debit).',
    ],
    [
      'CASHCR in lower case',
      { ...valid, CASHCR: 'cr' },
      400,
      'Choose Points Allocation (credit) or Points Deduction (debit).',
    ],
    [
      'empty CASHCR',
      { ...valid, CASHCR: '' },
      400,
      'Choose Points Allocation (credit) or Points Deduction (debit).',
    ],
    [
      'missing CASHCR',
      { ...valid, CASHCR: undefined },
      400,
      'Choose Points Allocation (credit) or Points Deduction (debit).',
    ],
    [
      'impossible INVDATE',
      { ...valid, INVDATE: '2025-02-30' },
      400,
      'Date must be a real date in YYYY-MM-DD format.',
    ],
    [
      'INVDATE as DD/MM/YYYY',
      { ...valid, INVDATE: '01/06/2025' },
      400,
      'Date must be a real date in YYYY-MM-DD format.',
    ],
    ['missing INVDATE', { ...valid, INVDATE: undefined }, 400, 'Date is required.'],
    ['INVDATE tomorrow', { ...valid, INVDATE: '2025-06-16' }, 400, MESSAGES.entryDateInFuture],
    ['INVDATE next year', { ...valid, INVDATE: '2026-01-01' }, 400, MESSAGES.entryDateInFuture],
    ['empty MOBILENO', { ...valid, MOBILENO: '' }, 400, MESSAGES.enterMobile],
    ['short MOBILENO', { ...valid, MOBILENO: '98000' }, 400, MESSAGES.mobileLength],
    [
      'NARRATION over 200',
      { ...valid, NARRATION: 'n'.repeat(201) },
      400,
      'Narration must be at most 200 characters.',
    ],
    ['unknown MOBILENO', { ...valid, MOBILENO: '9899999999' }, 404, MESSAGES.customerNotFound],
    [
      'unknown MOBILENO, deduction',
      { ...valid, MOBILENO: '9899999999', CASHCR: 'DB' },
      404,
      MESSAGES.customerNotFound,
    ],
  ];

  it.each(refusals)('refuses %s and changes nothing', async (_label, formData, status, message) => {
    const before = await snapshot();
    const response = await updatePoints(formData);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ success: false, message });
    expect(await snapshot()).toEqual(before);
  });

  it('needs a token and an Idempotency-Key', async () => {
    const before = await snapshot();
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/customers/update-points',
      headers: { 'idempotency-key': randomUUID() },
      payload: { formData: valid },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
    const keyless = await ctx.app.inject({
      method: 'POST',
      url: '/api/customers/update-points',
      headers: { authorization: `Bearer ${ctx.token}` },
      payload: { formData: valid },
    });
    expect(keyless.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps the cached balance equal to the ledger', async () => {
    expect(await balancesDisagreeing()).toEqual([]);
  });
});

describe('update-points: concurrency and idempotency', () => {
  it('lets exactly 5 of 20 concurrent 1-point deductions through a balance of 5', async () => {
    const customer = await newCustomer('9800000100');
    await credit(customer.mobileno, 5);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        updatePoints({
          MOBILENO: customer.mobileno,
          POINTS: '1',
          INVDATE: '2025-06-15',
          CASHCR: 'DB',
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const r of responses.filter((r) => r.statusCode === 409)) {
      expect(r.json()).toEqual({
        success: false,
        message: 'Insufficient points. Available balance: 0.',
      });
    }
    expect(await balance(customer.mobileno)).toBe(0);
    const [ledger] = await ctx.sql<{ debits: number; sum: number }>(
      `SELECT count(*) FILTER (WHERE debit > 0)::int AS debits, sum(credit - debit)::int AS sum
       FROM points_entries WHERE customer_id = $1`,
      [customer.id],
    );
    expect(ledger).toEqual({ debits: 5, sum: 0 });
    expect(await balancesDisagreeing()).toEqual([]);
  });

  it('does the work once for the same request sent twice with one Idempotency-Key', async () => {
    const customer = await newCustomer('9800000101');
    const key = randomUUID();
    const form = { MOBILENO: customer.mobileno, POINTS: '25', INVDATE: '2025-06-15', CASHCR: 'CR' };
    const first = await updatePoints(form, key);
    const second = await updatePoints(form, key);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(
      await ctx.sql(`SELECT mrn FROM points_entries WHERE customer_id = $1`, [customer.id]),
    ).toHaveLength(1);
    expect(await balance(customer.mobileno)).toBe(25);
    expect(
      await ctx.sql(
        `SELECT a.id FROM audit_log a JOIN points_entries e ON a.entity_id = e.mrn::text
         WHERE a.entity = 'points_entry' AND e.customer_id = $1`,
        [customer.id],
      ),
    ).toHaveLength(1);
  });

  it('replays a refusal too, and refuses the same key with a different body', async () => {
    const customer = await newCustomer('9800000102');
    const key = randomUUID();
    const form = { MOBILENO: customer.mobileno, POINTS: '5', INVDATE: '2025-06-15', CASHCR: 'DB' };
    const refused = await updatePoints(form, key);
    expect(refused.statusCode).toBe(409);
    await credit(customer.mobileno, 10);
    const replayed = await updatePoints(form, key);
    expect(replayed.statusCode).toBe(409);
    expect(replayed.body).toBe(refused.body);
    const before = await snapshot();
    const other = await updatePoints({ ...form, POINTS: '6' }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(MESSAGES.idempotencyKeyReused);
    expect(await snapshot()).toEqual(before);
    expect(await balance(customer.mobileno)).toBe(10);
  });

  it('a connection lost in the middle of a change keeps its key: the resent change is not made again', async () => {
    // A COMMIT can be applied and its answer lost; the server cannot tell that from a change
    // that never ran, so it must not release the key for the web client's retry of the 503.
    const customer = await newCustomer('9800000190');
    const key = randomUUID();
    const form = { MOBILENO: customer.mobileno, POINTS: '9', INVDATE: '2025-06-15', CASHCR: 'CR' };
    const holder = await ctx.database.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customer.id]);
      const first = updatePoints(form, key);
      const waiting = await waitFor(async () => {
        const rows = await ctx.sql<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows[0]?.pid;
      });
      await ctx.sql('SELECT pg_terminate_backend($1)', [waiting]);
      const lost = await first;
      expect(lost.statusCode).toBe(503);
      expect(lost.json().message).toBe(MESSAGES.databaseUnavailable);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }

    const resent = await updatePoints(form, key);
    expect(resent.statusCode).toBe(409);
    expect(resent.json().message).toBe(MESSAGES.idempotencyInProgress);
    expect(await balance(customer.mobileno)).toBe(0);
    // A new action (a new key) is made as usual.
    expect((await updatePoints(form, randomUUID())).statusCode).toBe(200);
    expect(await balance(customer.mobileno)).toBe(9);
  });

  it('forgets a key after 24 hours: the same key then claims a new change', async () => {
    const customer = await newCustomer('9800000103');
    const key = randomUUID();
    const form = { MOBILENO: customer.mobileno, POINTS: '7', INVDATE: '2025-06-15', CASHCR: 'CR' };
    expect((await updatePoints(form, key)).statusCode).toBe(200);
    await ctx.sql(
      `UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 minute' WHERE key = $1`,
      [key],
    );
    const again = await updatePoints({ ...form, POINTS: '8' }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(customer.mobileno)).toBe(15);
    const [record] = await ctx.sql<{ fresh: boolean }>(
      `SELECT created_at > now() - interval '1 minute' AS fresh FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    expect(record).toEqual({ fresh: true });
  });

  it('answers a claim left unfinished past any live request as interrupted, not still in progress, and never redoes it', async () => {
    const customer = await newCustomer('9800000104');
    const key = randomUUID();
    const form = { MOBILENO: customer.mobileno, POINTS: '9', INVDATE: '2025-06-15', CASHCR: 'CR' };
    expect((await updatePoints(form, key)).statusCode).toBe(200);
    // As a crash leaves it: claimed, no answer stored.
    const unfinish = (age: string) =>
      ctx.sql(
        `UPDATE idempotency_keys SET status_code = NULL, response_body = NULL,
           created_at = now() - $2::interval WHERE key = $1`,
        [key, age],
      );
    const limit = LIMITS.idempotencyInterruptedAfterSeconds;

    await unfinish(`${limit - 10} seconds`);
    const young = await updatePoints(form, key);
    expect(young.statusCode).toBe(409);
    expect(young.json()).toEqual({ success: false, message: MESSAGES.idempotencyInProgress });

    await unfinish(`${limit + 1} seconds`);
    const old = await updatePoints(form, key);
    expect(old.statusCode).toBe(409);
    expect(old.json()).toEqual({ success: false, message: MESSAGES.idempotencyInterrupted });
    expect(await balance(customer.mobileno)).toBe(9);

    // Still the same key's claim until it expires: the ledger shows what happened.
    await unfinish('23 hours');
    expect((await updatePoints(form, key)).json().message).toBe(MESSAGES.idempotencyInterrupted);
    expect(await balance(customer.mobileno)).toBe(9);
  });
});

describe('POST /api/customers/generate-statement', () => {
  const S = { mobileno: '9800000200', custname: 'Statement Customer' };
  const mrn: Record<string, number> = {};
  const named = (name: string) => async () => {
    mrn[name] = (await lastEntry()).mrn;
  };

  beforeAll(async () => {
    const customer = await newCustomer(S.mobileno, S.custname);
    expect((await credit(S.mobileno, 100, '2025-01-10', 'First purchase')).statusCode).toBe(200);
    await named('jan10')();
    expect((await credit(S.mobileno, 50, '2025-02-20')).statusCode).toBe(200);
    await named('feb20')();
    // Entered later, dated earlier: the statement orders by date first.
    expect((await debit(S.mobileno, 30, '2025-02-05', 'Redeemed')).statusCode).toBe(200);
    await named('feb05')();
    // A row from a sale (not editable), with a sale amount in paise.
    const [sale] = await ctx.sql<{ mrn: number }>(
      `INSERT INTO points_entries (customer_id, invdate, narration, sale_amount_paise, credit, ts)
       VALUES ($1, '2025-02-20', 'Invoice 4411', 123456, 12, 'S') RETURNING mrn`,
      [customer.id],
    );
    await ctx.sql(`UPDATE points_accounts SET balance = balance + 12 WHERE customer_id = $1`, [
      customer.id,
    ]);
    // Every credit is a points lot.
    await ctx.sql(
      `INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
       VALUES ($1, $2, '2025-02-20', '2027-02-20', 12, 12)`,
      [customer.id, sale!.mrn],
    );
    mrn.sale = sale!.mrn;
    expect((await debit(S.mobileno, 20, '2025-03-15')).statusCode).toBe(200);
    await named('mar15debit')();
    expect((await credit(S.mobileno, 10, '2025-03-15')).statusCode).toBe(200);
    await named('mar15credit')();
    expect(await balance(S.mobileno)).toBe(122);
  });

  const opening = (RCREDIT: number, RDEBIT: number): StatementRow => ({
    MRN: 0,
    INVDATE: null,
    NARRATION: 'Opening Balance',
    SALEAMT: 0,
    RCREDIT,
    RDEBIT,
    TS: 'O',
    CUSTNAME: S.custname,
    MOBILENO: S.mobileno,
    CASHCR: RDEBIT > 0 ? 'DB' : 'CR',
  });

  it('returns the rows of the range with every field of the spec', async () => {
    const rows = await rowsOf(S.mobileno, '2025-01-01', '2025-01-31');
    expect(rows).toEqual([
      {
        MRN: mrn.jan10,
        INVDATE: '2025-01-10',
        NARRATION: 'First purchase',
        SALEAMT: 0,
        RCREDIT: 100,
        RDEBIT: 0,
        TS: 'M',
        CUSTNAME: S.custname,
        MOBILENO: S.mobileno,
        CASHCR: 'CR',
      },
    ]);
  });

  it('has no rows and no opening line for a range before all entries', async () => {
    const response = await statement(S.mobileno, '2024-12-01', '2024-12-31');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: [] });
  });

  it('has no opening line when the range starts on the first entry date', async () => {
    expect((await rowsOf(S.mobileno, '2025-01-10', '2025-01-10')).map((r) => r.MRN)).toEqual([
      mrn.jan10,
    ]);
  });

  it('opens a range between entries with the net of everything before it', async () => {
    const rows = await rowsOf(S.mobileno, '2025-02-10', '2025-03-01');
    expect(rows[0]).toEqual(opening(70, 0));
    expect(
      rows.slice(1).map((r) => [r.MRN, r.INVDATE, r.RCREDIT, r.RDEBIT, r.TS, r.SALEAMT]),
    ).toEqual([
      [mrn.feb20, '2025-02-20', 50, 0, 'M', 0],
      [mrn.sale, '2025-02-20', 12, 0, 'S', 1234.56],
    ]);
    expect(statementTotals(rows)).toEqual({
      total: { sale: 1234.56, credit: 132, debit: 0 },
      balance: { credit: 132, debit: 0 },
    });
  });

  it('orders rows by INVDATE, then MRN, and its Balance is the closing position', async () => {
    const rows = await rowsOf(S.mobileno, '2025-02-01', '2025-03-31');
    expect(rows.map((r) => r.MRN)).toEqual([
      0,
      mrn.feb05,
      mrn.feb20,
      mrn.sale,
      mrn.mar15debit,
      mrn.mar15credit,
    ]);
    expect(rows[0]).toEqual(opening(100, 0));
    expect(rows[1]).toMatchObject({ NARRATION: 'Redeemed', RDEBIT: 30, CASHCR: 'DB' });
    const { total, balance: closing } = statementTotals(rows);
    expect(total).toMatchObject({ credit: 172, debit: 50 });
    expect(closing).toEqual({ credit: 122, debit: 0 });
    expect(closing.credit).toBe(await balance(S.mobileno));
  });

  it('includes entries dated on DTO', async () => {
    const rows = await rowsOf(S.mobileno, '2025-03-15', '2025-03-15');
    expect(rows.map((r) => r.MRN)).toEqual([0, mrn.mar15debit, mrn.mar15credit]);
    expect(rows[0]).toEqual(opening(132, 0));
    expect(statementTotals(rows).balance).toEqual({ credit: 122, debit: 0 });
  });

  it('is only the opening line, holding the whole balance, for a range after all entries', async () => {
    expect(await rowsOf(S.mobileno, '2025-04-01', '2025-06-15')).toEqual([opening(122, 0)]);
  });

  it('shows an opening balance in debit and the Balance in Debit when debits lead', async () => {
    const D = await newCustomer('9800000201', 'Backdated Debit');
    await credit(D.mobileno, 100, '2025-03-01');
    // Entered after the credit but dated before it: allowed, the balance was 100.
    expect((await debit(D.mobileno, 30, '2025-02-01')).statusCode).toBe(200);
    const rows = await rowsOf(D.mobileno, '2025-02-15', '2025-02-28');
    expect(rows).toEqual([
      { ...opening(0, 30), CUSTNAME: D.custname, MOBILENO: D.mobileno, CASHCR: 'DB' },
    ]);
    expect(statementTotals(rows).balance).toEqual({ credit: 0, debit: 30 });
    const all = await rowsOf(D.mobileno, '2025-01-01', '2025-06-15');
    expect(all.map((r) => [r.INVDATE, r.RCREDIT, r.RDEBIT])).toEqual([
      ['2025-02-01', 0, 30],
      ['2025-03-01', 100, 0],
    ]);
    expect(statementTotals(all).balance).toEqual({ credit: 70, debit: 0 });
  });

  it('shows an opening line of 0 when earlier entries cancel out', async () => {
    const E = await newCustomer('9800000202', 'Even Customer');
    await credit(E.mobileno, 40, '2025-01-05');
    await debit(E.mobileno, 40, '2025-01-06');
    const rows = await rowsOf(E.mobileno, '2025-02-01', '2025-06-15');
    expect(rows).toEqual([{ ...opening(0, 0), CUSTNAME: E.custname, MOBILENO: E.mobileno }]);
    expect(statementTotals(rows).balance).toEqual({ credit: 0, debit: 0 });
  });

  it('has no rows for a customer without entries', async () => {
    const empty = await newCustomer('9800000203');
    expect(await rowsOf(empty.mobileno, '2025-04-01', '2025-06-15')).toEqual([]);
  });

  it('refuses DFROM after DTO, impossible dates and unknown customers', async () => {
    const reversed = await statement(S.mobileno, '2025-03-02', '2025-03-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toEqual({
      success: false,
      message: 'Date from must not be after Date to.',
    });
    const impossible = await statement(S.mobileno, '2025-02-30', '2025-03-01');
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json().message).toBe('Date from must be a real date in YYYY-MM-DD format.');
    const unknown = await statement('9899999999', '2025-01-01', '2025-03-01');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: MESSAGES.customerNotFound });
    const badMobile = await statement('98', '2025-01-01', '2025-03-01');
    expect(badMobile.statusCode).toBe(400);
    expect(badMobile.json().message).toBe(MESSAGES.mobileLength);
  });

  describe('POST /api/customers/update-statement', () => {
    it('refuses to edit a row that was not entered by hand (409), changing nothing', async () => {
      const before = await snapshot();
      const response = await updateStatement({
        MRN: mrn.sale,
        MOBILENO: S.mobileno,
        POINTS: '12',
        INVDATE: '2025-02-20',
        CASHCR: 'CR',
        NARRATION: 'Invoice 4411',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ success: false, message: MESSAGES.onlyManualEntries });
      expect(await snapshot()).toEqual(before);
    });
  });
});

describe('POST /api/customers/update-statement', () => {
  const form = (row: StatementRow, changes: Form = {}) => ({
    MRN: row.MRN,
    CUSTNAME: row.CUSTNAME,
    MOBILENO: row.MOBILENO,
    POINTS: String(row.RCREDIT + row.RDEBIT),
    NARRATION: row.NARRATION,
    INVDATE: row.INVDATE,
    CASHCR: row.CASHCR,
    ...changes,
  });

  it('allocate 100, deduct 30, edit the deduction to 40: Balance 70 -> 60, with history and audit', async () => {
    const F = await newCustomer('9800000300', 'Flow Customer');
    await credit(F.mobileno, 100, '2025-06-01');
    await debit(F.mobileno, 30, '2025-06-02');
    let rows = await rowsOf(F.mobileno, '2025-04-01', '2025-06-15');
    expect(statementTotals(rows)).toEqual({
      total: { sale: 0, credit: 100, debit: 30 },
      balance: { credit: 70, debit: 0 },
    });
    const deduction = rows[1]!;
    const response = await updateStatement(form(deduction, { POINTS: '40' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: MESSAGES.statementUpdated });
    expect(await balance(F.mobileno)).toBe(60);
    rows = await rowsOf(F.mobileno, '2025-04-01', '2025-06-15');
    expect(rows.map((r) => r.MRN)).toEqual([rows[0]!.MRN, deduction.MRN]);
    expect(rows[1]).toMatchObject({
      RDEBIT: 40,
      RCREDIT: 0,
      NARRATION: 'Points deducted',
      TS: 'M',
    });
    expect(statementTotals(rows).balance).toEqual({ credit: 60, debit: 0 });

    const history = await ctx.sql<{
      before: Record<string, unknown>;
      after: Record<string, unknown>;
      changed_by: number;
    }>(`SELECT before, after, changed_by FROM points_entry_history WHERE mrn = $1`, [
      deduction.MRN,
    ]);
    expect(history).toHaveLength(1);
    expect(history[0]!.changed_by).toBe(staffId);
    expect(history[0]!.before).toMatchObject({
      mrn: deduction.MRN,
      customerId: F.id,
      debit: 30,
      credit: 0,
    });
    expect(history[0]!.after).toMatchObject({
      mrn: deduction.MRN,
      customerId: F.id,
      debit: 40,
      credit: 0,
      updatedBy: staffId,
    });
    const audits = await ctx.sql(
      `SELECT user_id, detail FROM audit_log WHERE action = 'points.edit' AND entity_id = $1`,
      [String(deduction.MRN)],
    );
    expect(audits).toEqual([
      {
        user_id: staffId,
        detail: {
          before: expect.objectContaining({ customerId: F.id, points: -30 }),
          after: expect.objectContaining({ customerId: F.id, points: -40 }),
        },
      },
    ]);
    expect(
      await ctx.sql(`SELECT updated_by FROM points_entries WHERE mrn = $1`, [deduction.MRN]),
    ).toEqual([{ updated_by: staffId }]);
  });

  it('edits the date, narration and side of an entry', async () => {
    const customer = await newCustomer('9800000301');
    await credit(customer.mobileno, 50, '2025-06-01');
    await credit(customer.mobileno, 20, '2025-06-03', 'Spare');
    const [, spare] = await rowsOf(customer.mobileno, '2025-06-01', '2025-06-15');
    // The credit of 20 becomes a deduction of 5 dated earlier: 70 -> 45.
    const response = await updateStatement(
      form(spare!, { CASHCR: 'DB', POINTS: '5', INVDATE: '2025-05-20', NARRATION: '' }),
    );
    expect(response.statusCode).toBe(200);
    expect(await balance(customer.mobileno)).toBe(45);
    const rows = await rowsOf(customer.mobileno, '2025-05-01', '2025-06-15');
    expect(rows[0]).toMatchObject({
      MRN: spare!.MRN,
      INVDATE: '2025-05-20',
      RDEBIT: 5,
      NARRATION: 'Points deducted',
      CASHCR: 'DB',
    });
  });

  describe('moving entries between customers', () => {
    let G: Awaited<ReturnType<typeof newCustomer>>;
    let H: Awaited<ReturnType<typeof newCustomer>>;
    let movable: StatementRow;
    let big: StatementRow;
    let spent: StatementRow;

    beforeAll(async () => {
      G = await newCustomer('9800000400', 'Giver');
      H = await newCustomer('9800000401', 'Holder');
      await credit(G.mobileno, 50, '2025-06-01', 'Movable');
      await credit(G.mobileno, 80, '2025-06-02', 'Big');
      await debit(G.mobileno, 60, '2025-06-03', 'Spent');
      [movable, big, spent] = (await rowsOf(G.mobileno, '2025-06-01', '2025-06-15')) as [
        StatementRow,
        StatementRow,
        StatementRow,
      ];
      expect(await balance(G.mobileno)).toBe(70);
    });

    it('keeps both balances right when a credit moves to another customer', async () => {
      const response = await updateStatement(
        form(movable, { MOBILENO: H.mobileno, CUSTNAME: H.custname }),
      );
      expect(response.statusCode).toBe(200);
      expect(await balance(G.mobileno)).toBe(20);
      expect(await balance(H.mobileno)).toBe(50);
      expect(
        (await rowsOf(H.mobileno, '2025-06-01', '2025-06-15')).map((r) => [r.MRN, r.CUSTNAME]),
      ).toEqual([[movable.MRN, H.custname]]);
      expect((await rowsOf(G.mobileno, '2025-06-01', '2025-06-15')).map((r) => r.MRN)).toEqual([
        big.MRN,
        spent.MRN,
      ]);
      const [history] = await ctx.sql<{
        before: { customerId: number };
        after: { customerId: number };
      }>(`SELECT before, after FROM points_entry_history WHERE mrn = $1`, [movable.MRN]);
      expect([history!.before.customerId, history!.after.customerId]).toEqual([G.id, H.id]);
      expect(await balancesDisagreeing()).toEqual([]);
    });

    it('refuses a move that would leave the old customer below zero, changing nothing', async () => {
      const before = await snapshot();
      const response = await updateStatement(form(big, { MOBILENO: H.mobileno }));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        message: MESSAGES.balanceWouldGoNegative(true),
      });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses lowering a credit that has been spent, changing nothing', async () => {
      const before = await snapshot();
      const response = await updateStatement(form(big, { POINTS: '50' }));
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(MESSAGES.balanceWouldGoNegative(false));
      expect(await snapshot()).toEqual(before);
    });

    it('refuses raising a deduction beyond what is available without it', async () => {
      const before = await snapshot();
      // G: 80 - 60 = 20; without the deduction 80 is available.
      const response = await updateStatement(form(spent, { POINTS: '81' }));
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('Insufficient points. Available balance: 80.');
      expect(await snapshot()).toEqual(before);
      expect((await updateStatement(form(spent, { POINTS: '80' }))).statusCode).toBe(200);
      expect(await balance(G.mobileno)).toBe(0);
      expect((await updateStatement(form(spent, { POINTS: '60' }))).statusCode).toBe(200);
      expect(await balance(G.mobileno)).toBe(20);
    });

    it('refuses moving a deduction to a customer who cannot cover it', async () => {
      const before = await snapshot();
      // H holds 50; the deduction is 60.
      const response = await updateStatement(form(spent, { MOBILENO: H.mobileno }));
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('Insufficient points. Available balance: 50.');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses turning a spent credit into a deduction, saying which balance would go below zero', async () => {
      const before = await snapshot();
      const response = await updateStatement(form(big, { CASHCR: 'DB', POINTS: '10' }));
      // G holds 20 only thanks to this credit of 80: without it G would be at -60.
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(MESSAGES.balanceWouldGoNegative(false));
      expect(await snapshot()).toEqual(before);
    });

    it('moves a deduction to a customer who can cover it', async () => {
      await credit(H.mobileno, 10, '2025-06-04'); // H: 60
      const response = await updateStatement(form(spent, { MOBILENO: H.mobileno }));
      expect(response.statusCode).toBe(200);
      expect(await balance(G.mobileno)).toBe(80);
      expect(await balance(H.mobileno)).toBe(0);
      expect(await balancesDisagreeing()).toEqual([]);
    });
  });

  it('refuses unknown entries, unknown customers and bad input, changing nothing', async () => {
    const customer = await newCustomer('9800000500');
    await credit(customer.mobileno, 10, '2025-06-01');
    const [row] = await rowsOf(customer.mobileno, '2025-06-01', '2025-06-15');
    const cases: [Form, number, string][] = [
      [form(row!, { MRN: 987654321 }), 404, MESSAGES.entryNotFound],
      [form(row!, { MOBILENO: '9899999999' }), 404, MESSAGES.customerNotFound],
      [
        form(row!, { MRN: 0 }),
        400,
        'The entry to change is not valid: open it again from the statement.',
      ],
      [
        form(row!, { MRN: 'abc' }),
        400,
        'The entry to change is not valid: open it again from the statement.',
      ],
      [
        form(row!, { MRN: undefined }),
        400,
        'The entry to change is not valid: open it again from the statement.',
      ],
      [form(row!, { INVDATE: '2025-06-16' }), 400, MESSAGES.entryDateInFuture],
      [
        form(row!, { INVDATE: '2025-02-30' }),
        400,
        'Date must be a real date in YYYY-MM-DD format.',
      ],
      [form(row!, { POINTS: '0' }), 400, pointsRule],
      [
        form(row!, { CASHCR: 'XX' }),
        400,
        'Choose Points Allocation (credit) or Points Deduction (debit).',
      ],
    ];
    for (const [formData, status, message] of cases) {
      const before = await snapshot();
      const response = await updateStatement(formData);
      expect(response.statusCode, JSON.stringify(formData)).toBe(status);
      expect(response.json()).toEqual({ success: false, message });
      expect(await snapshot()).toEqual(before);
    }
  });

  it('refuses an MRN beyond any entry number without a server error', async () => {
    const customer = await newCustomer('9800000501');
    const response = await updateStatement({
      MRN: '99999999999999999999',
      MOBILENO: customer.mobileno,
      POINTS: '1',
      INVDATE: '2025-06-01',
      CASHCR: 'CR',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      message: 'The entry to change is not valid: open it again from the statement.',
    });
  });

  it('does the edit once for one Idempotency-Key, and needs a token', async () => {
    const customer = await newCustomer('9800000502');
    await credit(customer.mobileno, 10, '2025-06-01');
    const [row] = await rowsOf(customer.mobileno, '2025-06-01', '2025-06-15');
    const key = randomUUID();
    const first = await updateStatement(form(row!, { POINTS: '15' }), key);
    const second = await updateStatement(form(row!, { POINTS: '15' }), key);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(
      await ctx.sql(`SELECT id FROM points_entry_history WHERE mrn = $1`, [row!.MRN]),
    ).toHaveLength(1);
    expect(await balance(customer.mobileno)).toBe(15);

    const before = await snapshot();
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/customers/update-statement',
      headers: { 'idempotency-key': randomUUID() },
      payload: { formData: form(row!, { POINTS: '99' }) },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });
});

describe('random credits, debits and edits', () => {
  /** mulberry32: a small seeded generator, so a failure can be replayed. */
  function generator(seed: number) {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('keeps every customer balance equal to the model and to SUM(credit - debit)', async () => {
    const random = generator(20250615);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const amount = () => 1 + Math.floor(random() * 60);
    const date = () =>
      `2025-0${1 + Math.floor(random() * 5)}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;

    const people = await Promise.all(
      ['9800000600', '9800000601', '9800000602', '9800000603'].map((m) => newCustomer(m)),
    );
    const balances = new Map(people.map((p) => [p.mobileno, 0]));
    const entries = new Map<number, { mobileno: string; points: number }>();
    let refused = 0;

    for (let step = 0; step < 150; step++) {
      const roll = random();
      if (roll < 0.7 || entries.size === 0) {
        const customer = pick(people).mobileno;
        const side = roll < 0.4 ? 'CR' : 'DB';
        const points = amount();
        const signed = side === 'CR' ? points : -points;
        const allowed = balances.get(customer)! + signed >= 0;
        const response = await updatePoints({
          MOBILENO: customer,
          POINTS: String(points),
          INVDATE: date(),
          CASHCR: side,
        });
        expect(response.statusCode, `step ${step}`).toBe(allowed ? 200 : 409);
        if (allowed) {
          balances.set(customer, balances.get(customer)! + signed);
          entries.set((await lastEntry()).mrn, { mobileno: customer, points: signed });
        } else refused++;
      } else {
        const mrn = pick([...entries.keys()]);
        const old = entries.get(mrn)!;
        const target = random() < 0.3 ? pick(people).mobileno : old.mobileno;
        const side = random() < 0.5 ? 'CR' : 'DB';
        const points = amount();
        const signed = side === 'CR' ? points : -points;
        const next = new Map(balances);
        next.set(old.mobileno, next.get(old.mobileno)! - old.points);
        next.set(target, next.get(target)! + signed);
        const allowed = [...next.values()].every((b) => b >= 0);
        const response = await updateStatement({
          MRN: mrn,
          MOBILENO: target,
          POINTS: points,
          INVDATE: date(),
          CASHCR: side,
        });
        expect(response.statusCode, `step ${step}: ${response.body}`).toBe(allowed ? 200 : 409);
        if (allowed) {
          balances.clear();
          for (const [k, v] of next) balances.set(k, v);
          entries.set(mrn, { mobileno: target, points: signed });
        } else {
          refused++;
          expect(response.json().message).not.toMatch(/-\d/);
        }
      }
    }

    expect(refused).toBeGreaterThan(5);
    expect(await balancesDisagreeing()).toEqual([]);
    for (const person of people) {
      expect(await balance(person.mobileno)).toBe(balances.get(person.mobileno));
      const rows = await rowsOf(person.mobileno, '2025-01-01', '2025-06-15');
      const { balance: closing } = statementTotals(rows);
      expect(closing.credit - closing.debit).toBe(balances.get(person.mobileno));
      // Any split of the range gives the same closing position through the opening line.
      const split = await rowsOf(person.mobileno, '2025-03-10', '2025-06-15');
      const splitClosing = statementTotals(split).balance;
      expect(splitClosing.credit - splitClosing.debit).toBe(balances.get(person.mobileno));
    }
  });
});

describe('GET /api/customers/get-fyear', () => {
  const fyear = () => ctx.inject({ method: 'GET', url: '/api/customers/get-fyear' });
  afterAll(() => {
    now = NOON_15_JUNE;
  });

  it.each([
    ['2026-03-31T20:00:00+05:30', '2025-04-01'],
    ['2026-03-31T23:59:59+05:30', '2025-04-01'],
    // Still 31 March in UTC, already 1 April in Kolkata.
    ['2026-04-01T00:30:00+05:30', '2026-04-01'],
    ['2026-04-01T10:00:00+05:30', '2026-04-01'],
    ['2026-01-15T10:00:00+05:30', '2025-04-01'],
    ['2025-12-31T23:00:00+05:30', '2025-04-01'],
  ])('at %s the financial year starts %s', async (instant, sfdate) => {
    now = new Date(instant);
    const response = await fyear();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { sfdate } });
  });

  it('needs a token', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/customers/get-fyear' });
    expect(response.statusCode).toBe(401);
  });
});
