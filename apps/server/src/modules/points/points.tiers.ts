import {
  addMonths,
  TIER_MESSAGES,
  type TierDowngrade,
  type TierStanding,
  type TiersForm,
  type TiersSettings,
  type CustomerTierRequest,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import type { TierRow } from '../../db/schema.js';
import { recordAudit } from '../../lib/audit.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { pointsAccountsRepo as accounts } from './points.ledger.js';
import { tiersRepo, type CustomerTierRow, type TierSettingsRow } from './points.tiers.repo.js';

/** The tiers in force, lowest first, and how they fall. No tiers: everyone earns the base rate. */
export interface TierLadder {
  tiers: TierRow[];
  downgrade: TierDowngrade;
}

const NO_TIERS: TierLadder = { tiers: [], downgrade: 'anniversary' };

export async function currentLadder(tx: Tx): Promise<TierLadder> {
  return ladderOf(await tiersRepo.currentSettings(tx));
}

/** The ladder of these settings; none: no tiers. */
export function ladderOf(
  row: Pick<TierSettingsRow, 'tiers' | 'downgrade'> | undefined,
): TierLadder {
  if (!row) return NO_TIERS;
  return { tiers: row.tiers, downgrade: row.downgrade === 'never' ? 'never' : 'anniversary' };
}

/** The place of a tier on the ladder; -1 for none (or a code the owner has since removed). */
const rankOf = (ladder: TierLadder, code: string | null | undefined) =>
  code ? ladder.tiers.findIndex((tier) => tier.code === code) : -1;

/** The highest tier a 12-month spend reaches. */
const reachedBy = (ladder: TierLadder, spendPaise: number) =>
  ladder.tiers.findLast((tier) => tier.minSpendPaise <= spendPaise);

/** The tier that applies: the higher of the earned one and one set by hand still in force. */
function applying(ladder: TierLadder, row: CustomerTierRow | undefined, today: string) {
  const earned = rankOf(ladder, row?.earnedCode);
  const manual = row?.manualUntil && row.manualUntil >= today ? rankOf(ladder, row.manualCode) : -1;
  return ladder.tiers[Math.max(earned, manual)];
}

/** The 12 months a tier looks at: after the same date a year before, up to today. */
export const yearBefore = (today: string) => addMonths(today, -12);

/** The customer's tier row and their spend over the 12 months up to today. */
const standingOf = (tx: Tx, customerId: number, today: string) =>
  tiersRepo.standing(tx, customerId, yearBefore(today), today);

/** Where the customer stands on the ladder, from their tier row and 12-month spend. */
export function standing(
  ladder: TierLadder,
  row: CustomerTierRow | undefined,
  spendPaise: number,
  today: string,
): TierStanding {
  const tier = applying(ladder, row, today);
  const next = ladder.tiers[rankOf(ladder, tier?.code) + 1];
  return {
    tier: tier?.code ?? null,
    tierName: tier?.name ?? null,
    spend12m: spendPaise / 100,
    nextTier: next?.code ?? null,
    toNextTier: next ? Math.max(0, next.minSpendPaise - spendPaise) / 100 : null,
  };
}

/**
 * Where the customer stands today (read in the caller's transaction); nothing while no tiers
 * are set, so the look-ups answer as they did before tiers.
 */
export async function tierStandingOf(
  tx: Tx,
  customerId: number,
  today: string,
): Promise<TierStanding | undefined> {
  const ladder = await currentLadder(tx);
  if (ladder.tiers.length === 0) return undefined;
  const { row, spend } = await standingOf(tx, customerId, today);
  return standing(ladder, row, spend, today);
}

/**
 * A sale's effect on the customer's tier, in the sale's transaction with the customer's points
 * account locked (so two sales crossing a threshold together upgrade once: the second sees the
 * first's tier). The sale counts toward the spend if dated within the 12 months; its own row
 * is not yet the customer's. Answers the rate the sale earns at (percent of the base) and the
 * tier after it; `upgraded` when the tier that applies rose. A rise of the earned tier is
 * audited here, whether or not it changes the tier that applies.
 */
export async function tierOnSale(
  tx: Tx,
  ladder: TierLadder,
  sale: {
    customerId: number;
    invoiceDate: string;
    eligiblePaise: number;
    today: string;
    invoiceNo: string;
    branchId: number;
  },
) {
  if (ladder.tiers.length === 0) return { earnPercent: 100, tier: undefined, upgraded: undefined };
  const { customerId, today } = sale;
  const counted = sale.invoiceDate > yearBefore(today) ? sale.eligiblePaise : 0;
  const { row, spend: before12 } = await standingOf(tx, customerId, today);
  const spend = before12 + counted;
  const before = applying(ladder, row, today);
  const reached = reachedBy(ladder, spend);
  let after = before;
  if (reached && rankOf(ladder, reached.code) > rankOf(ladder, row?.earnedCode)) {
    const earned = { earnedCode: reached.code, earnedOn: today, reviewOn: addMonths(today, 12) };
    await tiersRepo.save(tx, customerId, earned);
    // Every rise of the earned tier, also one a higher tier set by hand hides for now.
    await recordAudit(tx, {
      userId: null,
      action: 'tier.raised',
      entity: 'customer_tier',
      entityId: customerId,
      branchId: sale.branchId,
      before: { tier: row?.earnedCode ?? null },
      after: { tier: reached.code, invoiceNo: sale.invoiceNo },
    });
    after = applying(ladder, { ...emptyRow(customerId), ...row, ...earned }, today);
  }
  const upgraded = rankOf(ladder, after?.code) > rankOf(ladder, before?.code) ? after : undefined;
  return { earnPercent: after?.earnPercent ?? 100, tier: after?.code ?? null, upgraded };
}

const emptyRow = (customerId: number): CustomerTierRow => ({
  customerId,
  earnedCode: null,
  earnedOn: null,
  reviewOn: null,
  manualCode: null,
  manualUntil: null,
  updatedAt: new Date(),
});

/** Earned tiers looked at per transaction by the anniversary job. */
export const REVIEW_BATCH = 500;

/**
 * The anniversary job: every earned tier whose anniversary has come by `today` is looked at
 * again; when the last 12 months no longer reach it, the customer falls to the tier they do
 * reach (or none), and the new tier's anniversary is a year on; when they still do, the next
 * anniversary is a year on. Batches of its own transactions, each holding its customers'
 * points accounts: killed midway, the committed batches stand and a rerun does the rest; run
 * twice, the second finds nothing due. With downgrades set to never, nothing falls.
 */
export async function reviewTierAnniversaries(
  { db }: { db: Db },
  today: string,
  batch = REVIEW_BATCH,
) {
  let reviewed = 0;
  let lowered = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const ladder = await currentLadder(tx);
      if (ladder.downgrade === 'never' || ladder.tiers.length === 0) return 0;
      const due = await tiersRepo.due(tx, today, batch);
      if (due.length === 0) return 0;
      await accounts.lockById(
        tx,
        due.map((row) => row.customerId),
      );
      for (const { customerId } of due) {
        // Read again under the lock: a sale may have raised the tier meanwhile.
        const { row, spend } = await standingOf(tx, customerId, today);
        if (!row?.reviewOn || row.reviewOn > today) continue;
        let reviewOn = row.reviewOn;
        while (reviewOn <= today) reviewOn = addMonths(reviewOn, 12);
        const reached = reachedBy(ladder, spend);
        if (rankOf(ladder, reached?.code) >= rankOf(ladder, row.earnedCode)) {
          await tiersRepo.save(tx, customerId, { reviewOn });
        } else {
          const lower = reached
            ? { earnedCode: reached.code, earnedOn: today, reviewOn }
            : { earnedCode: null, earnedOn: null, reviewOn: null };
          await tiersRepo.save(tx, customerId, lower);
          await recordAudit(tx, {
            userId: null,
            action: 'tier.lowered',
            entity: 'customer_tier',
            entityId: customerId,
            before: { tier: row.earnedCode },
            after: { tier: lower.earnedCode },
          });
          lowered++;
        }
      }
      return due.length;
    });
    reviewed += done;
    if (done === 0) return { reviewed, lowered };
  }
}

