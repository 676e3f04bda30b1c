import { payableMonths, type CounterScheme, type SchemePlanKind } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { schemesRepo } from './schemes.repo.js';

/**
 * The installment the counter may take today (payableMonths, the rule add-installment applies
 * to a payment dated today): this month's, else next month's in advance; none when neither.
 */
function dueToday(
  scheme: { installments: number; paid: number; matdt: string; periods: string[] },
  today: string,
): CounterScheme['due'] {
  const months = payableMonths({ ...scheme, active: true }, scheme.periods, today);
  if (months.mayTakeThisMonth) return { month: months.thisMonth, advance: false };
  return months.mayTakeAdvance ? { month: months.nextMonth, advance: true } : null;
}

/**
 * What the counter shows of a customer's running (Active) schemes, read in the caller's
 * transaction: each with its plan, how many installments are overdue and what may be taken
 * today, so that the screen offers only what add-installment will accept.
 */
export const schemesDueReader = {
  async runningOf(tx: Tx, customerId: number, today: string): Promise<CounterScheme[]> {
    const rows = await schemesRepo.activeForCustomer(tx, customerId, today);
    return rows.map((row) => ({
      schemeid: row.id,
      plan:
        row.plan_code === null
          ? null
          : {
              code: row.plan_code,
              name: row.plan_name ?? row.plan_code,
              kind: (row.plan_kind ?? 'value') as SchemePlanKind,
            },
      amount: row.amount,
      installments: row.installments,
      paid: row.paid,
      startdt: row.startdt,
      matdt: row.matdt,
      nextDue: row.next_due,
      overdue: Number(row.overdue),
      due: dueToday(row, today),
    }));
  },
};
export type SchemesDueReader = typeof schemesDueReader;
