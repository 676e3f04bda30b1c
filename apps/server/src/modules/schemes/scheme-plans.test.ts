import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, milligramsFor, valueOfMilligrams } from '@kanak/contract';
import { movableClock, signedIn, type SignedIn } from '../../../test/helpers.js';

const clock = movableClock('2026-01-05');

const GSTIN = '27AAACK1234A1Z5';
let ctx: SignedIn;

beforeAll(async () => {
  ctx = await signedIn('owner', {
    env: { INSTALLMENTS: '11', BONUS_PERCENT: '100', COMPANY_GSTIN: GSTIN },
    clock: clock.now,
  });
});
afterAll(() => ctx.close());

const plan = (overrides: Record<string, unknown> = {}) => ({
  code: 'gold',
  name: 'Gold savings',
  kind: 'weight',
  installments: 3,
  minAmount: 1000,
  bonusPercent: 50,
  graceDays: 7,
  ...overrides,
});
const savePlan = (body: object) => ctx.post('/api/scheme-plans', body);
const plans = async () =>
  (await ctx.inject({ method: 'GET', url: '/api/scheme-plans' })).json().data as {
    code: string;
  }[];
const scheme = (path: string, payload: object) => ctx.post(`/api/scheme/${path}`, payload);
/** The day's 22K rate in paise a gram (24K is not used by schemes). */
const rateOn = (date: string, paise: number) =>
  ctx.sql(`INSERT INTO gold_rates (rate_date, rate22k_paise, rate24k_paise) VALUES ($1, $2, $2)`, [
    date,
    paise,
  ]);

