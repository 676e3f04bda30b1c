import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helpers.js';
import { pointsSummaryReader } from './points.summary.js';

/**
 * The customer's own home page reads their points in one statement: it must answer as the
 * staff screens' separate reads do (summaryOf, the open lots, tierOf), with tiers and without.
 */

const TODAY = '2026-11-20';
let ctx: TestContext;
let customerId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const [customer] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ('9811100001', 'Lakshmi Rao') RETURNING id`,
  );
  customerId = customer!.id;
  // Lots: one spent, one expiring in 10 days, one on the 30th day, one on the 31st, one that
  // never expires, and one already past (the expiry job has not run yet).
  await ctx.sql(
    `INSERT INTO points_lots (customer_id, earned_on, expires_on, points, remaining) VALUES
       ($1, '2025-01-01', '2026-11-25', 100, 0),
       ($1, '2025-02-01', '2026-11-30', 200, 150),
       ($1, '2025-03-01', '2026-12-20', 300, 300),
       ($1, '2025-04-01', '2026-12-21', 400, 400),
       ($1, '2025-05-01', NULL, 500, 500),
       ($1, '2024-06-01', '2026-11-19', 600, 60)`,
    [customerId],
  );
  // 12-month spend: ₹60,000 inside the 12 months, ₹1,00,000 just before them.
  await ctx.sql(
    `INSERT INTO pos_sales (branch_code, invoice_no, request_hash, invoice_date, sale_amount_paise,
                            eligible_paise, excluded_categories, customer_id)
     VALUES ('MAIN', 'H-1', 'h1', '2026-01-10', 6000000, 6000000, '[]', $1),
            ('MAIN', 'H-2', 'h2', '2025-11-20', 10000000, 10000000, '[]', $1)`,
    [customerId],
  );
});
afterAll(() => ctx?.close());

async function apart(balance: number) {
  const db = ctx.database.db;
  const lots = await ctx.sql<{ points: number; expiresOn: string | null }>(
    `SELECT remaining AS points, expires_on::text AS "expiresOn" FROM points_lots
      WHERE customer_id = $1 AND remaining > 0 ORDER BY expires_on ASC NULLS LAST, id`,
    [customerId],
  );
  const summary = await pointsSummaryReader.summaryOf(db, customerId, balance, TODAY);
  return {
    ...summary,
    // The open lots whose points summaryOf counts as expiring within 30 days.
    expiringSoon: await ctx.sql<{ points: number; expiresOn: string }>(
      `SELECT remaining AS points, expires_on::text AS "expiresOn" FROM points_lots
        WHERE customer_id = $1 AND remaining > 0
          AND expires_on BETWEEN $2::date AND $2::date + 30
        ORDER BY expires_on, id`,
      [customerId, TODAY],
    ),
    lots,
    tier: await pointsSummaryReader.tierOf(db, customerId, TODAY),
  };
}

describe("a customer's points on their home page", () => {
  it('answers as the separate reads do, with tiers and without', async () => {
    const home = () => pointsSummaryReader.homeOf(ctx.database.db, customerId, 1410, TODAY);
    const before = await home();
    expect(before).toEqual(await apart(1410));
    expect(before).toMatchObject({ pointsExpiringIn30Days: 450, tier: undefined });
    expect(before.lots.map((lot) => lot.points)).toEqual([60, 150, 300, 400, 500]);
    // The counter home tells when they expire: the 30th day's lot, not the 31st's nor a past one.
    expect(before.expiringSoon).toEqual([
      { points: 150, expiresOn: '2026-11-30' },
      { points: 300, expiresOn: '2026-12-20' },
    ]);

    await ctx.sql(
      `INSERT INTO tier_settings (valid_from, tiers, downgrade) VALUES (clock_timestamp(),
         '[{"code":"SILVER","name":"Silver","minSpendPaise":5000000,"earnPercent":110},
           {"code":"GOLD","name":"Gold","minSpendPaise":10000000,"earnPercent":125}]', 'never')`,
    );
    await ctx.sql(
      `INSERT INTO customer_tiers (customer_id, manual_code, manual_until)
       VALUES ($1, 'GOLD', '2026-12-31')`,
      [customerId],
    );
    const after = await home();
    expect(after).toEqual(await apart(1410));
    expect(after.tier).toEqual({
      tier: 'GOLD',
      tierName: 'Gold',
      spend12m: 60_000,
      nextTier: null,
      toNextTier: null,
    });
  });
});
