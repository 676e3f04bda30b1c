import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@kanak/contract';
import { movableClock, signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * A customer may pay next month's installment early. The counter asks for it with
 * `advance: true`; it is recorded for the month after the payment date's month, once that month
 * is paid, and never a second time for any month, nor past the term.
 */
const TODAY = '2026-11-26';
let cashier: SignedIn;
/**
 * The day the cashier enters a payment: the day it is dated, as at a counter (a cashier may
 * date one only a few days back). The advances themselves are asked for on TODAY.
 */
const clock = movableClock(TODAY);

beforeAll(async () => {
  cashier = await signedIn('cashier', {
    env: { INSTALLMENTS: '11' },
    clock: clock.now,
  });
});
afterAll(() => cashier?.close());

let nextMobile = 0;
/** An Active scheme started (and first paid) on `startdt`. */
async function activeScheme(startdt: string) {
  nextMobile++;
  const mobileno = `97${String(nextMobile).padStart(8, '0')}`;
  clock.set(startdt);
  const [customer] = await cashier.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
    [mobileno, `Advance ${nextMobile}`],
  );
  const started = await cashier.post('/api/scheme/generate', {
    custid: customer!.id,
    mobileno,
    custname: `Advance ${nextMobile}`,
    startdt,
    amount: 2000,
  });
  expect(started.statusCode, started.body).toBe(200);
  const schemeid = started.json().data.schemeid as number;
  const activated = await cashier.post('/api/scheme/activate', {
    schemeid,
    date: startdt,
    mode: 'upi',
  });
  expect(activated.statusCode, activated.body).toBe(200);
  return schemeid;
}

const add = (schemeid: number, date: string, extra: Record<string, unknown> = {}) => {
  clock.set(date);
  return cashier.post('/api/scheme/add-installment', { schemeid, date, mode: 'upi', ...extra });
};

const refused = (response: LightMyRequestResponse, status: number, message: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toMatchObject({ success: false, message });
};

const months = async (schemeid: number) =>
  (
    await cashier.sql<{ period: string }>(
      `SELECT period FROM scheme_installments WHERE scheme_id = $1 ORDER BY period`,
      [schemeid],
    )
  ).map((row) => row.period);

const receiptCount = async () =>
  Number((await cashier.sql<{ n: string }>(`SELECT count(*) AS n FROM scheme_installments`))[0]!.n);

describe('an installment taken in advance', () => {
  it('is recorded for the next month once this month is paid, with its own receipt', async () => {
    const schemeid = await activeScheme('2026-10-05');
    await add(schemeid, '2026-11-03');
    const response = await add(schemeid, TODAY, { advance: true });
    expect(response.statusCode, response.body).toBe(200);
    // Its receipt names the month it is for and what the three installments come to.
    expect(response.json().data).toMatchObject({
      date: TODAY,
      installmentNo: 3,
      forMonth: '2026-12',
      paidSoFar: 6000,
    });
    expect(await months(schemeid)).toEqual(['2026-10', '2026-11', '2026-12']);

    const statement = await cashier.post('/api/scheme/generate-statement', { schemeid });
    const rows = statement.json().data as { narration: string; period: string }[];
    expect(rows.map((row) => row.period)).toEqual(['2026-10', '2026-11', '2026-12']);
    expect(rows[2]!.narration).toContain('In advance for 12-2026');
    expect(rows[1]!.narration).not.toContain('In advance');
  });

  it('is refused a second time: only the next month may be paid ahead', async () => {
    const schemeid = await activeScheme('2026-10-05');
    await add(schemeid, '2026-11-03');
    expect((await add(schemeid, TODAY, { advance: true })).statusCode).toBe(200);
    const before = await receiptCount();
    refused(
      await add(schemeid, TODAY, { advance: true }),
      409,
      MESSAGES.advanceAlreadyTaken('12-2026'),
    );
    expect(await receiptCount()).toBe(before);
    expect(await months(schemeid)).toEqual(['2026-10', '2026-11', '2026-12']);
  });

  it('never makes two installments for one month, with or without advance', async () => {
    const schemeid = await activeScheme('2026-10-05');
    await add(schemeid, '2026-11-03');
    refused(await add(schemeid, TODAY), 409, MESSAGES.installmentMonthTaken('11-2026'));
    // October's advance would be November's, already paid.
    refused(
      await add(schemeid, '2026-10-20', { advance: true }),
      409,
      MESSAGES.advanceAlreadyTaken('11-2026'),
    );
    expect(await months(schemeid)).toEqual(['2026-10', '2026-11']);
  });

  it('asked twice at once: one receipt, the other refused', async () => {
    const schemeid = await activeScheme('2026-10-05');
    await add(schemeid, '2026-11-03');
    const before = await receiptCount();
    const answers = await Promise.all([
      add(schemeid, TODAY, { advance: true }),
      add(schemeid, TODAY, { advance: true, mode: 'card' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const [lost] = answers.filter((answer) => answer.statusCode === 409);
    expect(lost!.json()).toMatchObject({ success: false });
    expect(await receiptCount()).toBe(before + 1);
    expect(await months(schemeid)).toEqual(['2026-10', '2026-11', '2026-12']);
  });

  it('is refused while this month is still unpaid: that one is taken first', async () => {
    const schemeid = await activeScheme('2026-10-05');
    refused(
      await add(schemeid, TODAY, { advance: true }),
      409,
      MESSAGES.advanceBeforeThisMonth('11-2026'),
    );
    expect(await months(schemeid)).toEqual(['2026-10']);
  });

  it('is refused when the next month falls past the maturity date', async () => {
    // Started 01-12-2025: matures 30-11-2026, so December 2026 is outside the term.
    const schemeid = await activeScheme('2025-12-01');
    await add(schemeid, '2026-11-02');
    refused(
      await add(schemeid, TODAY, { advance: true }),
      409,
      MESSAGES.advancePastTerm('12-2026', '30-11-2026'),
    );
    expect(await months(schemeid)).toEqual(['2025-12', '2026-11']);
  });

  it('keeps the receipt numbers gapless across refused advances', async () => {
    const schemeid = await activeScheme('2026-09-05');
    await add(schemeid, '2026-10-05');
    await add(schemeid, TODAY, { advance: true }); // refused: November unpaid
    await add(schemeid, '2026-11-05');
    await add(schemeid, TODAY, { advance: true });
    const numbers = (
      await cashier.sql<{ receipt_no: number }>(
        `SELECT receipt_no FROM scheme_installments ORDER BY receipt_no`,
      )
    ).map((row) => Number(row.receipt_no));
    expect(numbers).toEqual(numbers.map((_n, i) => i + 1));
  });

  it('keeps the cash limit for advances too', async () => {
    const schemeid = await activeScheme('2026-10-05');
    await cashier.sql(`UPDATE schemes SET amount = 100000 WHERE id = $1`, [schemeid]);
    expect((await add(schemeid, '2026-11-03', { mode: 'cash' })).statusCode).toBe(200);
    const response = await add(schemeid, TODAY, { advance: true, mode: 'cash' });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toContain('269ST');
  });

  it('refuses an advance that is not true or false, saving nothing', async () => {
    const schemeid = await activeScheme('2026-10-05');
    await add(schemeid, '2026-11-03');
    const response = await add(schemeid, TODAY, { advance: 'yes' });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain('Paying in advance must be yes or no.');
    expect(await months(schemeid)).toEqual(['2026-10', '2026-11']);
  });
});
