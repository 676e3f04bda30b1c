import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_GRACE_DAYS, installmentDueOn, overdueCutoff } from '@kanak/contract';

/*
 * When a scheme's installments fall due (installmentDueOn: the start date plus k calendar
 * months, the 31st becoming a shorter month's last day), for the overdue report and the
 * counter; still unpaid its grace after that day (overdueFrom, with graceDaysOf: its plan's,
 * the standard scheme's the default), an installment is overdue. The schemes' next_due column,
 * which the database computes, says the same day in SQL beside the table.
 */

/** A plan's grace, as the overdue rule reads the plans before it is built. */
export interface PlanGrace extends Record<string, unknown> {
  id: number;
  graceDays: number;
}

/** Every plan's grace: a few rows, read in the transaction that then asks what is overdue. */
export const planGracesSql = sql`SELECT id, grace_days AS "graceDays" FROM scheme_plans`;

/** A scheme's grace in SQL: its plan's grace column, or without a plan the default. */
export const graceDaysSql = (planGrace: SQL) =>
  sql`coalesce(${planGrace}, ${DEFAULT_GRACE_DAYS}::integer)`;

/**
 * The overdue rule on `asOf` for the active schemes aliased `s`, in SQL, built with every
 * plan's grace (read first, planGracesSql). Each grace's cutoff (the last due day whose
 * installment, unpaid, is overdue) and what the count needs of it are worked out here, once
 * per grace, and stand in the statement as constants that the scheme's plan chooses between
 * (no plan, or a plan of the default grace: the default's). So PostgreSQL knows the range of
 * the schemes' next_due index it reads, and no scheme's row works out a date; with every plan
 * on the default grace the statement is a plain range up to one cutoff.
 *
 * `isOverdue`: the oldest unpaid installment is overdue, and the scheme has not matured (a
 * matured scheme can no longer be paid: it waits to be closed). Its first bound is the latest
 * cutoff of any grace, the index range; the scheme's own cutoff then decides.
 *
 * `installments`: how many are overdue, those due by the cutoff less the `paid` first;
 * meaningful where `isOverdue` holds (then at least 1).
 */
export function overdueSql(asOf: string, plans: readonly PlanGrace[]) {
  const plansByGrace = new Map<number, number[]>();
  for (const plan of plans)
    if (plan.graceDays !== DEFAULT_GRACE_DAYS)
      plansByGrace.set(plan.graceDays, [...(plansByGrace.get(plan.graceDays) ?? []), plan.id]);
  /**
   * A value of the cutoff, chosen by the scheme's plan: the plans whose graces give the same
   * value share a branch, and with one value for all it is a constant.
   */
  const byCutoff = (value: (cutoff: string) => string | number, type: 'date' | 'integer') => {
    const otherwise = value(overdueCutoff(asOf, DEFAULT_GRACE_DAYS));
    const branches = new Map<string | number, number[]>();
    for (const [graceDays, ids] of plansByGrace) {
      const given = value(overdueCutoff(asOf, graceDays));
      if (given !== otherwise) branches.set(given, [...(branches.get(given) ?? []), ...ids]);
    }
    const typed = (given: string | number) => sql`${given}::${sql.raw(type)}`;
    if (branches.size === 0) return typed(otherwise);
    const whens = [...branches].map(
      ([given, ids]) =>
        sql`WHEN s.plan_id IN (${sql.join(
          ids.map((id) => sql`${id}::integer`),
          sql`, `,
        )}) THEN ${typed(given)}`,
    );
    return sql`(CASE ${sql.join(whens, sql` `)} ELSE ${typed(otherwise)} END)`;
  };
  const latestCutoff = overdueCutoff(asOf, Math.min(DEFAULT_GRACE_DAYS, ...plansByGrace.keys()));
  // With every plan on the default grace, the latest cutoff is everyone's.
  const ownCutoff =
    plansByGrace.size === 0 ? sql`` : sql` AND s.next_due <= ${byCutoff((day) => day, 'date')}`;
  return {
    isOverdue: sql`s.next_due <= ${latestCutoff}::date${ownCutoff} AND s.matdt >= ${asOf}::date`,
    installments: sql`(${installmentsDueBySql(byCutoff)} - s.paid)`,
  };
}

/**
 * How many installments of the scheme `s` are due on or before its cutoff. Due days only move
 * forward as k grows, and installment m, m being the calendar months from the start's month to
 * the cutoff's, falls in the cutoff's month: those before it are due by the cutoff, those after
 * it are not, and whether it is depends only on the day of the month the scheme started.
 * Integer arithmetic per scheme, on the columns the overdue report's index holds; the rest
 * worked out once per cutoff here.
 */
function installmentsDueBySql(
  byCutoff: (value: (cutoff: string) => string | number, type: 'integer') => SQL,
): SQL {
  const cutoffMonth = byCutoff((cutoff) => {
    const [year, month] = cutoff.split('-').map(Number) as [number, number];
    return year * 12 + month - 1;
  }, 'integer');
  const lastStartDay = byCutoff(lastStartDayDueBy, 'integer');
  const monthsToCutoff = sql`${cutoffMonth} - (extract(year FROM s.startdt)::integer * 12
                                + extract(month FROM s.startdt)::integer - 1)`;
  const inCutoffMonthDue = sql`CASE WHEN extract(day FROM s.startdt) <= ${lastStartDay} THEN 1 ELSE 0 END`;
  return sql`least(s.installments, ${monthsToCutoff} + ${inCutoffMonthDue})`;
}

/**
 * The last day of the month a scheme may have started on for its installment in the cutoff's
 * month to be due by the cutoff, asked of the rule itself: of starts in January of the
 * cutoff's year (January has every day a month can start on), month − 1 months on.
 */
function lastStartDayDueBy(cutoff: string) {
  const [year, month] = cutoff.split('-').map(Number) as [number, number];
  const januaryThe = (day: number) => `${year}-01-${String(day).padStart(2, '0')}`;
  // A start on the 1st is due on the 1st of the cutoff's month.
  let last = 1;
  while (last < 31 && installmentDueOn(januaryThe(last + 1), month - 1) <= cutoff) last++;
  return last;
}