/** Customers per tier that applies today, every tier of the ladder listed. */
export async function tierCounts(tx: Tx, today: string) {
  const ladder = await currentLadder(tx);
  if (ladder.tiers.length === 0) return [];
  const counts = new Map<string, number>();
  for (const { earned, manual, n } of await tiersRepo.counts(tx, today)) {
    const tier = ladder.tiers[Math.max(rankOf(ladder, earned), rankOf(ladder, manual))];
    if (tier) counts.set(tier.code, (counts.get(tier.code) ?? 0) + n);
  }
  return ladder.tiers.map((tier) => ({
    code: tier.code,
    name: tier.name,
    customers: counts.get(tier.code) ?? 0,
  }));
}

const toWire = (ladder: TierLadder): TiersSettings => ({
  tiers: ladder.tiers.map((tier) => ({
    code: tier.code,
    name: tier.name,
    minSpend: tier.minSpendPaise / 100,
    earnPercent: tier.earnPercent,
  })),
  downgrade: ladder.downgrade,
});

export type TiersService = ReturnType<typeof createTiersService>;

/** The owner's tiers, and a tier set by hand for one customer. */
export function createTiersService({ db, today }: { db: Db; today: () => string }) {
  const get = () =>
    db.transaction(async (tx) => toWire(await currentLadder(tx)), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
  return {
    get,

    async save(actorId: number, form: TiersForm) {
      await db.transaction(async (tx) => {
        const kept = new Set(form.tiers.map((tier) => tier.code));
        const dropped = (await currentLadder(tx)).tiers.filter((tier) => !kept.has(tier.code));
        for (const { code, customers } of await tiersRepo.holders(
          tx,
          dropped.map((tier) => tier.code),
          today(),
        ))
          throw new ConflictError(TIER_MESSAGES.tierHeld(code, customers));
        const tiers: TierRow[] = form.tiers.map((tier) => ({
          code: tier.code,
          name: tier.name,
          minSpendPaise: tier.minSpend,
          earnPercent: tier.earnPercent,
        }));
        const id = await tiersRepo.saveSettings(tx, {
          tiers,
          downgrade: form.downgrade,
          createdBy: actorId,
        });
        await recordAudit(tx, {
          userId: actorId,
          action: 'tiers.save',
          entity: 'tier_settings',
          entityId: id,
          after: { ...toWire({ tiers, downgrade: form.downgrade }) },
        });
      });
      return { message: TIER_MESSAGES.saved, data: await get() };
    },

    async setManual(actorId: number, given: CustomerTierRequest) {
      const day = today();
      if (given.until !== undefined && given.until < day)
        throw new InvalidInputError(TIER_MESSAGES.untilInPast);
      return db.transaction(async (tx) => {
        const ladder = await currentLadder(tx);
        if (given.tier !== null && rankOf(ladder, given.tier) < 0)
          throw new InvalidInputError(TIER_MESSAGES.unknownTier(given.tier));
        const [account] = await accounts.lockById(tx, [given.custid]);
        if (!account) throw new NotFoundError(TIER_MESSAGES.customerNotFound);
        const { row, spend } = await standingOf(tx, given.custid, day);
        const manual = {
          manualCode: given.tier,
          manualUntil: given.tier === null ? null : (given.until ?? null),
        };
        await tiersRepo.save(tx, given.custid, manual);
        await recordAudit(tx, {
          userId: actorId,
          action: 'tier.setByHand',
          entity: 'customer_tier',
          entityId: given.custid,
          before: { tier: row?.manualCode ?? null, until: row?.manualUntil ?? null },
          after: { tier: manual.manualCode, until: manual.manualUntil },
        });
        const after = { ...emptyRow(given.custid), ...row, ...manual };
        return {
          custid: given.custid,
          earnedTier: after.earnedCode,
          manualTier: after.manualCode,
          manualUntil: after.manualUntil,
          ...standing(ladder, after, spend, day),
        };
      });
    },
  };
}
