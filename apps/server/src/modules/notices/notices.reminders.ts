import { addDays, installmentDueOn, LIMITS, overdueFrom } from '@kanak/contract';
import type { Db } from '../../db/client.js';
import type { NoticeRequest } from '../../lib/notice-queue.js';
import { EXPIRY_WARNING_DAYS, type PointsSummaryReader } from '../points/index.js';
import type { SchemesRepo } from '../schemes/index.js';
import type { NoticesOutbox } from './notices.outbox.js';
import { noticesRepo } from './notices.repo.js';

export interface ReminderDeps {
  db: Db;
  outbox: Pick<NoticesOutbox, 'queueMany'>;
  schemes: Pick<SchemesRepo, 'activeWithPaid'>;
  points: Pick<PointsSummaryReader, 'expiringByCustomer'>;
}

/**
 * An installment whose grace ended longer ago than this is not told of any more: a job that
 * missed a few days catches up, but a scheme months behind is the overdue report's, not a
 * flood of messages on the day reminders start.
 */
const OVERDUE_LOOKBACK_DAYS = 30;
/** Schemes (or customers) read and queued per transaction. */
const BATCH = 2_000;

type Counts = Record<
  'installmentDue' | 'installmentOverdue' | 'schemeMatured' | 'pointsExpiring',
  number
>;

interface ActiveScheme {
  id: number;
  customerId: number;
  branchId: number;
  startdt: string;
  matdt: string;
  amount: number;
  installments: number;
  paid: number;
  /** Its plan's grace (the standard scheme's, the default). */
  graceDays: number;
}

/**
 * The reminders of one active scheme on `today`. Installment k (k = 0 … n−1) falls due and
 * becomes overdue (its plan's grace after) by the schemes' rule, and is unpaid while fewer
 * than k + 1 installments are paid: it is reminded of once when due within
 * LIMITS.installmentReminderDays, and told of once when it becomes overdue. A scheme past its maturity date is told of once that it matured
 * (and nothing more about its installments).
 */
function schemeReminders(scheme: ActiveScheme, today: string): NoticeRequest[] {
  const base = { customerId: scheme.customerId, branchId: scheme.branchId };
  const facts = { amount: scheme.amount, paid: scheme.paid, total: scheme.installments };
  if (scheme.matdt <= today) {
    return [
      {
        ...base,
        event: 'schemeMatured',
        facts: { ...facts, dueDate: scheme.matdt },
        dedupeKey: `schemeMatured:${scheme.id}`,
      },
    ];
  }
  const remindUntil = addDays(today, LIMITS.installmentReminderDays);
  const overdueSince = addDays(today, -OVERDUE_LOOKBACK_DAYS);
  const reminders: NoticeRequest[] = [];
  for (let k = scheme.paid; k < scheme.installments; k++) {
    const due = installmentDueOn(scheme.startdt, k);
    if (due > remindUntil) break;
    if (due >= today) {
      reminders.push({
        ...base,
        event: 'installmentDue',
        facts: { ...facts, dueDate: due },
        dedupeKey: `installmentDue:${scheme.id}:${k}`,
      });
    }
    const overdue = overdueFrom(due, scheme.graceDays);
    if (overdue <= today && overdue > overdueSince) {
      reminders.push({
        ...base,
        event: 'installmentOverdue',
        facts: { ...facts, dueDate: due },
        dedupeKey: `installmentOverdue:${scheme.id}:${k}`,
      });
    }
  }
  return reminders;
}

/**
 * The day's reminders and digests, queued: installments due soon and overdue, schemes
 * matured, and the monthly digest of points expiring within 30 days (once per customer per
 * calendar month, on the first day of the month the customer has points expiring that soon).
 * Each has a dedupe key, so running the job twice, or again after it was killed midway,
 * queues nothing twice; each batch is its own transaction. The notices wait for the store's
 * day hours (their timing is 'daytime').
 */
export async function queueReminders(deps: ReminderDeps, today: string, batch = BATCH) {
  const counts: Counts = {
    installmentDue: 0,
    installmentOverdue: 0,
    schemeMatured: 0,
    pointsExpiring: 0,
  };
  for (let after = 0; ;) {
    const schemes = await deps.schemes.activeWithPaid(deps.db, after, batch);
    if (schemes.length === 0) break;
    after = schemes.at(-1)!.id;
    await queueFresh(
      deps,
      schemes.flatMap((scheme) => schemeReminders(scheme, today)),
      counts,
    );
  }
  const month = today.slice(0, 7);
  for (let after = 0; ;) {
    const expiring = await deps.points.expiringByCustomer(deps.db, {
      from: today,
      to: addDays(today, EXPIRY_WARNING_DAYS),
      afterCustomerId: after,
      limit: batch,
    });
    if (expiring.length === 0) break;
    after = expiring.at(-1)!.customerId;
    await queueFresh(
      deps,
      expiring.map((customer): NoticeRequest => ({
        event: 'pointsExpiring',
        customerId: customer.customerId,
        branchId: null,
        facts: { points: customer.points, dueDate: customer.lastDay },
        dedupeKey: `pointsExpiring:${customer.customerId}:${month}`,
      })),
      counts,
    );
  }
  return counts;
}

/** Queues those not queued before, in one transaction. */
async function queueFresh(deps: ReminderDeps, requests: NoticeRequest[], counts: Counts) {
  if (requests.length === 0) return;
  await deps.db.transaction(async (tx) => {
    const taken = await noticesRepo.takenDedupeKeys(
      tx,
      requests.map((request) => request.dedupeKey!),
    );
    const fresh = requests.filter((request) => !taken.has(request.dedupeKey!));
    await deps.outbox.queueMany(tx, fresh);
    for (const request of fresh) counts[request.event as keyof Counts]++;
  });
}
