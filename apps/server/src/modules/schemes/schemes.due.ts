import { sql, type SQL } from 'drizzle-orm';
import { addDays, installmentDueOn, LIMITS } from '@kanak/contract';

/*
 * When a scheme's installments fall due (installmentDueOn: the start date plus k calendar
 * months, the 31st becoming a shorter month's last day), in SQL for the schemes' next_due
 * column and the overdue report, where PostgreSQL's month arithmetic gives the same day; still
 * unpaid LIMITS.installmentGraceDays after that day, an installment is overdue.
 */

/** The same day in SQL, of a start date and an installment's number. */
export const installmentDueSql = (startdt: SQL, k: SQL) =>
  sql`(${startdt} + make_interval(months => ${k}))::date`;

/** The first day an installment due on `dueOn` is overdue if still unpaid. */
export const overdueFrom = (dueOn: string) => addDays(dueOn, LIMITS.installmentGraceDays);

/** The last due day whose installment, unpaid, is overdue on `asOf`. */
export const overdueCutoff = (asOf: string) => addDays(asOf, -LIMITS.installmentGraceDays);

/**
 * How many installments of the scheme (its start date and installment count, as SQL) are due
 * on or before `cutoff`. Due days only move forward as k grows, and installment m, m being the
 * calendar months from the start's month to the cutoff's, falls in the cutoff's month: those
 * before it are due by the cutoff, those after it are not, and whether it is depends only on
 * the day of the month the scheme started. Integer arithmetic per scheme, on the columns the
 * overdue report's index holds; the rest worked out once here. Meaningful where the first
 * installment is due by the cutoff.
 */
export function installmentsDueBySql(
  scheme: { startdt: SQL; installments: SQL },
  cutoff: string,
): SQL {
  const [year, month] = cutoff.split('-').map(Number) as [number, number];
  const monthsToCutoff = sql`${year * 12 + month - 1} - (extract(year FROM ${scheme.startdt})::integer * 12
                                + extract(month FROM ${scheme.startdt})::integer - 1)`;
  const inCutoffMonthDue = sql`CASE WHEN extract(day FROM ${scheme.startdt}) <= ${lastStartDayDueBy(cutoff)} THEN 1 ELSE 0 END`;
  return sql`least(${scheme.installments}, ${monthsToCutoff} + ${inCutoffMonthDue})`;
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
