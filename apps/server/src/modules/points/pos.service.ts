import {
  pointsWorthPaise,
  rupeesOfPaise,
  addDays,
  LIMITS,
  cleanName,
  POS_MESSAGES,
  type PosLine,
  type PosRedemptionRequest,
  type PosReturnRequest,
  type PosSaleRequest,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import type { Machine } from '../../plugins/types.js';
import type { CustomersRepo } from '../customers/index.js';
import type { NoticeQueue } from '../../lib/notice-queue.js';
import { createLedger, pointsAccountsRepo as accounts } from './points.ledger.js';
import { expiryOf, lotsRepo } from './points.lots.js';
import type { EntryRow } from './points.repo.js';
import { posRepo } from './pos.repo.js';
import { redeemPoints } from './points.redeem.js';
import { rulesOr, rulesRepo } from './points.rules.js';
import { ladderOf, tierOnSale, tierStandingOf } from './points.tiers.js';

/** What the counter's calls need of the customers table, which the customers module owns. */
export type PosCustomers = Pick<CustomersRepo, 'enrolByMobile'>;

export type PosService = ReturnType<typeof createPosService>;

interface Deps {
  db: Db;
  today: () => string;
  customers: PosCustomers;
  /** Tells the customer of points earned and redeemed, in the change's transaction. */
  notices: NoticeQueue;
  /** A keyed hash (HMAC): a document holds the customer's mobile number. */
  keyedHash: (text: string) => string;
}

const sumOf = (lines: PosLine[]) => lines.reduce((sum, line) => sum + line.amount, 0);
const eligibleOf = (lines: PosLine[], excluded: string[]) =>
  sumOf(lines.filter((line) => !excluded.includes(line.category)));
const inBranch = (machine: Machine) => ` (${machine.branchCode})`;

/**
 * Points from sales: the counter's billing system posts invoices, returns and redemptions.
 * One transaction per call, holding the customer's points account locked while the balance, the
 * ledger and the lots change; each document is idempotent by its own number per branch.
 * The ledger rows belong to the key's branch.
 */
export function createPosService({ db, today, customers, notices, keyedHash }: Deps) {
  const ledger = createLedger();
  /** A document's contents, to tell a repeat (same answer) from a clash (409). */
  const hashOf = (value: unknown) => keyedHash(JSON.stringify(value));

  const notFuture = (date: string, message: string) => {
    if (date > today()) throw new InvalidInputError(message);
  };

  async function lockedBalance(tx: Tx, customerId: number) {
    const [customer] = await accounts.lockById(tx, [customerId]);
    return customer!;
  }

  /** A new customer, enrolled with the sale's name; locked, as another sale may enrol them too. */
  async function enrol(tx: Tx, mobile: string, name: string | undefined) {
    if (!name) throw new InvalidInputError(POS_MESSAGES.nameNeededToEnrol);
    const enrolled = await customers.enrolByMobile(tx, mobile, name);
    return lockedBalance(tx, enrolled.id);
  }

  const audit = (tx: Tx, machine: Machine, action: string, entityId: number, detail: object) =>
    recordAudit(tx, {
      userId: null,
      action,
      entity: 'points_entry',
      entityId,
      // No staff member acts: the counter's key is who, its branch is where.
      branchId: machine.branchId,
      detail: {
        apiKeyId: machine.id,
        counter: machine.label,
        branch: machine.branchCode,
        ...detail,
      },
    });

  return {
    async sale(machine: Machine, sale: PosSaleRequest) {
      notFuture(sale.invoiceDate, POS_MESSAGES.invoiceDateInFuture);
      const requestHash = hashOf(sale);
      return db.transaction(async (tx) => {
        const terms = await posRepo.saleTerms(tx, machine.branchCode, sale.invoiceNo);
        // The rules in force now are the sale's own: kept on it for its returns.
        const rules = rulesOr(terms.rules);
        const ladder = ladderOf(terms.tierSettings);
        const eligible = eligibleOf(sale.lines, rules.excludedCategories);
        /** A sale's posting at a tier's rate (percent of the base). */
        const postingAt = (earnPercent: number) => {
          // floor(eligible / rupees per point × percent / 100), in integers: exact at any size.
          const points = Number(
            (BigInt(eligible) * BigInt(earnPercent)) / (BigInt(rules.rupeesPerPointPaise) * 100n),
          );
          // A ledger row holds at most what staff may type; rules of a paisa per point would
          // otherwise give billions.
          if (points > LIMITS.pointsMax)
            throw new ConflictError(POS_MESSAGES.tooManyPointsForOneSale(points));
          return {
            kind: 'sale',
            points,
            invdate: sale.invoiceDate,
            narration: `Sale, invoice ${sale.invoiceNo}${inBranch(machine)}`,
            branchId: machine.branchId,
            saleAmountPaise: sumOf(sale.lines),
            expiresOn: points > 0 ? expiryOf(sale.invoiceDate, rules.expiryMonths) : null,
          } as const;
        };
        return postDocument<SaleAnswer>(tx, {
          requestHash,
          clash: POS_MESSAGES.invoiceConflict,
          posted: terms.posted,
          find: () => posRepo.salePosted(tx, machine.branchCode, sale.invoiceNo),
          claim: () =>
            posRepo.claimSale(tx, {
              branchCode: machine.branchCode,
              invoiceNo: sale.invoiceNo,
              requestHash,
              invoiceDate: sale.invoiceDate,
              saleAmountPaise: sumOf(sale.lines),
              eligiblePaise: eligible,
              excludedCategories: rules.excludedCategories,
              apiKeyId: machine.id,
            }),
          post: async (saleId) => {
            let posting = postingAt(100);
            let tier: Awaited<ReturnType<typeof tierOnSale>> | undefined;
            let posted: { customerId: number; entry: EntryRow; balance: number } | undefined;
            if (ladder.tiers.length === 0) {
              // No tiers: the points are known before the lock, so a known customer's lock
              // and posting are one statement.
              const credited = await ledger.postByMobile(tx, sale.mobile, posting);
              if (credited) {
                const { entry, customer } = credited;
                posted = { customerId: customer.id, entry, balance: customer.balance };
              }
            }
            if (!posted) {
              const customer =
                (await accounts.lockByMobile(tx, sale.mobile)) ??
                (await enrol(tx, sale.mobile, sale.name));
              // The tier counts this sale, read under the account's lock: one that crosses a
              // threshold earns at the new rate, and of two such sales only one upgrades.
              tier = await tierOnSale(tx, ladder, {
                customerId: customer.id,
                invoiceDate: sale.invoiceDate,
                eligiblePaise: eligible,
                today: today(),
                invoiceNo: sale.invoiceNo,
                branchId: machine.branchId,
              });
              posting = postingAt(tier.earnPercent);
              const { entry, balance } = await ledger.post(tx, customer, posting);
              posted = { customerId: customer.id, entry, balance };
            }
            const { customerId, entry, balance } = posted;
            const { points, expiresOn } = posting;
            const answer: SaleAnswer = {
              custid: customerId,
              points,
              balance,
              eligibleAmount: rupeesOfPaise(eligible),
              expiresOn,
              ...(tier?.tier === undefined ? {} : { tier: tier.tier }),
            };
            await posRepo.storeSaleAnswer(tx, saleId, {
              customerId,
              points,
              entryMrn: entry.mrn,
              response: answer,
            });
            await audit(tx, machine, 'pos.sale', entry.mrn, {
              invoiceNo: sale.invoiceNo,
              customerId,
              points,
              rulesId: rules.id,
              tier: tier?.tier,
            });
            // Both of a sale's notices are queued together: their reads are made once.
            await notices.queueMany(tx, [
              ...(tier?.upgraded
                ? [
                    {
                      event: 'tierUpgraded',
                      customerId,
                      branchId: machine.branchId,
                      facts: { tier: tier.upgraded.name },
                    } as const,
                  ]
                : []),
              ...(points > 0
                ? [
                    {
                      event: 'pointsEarned',
                      customerId,
                      branchId: machine.branchId,
                      facts: { points },
                    } as const,
                  ]
                : []),
            ]);
            return answer;
          },
        });
      });
    },

    async return(machine: Machine, given: PosReturnRequest) {
      notFuture(given.returnDate, POS_MESSAGES.returnDateInFuture);
      const requestHash = hashOf(given);
      return db.transaction(async (tx) =>
        postDocument<ReturnAnswer>(tx, {
          requestHash,
          clash: POS_MESSAGES.returnConflict,
          find: () => posRepo.findReturn(tx, machine.branchCode, given.returnNo),
          claim: () =>
            posRepo.claimReturn(tx, {
              branchCode: machine.branchCode,
              returnNo: given.returnNo,
              requestHash,
              returnDate: given.returnDate,
              apiKeyId: machine.id,
            }),
          post: async (returnId) => {
            // Locked: two returns of one invoice are judged one after the other.
            const sale = await posRepo.findSale(tx, machine.branchCode, given.invoiceNo, {
              lock: true,
            });
            if (!sale?.customerId) throw new NotFoundError(POS_MESSAGES.invoiceNotFound);
            if (given.returnDate < sale.invoiceDate)
              throw new InvalidInputError(POS_MESSAGES.returnBeforeInvoice(sale.invoiceDate));
            const amount = sumOf(given.lines);
            // The sale's own rules decide what was eligible, never today's.
            const eligible = eligibleOf(given.lines, sale.excludedCategories);
            const before = await posRepo.returnedBefore(tx, sale.id, returnId);
            if (
              before.amount + amount > sale.saleAmountPaise ||
              before.eligible + eligible > sale.eligiblePaise
            )
              throw new ConflictError(POS_MESSAGES.returnedMoreThanSold);
            // Pro rata on the whole returned so far, so the rounding never takes more than earned.
            // In BigInt: points × paise may pass 2⁵³, where a Number would round.
            const dueSoFar =
              sale.eligiblePaise === 0
                ? 0
                : Number(
                    (BigInt(sale.points) * BigInt(before.eligible + eligible)) /
                      BigInt(sale.eligiblePaise),
                  );
            const due = Math.max(0, Math.min(dueSoFar, sale.points) - before.due);
            const customer = await lockedBalance(tx, sale.customerId);
            const points = Math.min(due, customer.balance);
            const unrecovered = due - points;
            const { entry, balance } = await ledger.post(tx, customer, {
              kind: 'return',
              points: -points,
              invdate: given.returnDate,
              narration:
                `Return ${given.returnNo} of invoice ${given.invoiceNo}${inBranch(machine)}` +
                (unrecovered > 0 ? `, ${unrecovered} points unrecovered` : ''),
              branchId: machine.branchId,
              saleEntryMrn: sale.entryMrn,
            });
            const answer: ReturnAnswer = { points, unrecovered, balance };
            await posRepo.updateReturn(tx, returnId, {
              saleId: sale.id,
              amountPaise: amount,
              eligiblePaise: eligible,
              points,
              unrecovered,
              entryMrn: entry.mrn,
              response: answer,
            });
            await audit(tx, machine, 'pos.return', entry.mrn, {
              returnNo: given.returnNo,
              invoiceNo: given.invoiceNo,
              points,
              unrecovered,
            });
            return answer;
          },
        }),
      );
    },

    async redeem(machine: Machine, given: PosRedemptionRequest) {
      const requestHash = hashOf(given);
      return db.transaction(async (tx) =>
        postDocument<RedemptionAnswer>(tx, {
          requestHash,
          clash: POS_MESSAGES.redemptionConflict,
          // Its points went back: answering the old success would give the discount again
          // without taking them.
          refused: (posted) => (posted.cancelledAt ? POS_MESSAGES.redemptionCancelled : undefined),
          find: () => posRepo.findRedemption(tx, machine.branchCode, given.invoiceNo),
          claim: () =>
            posRepo.claimRedemption(tx, {
              branchCode: machine.branchCode,
              invoiceNo: given.invoiceNo,
              requestHash,
              apiKeyId: machine.id,
            }),
          post: async (redemptionId) => {
            const { customer, entry, balance, valuePaise } = await redeemPoints(
              tx,
              { ledger, notices },
              {
                mobile: given.mobile,
                points: given.points,
                invdate: today(),
                described: `, invoice ${given.invoiceNo}${inBranch(machine)}`,
                branchId: machine.branchId,
              },
            );
            const answer: RedemptionAnswer = {
              points: given.points,
              value: rupeesOfPaise(valuePaise),
              balance,
            };
            await posRepo.updateRedemption(tx, redemptionId, {
              customerId: customer.id,
              points: given.points,
              valuePaise,
              entryMrn: entry.mrn,
              response: answer,
            });
            await audit(tx, machine, 'pos.redeem', entry.mrn, {
              invoiceNo: given.invoiceNo,
              points: given.points,
            });
            return answer;
          },
        }),
      );
    },

    /** The sale was abandoned: the points go back to the lots they came from. */
    async cancelRedemption(machine: Machine, invoiceNo: string) {
      return db.transaction(async (tx) => {
        const redemption = await posRepo.findRedemption(tx, machine.branchCode, invoiceNo, {
          lock: true,
        });
        if (!redemption?.customerId || !redemption.entryMrn)
          throw new NotFoundError(POS_MESSAGES.redemptionNotFound);
        // The counter that gave the discount takes it back; another till of the branch cannot.
        if (redemption.apiKeyId !== null && redemption.apiKeyId !== machine.id)
          throw new ConflictError(POS_MESSAGES.redemptionOfOtherCounter);
        const customer = await lockedBalance(tx, redemption.customerId);
        // Already cancelled (the answer lost and the call repeated): nothing more to do.
        if (redemption.cancelledAt) return { points: redemption.points, balance: customer.balance };
        const { entry, balance } = await ledger.post(tx, customer, {
          kind: 'cancel',
          points: redemption.points,
          invdate: today(),
          narration: `Redemption cancelled, invoice ${invoiceNo}${inBranch(machine)}`,
          branchId: machine.branchId,
          cancels: redemption.entryMrn,
        });
        await posRepo.updateRedemption(tx, redemption.id, {
          cancelledAt: new Date(),
          cancelEntryMrn: entry.mrn,
        });
        await audit(tx, machine, 'pos.redeemCancel', entry.mrn, {
          invoiceNo,
          points: redemption.points,
        });
        return { points: redemption.points, balance };
      });
    },

    async customer(mobile: string) {
      return db.transaction(
        async (tx) => {
          const customer = await accounts.findByMobile(tx, mobile);
          if (!customer) throw new NotFoundError(POS_MESSAGES.customerNotFound);
          const rules = await rulesRepo.current(tx);
          const day = today();
          return {
            custname: cleanName(customer.custname),
            balance: customer.balance,
            value: rupeesOfPaise(pointsWorthPaise(customer.balance, rules.pointValuePaise)),
            expiringIn30Days: await lotsRepo.expiringBy(
              tx,
              customer.id,
              day,
              addDays(day, LIMITS.pointsExpiringWithinDays),
            ),
            ...(await tierStandingOf(tx, customer.id, day)),
          };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },
  };
}

/**
 * A counter's document (a sale, return or redemption), posted once per number and branch:
 * a repeat with the same contents gets the stored answer without a write (not even a
 * used-up id), other contents `clash` (409). The document is claimed by its number before
 * anything is posted; of two identical posts at once, the second waits on the first's claim
 * and answers as a repeat. `post` writes the change and stores its answer on the document.
 */
async function postDocument<Answer>(
  tx: Tx,
  document: {
    requestHash: string;
    clash: string;
    /** The document as the caller found it with its own first reads (undefined: not posted). */
    posted?: { requestHash: string; response: unknown; cancelledAt?: Date | null };
    find(): Promise<
      { requestHash: string; response: unknown; cancelledAt?: Date | null } | undefined
    >;
    /** Why a posted document may not be answered again, if it may not. */
    refused?(posted: { cancelledAt?: Date | null }): string | undefined;
    claim(): Promise<number | undefined>;
    post(id: number): Promise<Answer>;
  },
): Promise<Answer> {
  const repeat = (posted: Awaited<ReturnType<typeof document.find>>) => {
    if (!posted) return undefined;
    const refusal = document.refused?.(posted);
    if (refusal) throw new ConflictError(refusal);
    if (posted.requestHash !== document.requestHash) throw new ConflictError(document.clash);
    return posted.response as Answer;
  };
  const earlier = repeat('posted' in document ? document.posted : await document.find());
  if (earlier) return earlier;
  const id = await document.claim();
  // Posted at the same moment by another call, which has now committed.
  if (id === undefined) return repeat(await document.find())!;
  return document.post(id);
}

interface SaleAnswer {
  custid: number;
  points: number;
  balance: number;
  eligibleAmount: number;
  expiresOn: string | null;
  tier?: string | null;
}
interface ReturnAnswer {
  points: number;
  unrecovered: number;
  balance: number;
}
interface RedemptionAnswer {
  points: number;
  value: number;
  balance: number;
}
