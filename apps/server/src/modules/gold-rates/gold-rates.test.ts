import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLD_RATE_UNUSUAL, MESSAGES, type Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';

const TODAY = '2026-02-10';
const now = new Date(`${TODAY}T12:00:00+05:30`);

let ctx: TestContext;
const tokens: Record<string, string> = {};

const post = (username: string, payload: object, idempotencyKey?: string) =>
  ctx.app.inject(
    authed(tokens[username]!, { method: 'POST', url: '/api/gold-rates', payload, idempotencyKey }),
  );
const get = (username: string, url: string) =>
  ctx.app.inject(authed(tokens[username]!, { method: 'GET', url: `/api${url}` }));

const rowsOf = (date: string) =>
  ctx.sql<{ rate22k_paise: number; rate24k_paise: number }>(
    `SELECT rate22k_paise, rate24k_paise FROM gold_rates WHERE rate_date = $1`,
    [date],
  );

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  const staff: [string, Role][] = [
    ['asha', 'owner'],
    ['mohan', 'manager'],
    ['ravi', 'cashier'],
  ];
  for (const [username, role] of staff) {
    tokens[username] = (await staffSession(ctx, username, role)).token;
  }
});

afterAll(() => ctx.close());

describe('the day gold rate', () => {
  it('is entered by a manager, kept in paise, and shown to everyone as today', async () => {
    const saved = await post('mohan', { date: TODAY, rate22k: 6543.5, rate24k: 7138.25 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: MESSAGES.goldRateSaved(TODAY),
      data: {
        date: TODAY,
        rate22k: 6543.5,
        rate24k: 7138.25,
        enteredBy: 'mohan',
        corrected: false,
      },
    });
    expect(await rowsOf(TODAY)).toEqual([{ rate22k_paise: 654350, rate24k_paise: 713825 }]);
    const today = await get('ravi', '/gold-rates/today');
    expect(today.json().data).toMatchObject({ date: TODAY, rate22k: 6543.5, rate24k: 7138.25 });
  });

  it('posted again for a date is a correction, audited with the rate before and after', async () => {
    const date = '2026-02-01';
    expect((await post('asha', { date, rate22k: 6400, rate24k: 6980 })).statusCode).toBe(200);
    const corrected = await post('mohan', { date, rate22k: 6410.1, rate24k: 6990 });
    expect(corrected.json()).toMatchObject({
      message: MESSAGES.goldRateCorrected(date),
      data: { rate22k: 6410.1, corrected: true, enteredBy: 'mohan' },
    });
    expect(await rowsOf(date)).toEqual([{ rate22k_paise: 641010, rate24k_paise: 699000 }]);
    const audit = await ctx.sql<{ action: string; detail: unknown }>(
      `SELECT action, detail FROM audit_log WHERE entity = 'goldRate' AND entity_id = $1 ORDER BY id`,
      [date],
    );
    expect(audit).toEqual([
      { action: 'goldRate.add', detail: { rate22k: 6400, rate24k: 6980 } },
      {
        action: 'goldRate.correct',
        detail: {
          before: { rate22k: 6400, rate24k: 6980 },
          after: { rate22k: 6410.1, rate24k: 6990 },
        },
      },
    ]);
  });

  it.each([
    [{ rate22k: 0, rate24k: 7000 }, '22K rate must be more than zero.'],
    [{ rate22k: 6500, rate24k: -1 }, '24K rate must be more than zero.'],
    [{ rate22k: 6500.123, rate24k: 7000 }, '22K rate can have at most 2 decimals (whole paise).'],
    [{ rate22k: 6500, rate24k: 0.000001 }, '24K rate can have at most 2 decimals (whole paise).'],
    [{ rate22k: '6500', rate24k: 7000 }, '22K rate must be a number of rupees per gram.'],
    // 22K and 24K swapped, or one typed twice.
    [{ rate22k: 7000, rate24k: 6500 }, '22K rate must be less than the 24K rate.'],
    [{ rate22k: 7000, rate24k: 7000 }, '22K rate must be less than the 24K rate.'],
    [{ rate22k: 6500, rate24k: 7000, confirmed: 'yes' }, 'Confirm yes or no.'],
  ])('refuses %o with 400 and saves nothing', async (rates, message) => {
    const date = '2026-01-15';
    const response = await post('asha', { date, ...rates });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await rowsOf(date)).toEqual([]);
  });

  it('asks to confirm a rate far from the last one before its date; a correction back needs none', async () => {
    await post('asha', { date: '2026-01-20', rate22k: 6500, rate24k: 7090 });
    // A digit short: ₹650 a gram would buy ten times the gold.
    const slip = await post('mohan', { date: '2026-01-21', rate22k: 650, rate24k: 7090 });
    expect(slip.statusCode).toBe(409);
    expect(slip.json().message).toBe(
      MESSAGES.goldRateFarFromLast('22K', '₹650', -90, '₹6,500', '20/01/2026'),
    );
    expect(slip.json().code).toBe(GOLD_RATE_UNUSUAL);
    const high = await post('mohan', { date: '2026-01-21', rate22k: 6500, rate24k: 70900 });
    expect(high.json().message).toBe(
      MESSAGES.goldRateFarFromLast('24K', '₹70,900', 900, '₹7,090', '20/01/2026'),
    );
    expect(await rowsOf('2026-01-21')).toEqual([]);
    // Within a fifth of the last: saved as typed.
    const moved = await post('mohan', { date: '2026-01-21', rate22k: 7800, rate24k: 8500 });
    expect(moved.statusCode, moved.body).toBe(200);
    // Far, and confirmed: saved, and the check compares with the day before, not the rate
    // being corrected, so putting it right needs no confirmation.
    const meant = await post('mohan', {
      date: '2026-01-22',
      rate22k: 780,
      rate24k: 8500,
      confirmed: true,
    });
    expect(meant.statusCode, meant.body).toBe(200);
    const putRight = await post('mohan', { date: '2026-01-22', rate22k: 7810, rate24k: 8500 });
    expect(putRight.statusCode, putRight.body).toBe(200);
    expect(await rowsOf('2026-01-22')).toEqual([{ rate22k_paise: 781000, rate24k_paise: 850000 }]);
  });

  it('refuses a first rate, or one after a gap, outside the usual band until it is confirmed, and audits the confirmation', async () => {
    // A month's gap: the last rate is 75 days before, too old to compare with.
    const first = await post('asha', { date: '2025-04-01', rate22k: 7904, rate24k: 8623 });
    expect(first.statusCode, first.body).toBe(200);
    const date = '2025-06-15';
    const slip = await post('mohan', { date, rate22k: 4.35, rate24k: 4.75 });
    expect(slip.statusCode).toBe(409);
    expect(slip.json()).toEqual({
      success: false,
      code: GOLD_RATE_UNUSUAL,
      message: [
        MESSAGES.goldRateOutsideBand('22K', '₹4.35', '₹2,000', '₹50,000', 31),
        MESSAGES.goldRateOutsideBand('24K', '₹4.75', '₹2,200', '₹55,000', 31),
      ].join(' '),
    });
    expect(await rowsOf(date)).toEqual([]);
    // Ten times too much is caught as well.
    const high = await post('mohan', { date, rate22k: 79_040, rate24k: 86_230 });
    expect(high.statusCode).toBe(409);
    expect(high.json().code).toBe(GOLD_RATE_UNUSUAL);
    expect(await rowsOf(date)).toEqual([]);

    const meant = await post('mohan', { date, rate22k: 4.35, rate24k: 4.75, confirmed: true });
    expect(meant.statusCode, meant.body).toBe(200);
    expect(await rowsOf(date)).toEqual([{ rate22k_paise: 435, rate24k_paise: 475 }]);
    const audit = await ctx.sql<{ action: string; detail: unknown }>(
      `SELECT action, detail FROM audit_log WHERE entity = 'goldRate' AND entity_id = $1`,
      [date],
    );
    expect(audit).toEqual([
      {
        action: 'goldRate.add',
        detail: {
          rate22k: 4.35,
          rate24k: 4.75,
          confirmedUnusual: slip.json().message,
        },
      },
    ]);
  });

  it('refuses a bad date and a date after today', async () => {
    const bad = await post('asha', { date: '2026-02-30', rate22k: 6500, rate24k: 7000 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Date must be a real date in YYYY-MM-DD format.');
    const future = await post('asha', { date: '2026-02-11', rate22k: 6500, rate24k: 7000 });
    expect(future.statusCode).toBe(400);
    expect(future.json().message).toBe(MESSAGES.goldRateFuture);
    expect(await rowsOf('2026-02-11')).toEqual([]);
  });

  it('lets a cashier read the rates but not enter one', async () => {
    const refused = await post('ravi', { date: '2026-02-05', rate22k: 6500, rate24k: 7000 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.notAllowed);
    expect(await rowsOf('2026-02-05')).toEqual([]);
    expect((await get('ravi', '/gold-rates')).statusCode).toBe(200);
  });

  it('lists a range newest first, and refuses from after to or too long a range', async () => {
    const list = await get('ravi', '/gold-rates?from=2026-02-01&to=2026-02-10');
    expect(list.json().data.map((rate: { date: string }) => rate.date)).toEqual([
      TODAY,
      '2026-02-01',
    ]);
    const reversed = await get('ravi', '/gold-rates?from=2026-02-10&to=2026-02-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toContain('The from date must not be after the to date.');
    const tooLong = await get('ravi', '/gold-rates?from=2024-01-01&to=2026-02-01');
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(MESSAGES.goldRateRangeTooLong(366));
  });

  it('answers a repeated request with the first answer and does the work once', async () => {
    const key = randomUUID();
    const body = { date: '2026-02-03', rate22k: 6450, rate24k: 7030 };
    const first = await post('mohan', body, key);
    const again = await post('mohan', body, key);
    expect(again.json()).toEqual(first.json());
    const audit = await ctx.sql(
      `SELECT 1 FROM audit_log WHERE entity = 'goldRate' AND entity_id = '2026-02-03'`,
    );
    expect(audit).toHaveLength(1);
  });

  it('keeps one row when two posts of one date arrive together', async () => {
    const date = '2026-02-04';
    const answers = await Promise.all([
      post('mohan', { date, rate22k: 6460, rate24k: 7040 }),
      post('asha', { date, rate22k: 6470, rate24k: 7050 }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.filter((answer) => answer.json().data.corrected)).toHaveLength(1);
    expect(await rowsOf(date)).toHaveLength(1);
    // The second is a correction of the first, and the audit says so with the rate before.
    const audit = await ctx.sql<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity = 'goldRate' AND entity_id = $1 ORDER BY id`,
      [date],
    );
    expect(audit.map((row) => row.action)).toEqual(['goldRate.add', 'goldRate.correct']);
  });
});