async function newCustomer(mobileno: string) {
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, 'Meera') RETURNING id`,
    [mobileno],
  );
  return { custid: row!.id, mobileno, custname: 'Meera' };
}

describe('gold by weight', () => {
  it('buys whole milligrams, and values them in whole rupees, at any rate as exact integers do', () => {
    // Random amounts and rates across their whole ranges, checked against BigInt division.
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return 1 + (seed % below);
    };
    const wrong: [number, number][] = [];
    for (let i = 0; i < 200_000; i++) {
      const rupees = next(10_000_000);
      const ratePaise = next(100_000_000);
      const mg = milligramsFor(rupees, ratePaise);
      const exact =
        BigInt(mg) === (BigInt(rupees) * 100_000n) / BigInt(ratePaise) &&
        BigInt(valueOfMilligrams(mg, ratePaise)) === (BigInt(mg) * BigInt(ratePaise)) / 100_000n;
      if (!exact) wrong.push([rupees, ratePaise]);
    }
    expect(wrong).toEqual([]);
  });
});

describe('scheme plans', () => {
  it('lists STD with the configured terms, and refuses bad plans and STD itself', async () => {
    expect(await plans()).toEqual([
      expect.objectContaining({ code: 'STD', kind: 'value', installments: 11, bonusPercent: 100 }),
    ]);
    const tooMany = await savePlan(plan({ installments: 12 }));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toContain('Installments must be a whole number from 1 to 11.');
    const badKind = await savePlan(plan({ kind: 'silver' }));
    expect(badKind.statusCode).toBe(400);
    // The same new plan saved twice at once: one adds it, the other finds it.
    const twice = await Promise.all([
      savePlan(plan({ code: 'TWIN' })),
      savePlan(plan({ code: 'TWIN' })),
    ]);
    expect(twice.map((answer) => answer.statusCode)).toEqual([200, 200]);
    await ctx.sql(`DELETE FROM scheme_plans WHERE code = 'TWIN'`);
    const std = await savePlan(plan({ code: 'STD', kind: 'value' }));
    expect(std.statusCode).toBe(409);
    expect(std.json().message).toBe(MESSAGES.schemePlanStdFixed);
    expect(await plans()).toHaveLength(1);
  });

  it('runs a weight scheme from start to close, to the milligram, with a late installment', async () => {
    const added = await savePlan(plan());
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data).toMatchObject({ code: 'GOLD', graceDays: 7, redeemWithinDays: 60 });
    const customer = await newCustomer('9811100001');

    const unknown = await scheme('generate', {
      ...customer,
      startdt: '2026-01-05',
      amount: 3000,
      plan: 'NOPE',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(MESSAGES.schemePlanNotFound('NOPE'));
    const small = await scheme('generate', {
      ...customer,
      startdt: '2026-01-05',
      amount: 999,
      plan: 'gold',
    });
    expect(small.statusCode).toBe(400);
    const started = await scheme('generate', {
      ...customer,
      startdt: '2026-01-05',
      amount: 3000,
      plan: 'gold',
    });
    expect(started.statusCode, started.body).toBe(200);
    const { schemeid } = started.json().data as { schemeid: number };

    // No rate for the day: nothing is recorded.
    const pay = (date: string) => ({ schemeid, date, mode: 'upi', reference: 'UTR1' });
    const noRate = await scheme('activate', pay('2026-01-05'));
    expect(noRate.statusCode).toBe(409);
    expect(noRate.json().message).toBe("Enter today's gold rate first.");
    expect(
      await ctx.sql(`SELECT 1 FROM scheme_installments WHERE scheme_id = $1`, [schemeid]),
    ).toEqual([]);

    // ₹3,000 at ₹6,543.21 a gram: 0.45849… g, 458 mg.
    await rateOn('2026-01-05', 654_321);
    const first = await scheme('activate', pay('2026-01-05'));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ rate22k: 6543.21, mg: 458, gstin: GSTIN });
    // A receipt printed again from the statement takes the shop's GSTIN from its branding.
    const branding = await ctx.app.inject({ method: 'GET', url: '/api/app/branding' });
    expect(branding.json().data).toMatchObject({ gstin: GSTIN });

    // A plan in use keeps its terms; its name may change.
    const edit = await savePlan(plan({ bonusPercent: 60 }));
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe(MESSAGES.schemePlanInUse('GOLD', 1));
    expect((await savePlan(plan({ name: 'Swarna' }))).json().data).toMatchObject({
      name: 'Swarna',
      bonusPercent: 50,
      schemes: 1,
    });

    // Due 5 February: the 12th is the last day of grace. ₹7,000.00 a gram: 428 mg.
    clock.set('2026-02-12');
    await rateOn('2026-02-12', 700_000);
    expect((await scheme('add-installment', pay('2026-02-12'))).json().data.mg).toBe(428);
    // Due 5 March, paid the 13th: late. ₹7,777.77 a gram: 385.71… mg, 385.
    clock.set('2026-03-13');
    await rateOn('2026-03-13', 777_777);
    expect((await scheme('add-installment', pay('2026-03-13'))).json().data.mg).toBe(385);

    clock.set('2026-03-20');
    // The gold the shop owes, by plan, and the maturing report's grams.
    const dashboard = await ctx.inject({ method: 'GET', url: '/api/dashboard' });
    expect(dashboard.json().data.schemes.goldHeld).toEqual([
      { plan: 'GOLD', name: 'Swarna', mg: 1271 },
    ]);
    const maturing = await ctx.post('/api/reports/maturing', {});
    expect(maturing.statusCode, maturing.body).toBe(200);
    expect(maturing.json().data).toEqual([expect.objectContaining({ schemeid, mg: 1271 })]);
    const closeNoRate = await scheme('close', { schemeid });
    expect(closeNoRate.statusCode).toBe(409);
    expect(closeNoRate.json().message).toBe(MESSAGES.goldRateMissing);
    expect((await scheme('close-preview', { schemeid })).json().message).toBe(
      MESSAGES.goldRateMissing,
    );
    await rateOn('2026-03-20', 800_000);
    // Bonus: 50% of ₹3,000 × 2 on time / 3 = ₹1,000, 125 mg at ₹8,000; 1,271 + 125 mg = ₹11,168.
    const figures = {
      bonus: 1000,
      maturityValue: 11_168,
      paid: 3,
      onTime: 2,
      mg: 1271,
      bonusMg: 125,
      rate22k: 8000,
      // Matures 4 April; 60 days to redeem.
      redeemBy: '2026-06-03',
      bonusLapsed: false,
    };
    // The confirmation's figures are closing's own, and reading them changes nothing.
    const audited = await ctx.sql('SELECT id FROM audit_log');
    const preview = await scheme('close-preview', { schemeid });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toEqual(figures);
    expect(await ctx.sql('SELECT id FROM audit_log')).toEqual(audited);
    expect((await scheme('generate-statement', { schemeid })).json().scheme).toMatchObject({
      matyn: 'a',
    });
    const closed = await scheme('close', { schemeid });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toEqual(figures);
    const again = await scheme('close-preview', { schemeid });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MESSAGES.onlyActiveClosable);

    const statement = (await scheme('generate-statement', { schemeid })).json();
    expect(statement.scheme).toMatchObject({
      plan: 'GOLD',
      kind: 'weight',
      mg: 1271,
      redeemBy: '2026-06-03',
    });
    expect(
      statement.data.map((row: { mg: number; rate22k: number; late?: boolean }) => [
        row.rate22k,
        row.mg,
        row.late,
      ]),
    ).toEqual([
      [6543.21, 458, false],
      [7000, 428, false],
      [7777.77, 385, true],
      [8000, 125, undefined],
    ]);
  });

  it('judges each installment by its own month: a month skipped makes no later one late', async () => {
    expect(
      (await savePlan(plan({ code: 'SAVE4', kind: 'value', installments: 4 }))).statusCode,
    ).toBe(200);
    const customer = await newCustomer('9811100003');
    clock.set('2026-01-05');
    const started = await scheme('generate', {
      ...customer,
      startdt: '2026-01-05',
      amount: 2000,
      plan: 'SAVE4',
    });
    const { schemeid } = started.json().data as { schemeid: number };
    const pay = (date: string) => ({ schemeid, date, mode: 'cash' });
    expect((await scheme('activate', pay('2026-01-05'))).statusCode).toBe(200);
    // February is never paid; March and April on their own due days.
    for (const day of ['2026-03-05', '2026-04-12']) {
      clock.set(day);
      const paid = await scheme('add-installment', pay(day));
      expect(paid.statusCode, paid.body).toBe(200);
    }
    const statement = (await scheme('generate-statement', { schemeid })).json();
    expect(statement.data.map((row: { late?: boolean }) => row.late)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("keeps a plan's bonus until its days to redeem have passed, then pays what was paid in", async () => {
    const lapsing = plan({ code: 'SHORT', kind: 'value', installments: 1, redeemWithinDays: 10 });
    expect((await savePlan(lapsing)).statusCode).toBe(200);
    clock.set('2026-01-05');
    const started = await scheme('generate', {
      ...(await newCustomer('9811100004')),
      startdt: '2026-01-05',
      amount: 2000,
      plan: 'SHORT',
    });
    const { schemeid } = started.json().data as { schemeid: number };
    expect(
      (await scheme('activate', { schemeid, date: '2026-01-05', mode: 'cash' })).statusCode,
    ).toBe(200);
    // Matures 4 February; the 14th is the last day to redeem with the bonus.
    clock.set('2026-02-14');
    expect((await scheme('close-preview', { schemeid })).json().data).toEqual({
      bonus: 1000,
      maturityValue: 3000,
      paid: 1,
      onTime: 1,
      redeemBy: '2026-02-14',
      bonusLapsed: false,
    });
    clock.set('2026-02-15');
    const lapsed = {
      bonus: 0,
      maturityValue: 2000,
      paid: 1,
      onTime: 0,
      redeemBy: '2026-02-14',
      bonusLapsed: true,
    };
    expect((await scheme('close-preview', { schemeid })).json().data).toEqual(lapsed);
    const closed = await scheme('close', { schemeid });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toEqual(lapsed);
    const [audit] = await ctx.sql<{ after: Record<string, unknown> }>(
      `SELECT detail->'after' AS after FROM audit_log
        WHERE action = 'scheme.close' AND entity_id = $1`,
      [String(schemeid)],
    );
    expect(audit?.after).toMatchObject({ bonus: 0, bonusLapsed: true });
  });

  it('refuses a plan no longer offered', async () => {
    clock.set('2026-01-05');
    expect((await savePlan(plan({ code: 'OLD', kind: 'value', active: false }))).statusCode).toBe(
      200,
    );
    const customer = await newCustomer('9811100002');
    const refused = await scheme('generate', {
      ...customer,
      startdt: '2026-01-05',
      amount: 3000,
      plan: 'OLD',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MESSAGES.schemePlanInactive('OLD'));
  });
});
