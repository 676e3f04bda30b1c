import {
  installmentMonth,
  takesInstallments,
  type CounterScheme,
  type SchemePlanKind,
} from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { schemesRepo } from './schemes.repo.js';

/**
 * The installment the counter may take today, by the rule add-installment applies to a
 * payment dated today: this month's, else (this month paid) next month's in advance; none
 * when the scheme takes no installment today or neither month may be taken.
 */
function dueToday(
  scheme: { installments: number; paid: number; matdt: string; periods: string[] },
  today: string,
): CounterScheme['due'] {
  if (!takesInstallments({ ...scheme, active: true }, today)) return null;
  for (const advance of [false, true]) {
    const { month, refusal } = installmentMonth(scheme.matdt, scheme.periods, today, { advance });
    if (!refusal) return { month, advance };
  }
  return null;
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
