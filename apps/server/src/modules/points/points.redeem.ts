import { MESSAGES, pointsWorthPaise, rupeesOfPaise } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { counterRedemptions } from '../../db/schema.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import type { NoticeQueue } from '../../lib/notice-queue.js';
import { pointsAccountsRepo, type Ledger } from './points.ledger.js';
import { rulesRepo } from './points.rules.js';

export interface Redemption {
  mobile: string;
  points: number;
  invdate: string;
  /** What follows "Redemption" in the narration: where, and the bill it was taken against. */
  described: string;
  /** The row's branch: the staff member's, or the counter's key's. */
  branchId: number;
  createdBy?: number;
}

/** What follows "Redemption" in the narration of one staff made on the Redeem Points screen. */
export const atTheCounter = (invoiceNo?: string) =>
  ` at the counter${invoiceNo ? `, invoice ${invoiceNo}` : ''}`;

/**
 * Redeems a customer's points, whether staff press Redeem or the counter's billing system
 * posts it: at least the rules' minimum, never more than the balance, both checked under the
 * account's lock so that two counters at once cannot overdraw. One ledger row (R) valued
 * at the rules in force, and the customer told; the caller records who did it.
 */
export async function redeemPoints(
  tx: Tx,
  deps: {
    ledger: Ledger;
    notices: NoticeQueue;
  },
  redemption: Redemption,
) {
  const rules = await rulesRepo.current(tx);
  if (redemption.points < rules.minRedeemPoints)
    throw new ConflictError(MESSAGES.redeemBelowMinimum(rules.minRedeemPoints));
  const customer = await pointsAccountsRepo.lockByMobile(tx, redemption.mobile);
  if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
  if (customer.balance < redemption.points)
    throw new ConflictError(MESSAGES.insufficientPoints(customer.balance));
  const valuePaise = pointsWorthPaise(redemption.points, rules.pointValuePaise);
  const { entry, balance } = await deps.ledger.post(tx, customer, {
    kind: 'redemption',
    points: -redemption.points,
    invdate: redemption.invdate,
    narration: `Redemption${redemption.described}, value ₹${rupeesOfPaise(valuePaise).toFixed(2)}`,
    branchId: redemption.branchId,
    ...(redemption.createdBy === undefined ? {} : { createdBy: redemption.createdBy }),
  });
  await deps.notices.queue(tx, {
    event: 'pointsRedeemed',
    customerId: customer.id,
    branchId: redemption.branchId,
    facts: { points: redemption.points },
  });
  return { customer, entry, balance, valuePaise };
}

/**
 * Keeps beside a staff redemption's ledger row the bill staff named and the worth the customer
 * was given: the cash book counts it from there.
 */
export async function recordCounterRedemption(
  tx: Tx,
  redemption: { entryMrn: number; invoiceNo?: string | undefined; valuePaise: number },
) {
  await tx.insert(counterRedemptions).values({
    entryMrn: redemption.entryMrn,
    invoiceNo: redemption.invoiceNo ?? '',
    valuePaise: redemption.valuePaise,
  });
}
