import { expect } from 'vitest';
import type { TestContext } from './helpers.js';

type Sql = TestContext['sql'];

/**
 * What each ledger row adds to a day's points figures, as the dashboard defines them: issued
 * are sale and staff credits less returns; redeemed are counter redemptions less their
 * cancels, and staff deductions; expired are the expiry's rows.
 */
function pointsFigures(row: { ts: string; credit: number; debit: number }) {
  const net = row.credit - row.debit;
  switch (row.ts) {
    case 'S':
    case 'X':
      return { issued: net, redeemed: 0, expired: 0 };
    case 'M':
      return { issued: row.credit, redeemed: row.debit, expired: 0 };
    case 'R':
      return { issued: 0, redeemed: -net, expired: 0 };
    default:
      return { issued: 0, redeemed: 0, expired: -net };
  }
}

/** Entries keyed by their columns joined, with the figures summed and zero sums dropped. */
function tally<Figures extends Record<string, number>>(
  rows: { key: string; figures: Figures }[],
): Record<string, Figures> {
  const sums: Record<string, Figures> = {};
  for (const { key, figures } of rows) {
    const sum = (sums[key] ??= Object.fromEntries(
      Object.keys(figures).map((name) => [name, 0]),
    ) as Figures);
    for (const [name, value] of Object.entries(figures))
      (sum as Record<string, number>)[name]! += value;
  }
  return Object.fromEntries(
    Object.entries(sums).filter(([, figures]) =>
      Object.values(figures).some((value) => value !== 0),
    ),
  );
}

/** A summary's rows and the rows it summarises, each tallied by key: they must agree. */
function expectTallies<Figures extends Record<string, number>>(
  summary: { key: string; figures: Figures }[],
  rows: { key: string; figures: Figures }[],
) {
  expect(tally(summary)).toEqual(tally(rows));
}

/**
 * The summaries the triggers keep equal what they summarise, recomputed here from the rows
 * themselves: the points figures per day and branch, the installments per day, branch and
 * mode, each scheme's installments paid and the due date of its oldest unpaid one, the active
 * schemes and their monthly commitment per branch, the schemes per start date and status, the
 * points held in lots per branch, and each lot's branch (its ledger row's).
 */
export async function expectSummariesAgree(ctx: { sql: Sql }) {
  const entries = await ctx.sql<{
    day: string;
    branch_id: number;
    ts: string;
    credit: number;
    debit: number;
  }>(`SELECT invdate::text AS day, branch_id, ts, credit, debit FROM points_entries`);
  const summaryRows = await ctx.sql<{
    day: string;
    branch_id: number;
    issued: string;
    redeemed: string;
    expired: string;
  }>(`SELECT day::text AS day, branch_id, issued, redeemed, expired FROM points_by_day`);
  expectTallies(
    summaryRows.map((row) => ({
      key: `${row.day} ${row.branch_id}`,
      figures: {
        issued: Number(row.issued),
        redeemed: Number(row.redeemed),
        expired: Number(row.expired),
      },
    })),
    entries.map((row) => ({ key: `${row.day} ${row.branch_id}`, figures: pointsFigures(row) })),
  );

  const installments = await ctx.sql<{
    day: string;
    branch_id: number;
    mode: string;
    amount: number;
  }>(`SELECT paid_on::text AS day, branch_id, mode, amount FROM scheme_installments`);
  const byDay = await ctx.sql<{
    day: string;
    branch_id: number;
    mode: string;
    amount: string;
    installments: number;
  }>(`SELECT day::text AS day, branch_id, mode, amount, installments FROM collections_by_day`);
  expectTallies(
    byDay.map((row) => ({
      key: `${row.day} ${row.branch_id} ${row.mode}`,
      figures: { amount: Number(row.amount), installments: row.installments },
    })),
    installments.map((row) => ({
      key: `${row.day} ${row.branch_id} ${row.mode}`,
      figures: { amount: row.amount, installments: 1 },
    })),
  );

  const schemes = await ctx.sql<{
    id: number;
    startdt: string;
    installments: number;
    paid: number;
    next_due: string | null;
    counted: number;
  }>(
    `SELECT s.id, s.startdt::text AS startdt, s.installments, s.paid, s.next_due::text AS next_due,
            (SELECT count(*)::integer FROM scheme_installments i WHERE i.scheme_id = s.id) AS counted
       FROM schemes s`,
  );
  for (const scheme of schemes) {
    expect({ id: scheme.id, paid: scheme.paid, nextDue: scheme.next_due }).toEqual({
      id: scheme.id,
      paid: scheme.counted,
      nextDue:
        scheme.counted < scheme.installments ? plusMonths(scheme.startdt, scheme.counted) : null,
    });
  }

  const active = await ctx.sql<{ branch_id: number; schemes: number; commitment: string }>(
    `SELECT branch_id, schemes, commitment FROM schemes_active`,
  );
  const activeSchemes = await ctx.sql<{
    branch_id: number;
    amount: number;
    paid: number;
    installments: number;
  }>(`SELECT branch_id, amount, paid, installments FROM schemes WHERE status = 'a'`);
  expectTallies(
    active.map((row) => ({
      key: `${row.branch_id}`,
      figures: { schemes: row.schemes, commitment: Number(row.commitment) },
    })),
    activeSchemes.map((row) => ({
      key: `${row.branch_id}`,
      figures: { schemes: 1, commitment: row.paid < row.installments ? row.amount : 0 },
    })),
  );

  const byStart = await ctx.sql<{
    startdt: string;
    status: string;
    schemes: number;
    amount: string;
  }>(`SELECT startdt::text AS startdt, status, schemes, amount FROM schemes_by_start`);
  const started = await ctx.sql<{ startdt: string; status: string; amount: number }>(
    `SELECT startdt::text AS startdt, status, amount FROM schemes`,
  );
  expectTallies(
    byStart.map((row) => ({
      key: `${row.startdt} ${row.status}`,
      figures: { schemes: row.schemes, amount: Number(row.amount) },
    })),
    started.map((row) => ({
      key: `${row.startdt} ${row.status}`,
      figures: { schemes: 1, amount: row.amount },
    })),
  );

  const held = await ctx.sql<{ branch_id: number; points: string }>(
    `SELECT branch_id, sum(points) AS points FROM points_held GROUP BY branch_id`,
  );
  const lots = await ctx.sql<{ branch_id: number; remaining: number }>(
    `SELECT branch_id, remaining FROM points_lots`,
  );
  expectTallies(
    held.map((row) => ({ key: `${row.branch_id}`, figures: { points: Number(row.points) } })),
    lots.map((row) => ({ key: `${row.branch_id}`, figures: { points: row.remaining } })),
  );

  const strayLots = await ctx.sql(
    `SELECT l.id FROM points_lots l LEFT JOIN points_entries e ON e.mrn = l.entry_mrn
      WHERE l.branch_id <> coalesce(e.branch_id, (SELECT min(id) FROM branches))`,
  );
  expect(strayLots).toEqual([]);
}

/** `months` calendar months after `isoDate`, the day kept or made the month's last. */
function plusMonths(isoDate: string, months: number) {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}
