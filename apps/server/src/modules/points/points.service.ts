import type { Reader, Reads } from '../../db/reads.js';
import {
  pointsWorthPaise,
  rupeesOfPaise,
  CASHCR,
  cleanName,
  ENTRY_SOURCE,
  financialYearStart,
  MESSAGES,
  OPENING_BALANCE_NARRATION,
  POINTS_DEFAULT_NARRATION,
  type CounterRedemptionAnswer,
  type PointsForm,
  type PointsStatementFilter,
  type StatementRow,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { readSnapshot } from '../../db/snapshot.js';
import { recordAudit } from '../../lib/audit.js';
import { assertOwnBranch, type BranchStaff } from '../../lib/branch-scope.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import type { StaffActor, StaffIdentity } from '../../plugins/types.js';
import type { NoticeQueue } from '../../lib/notice-queue.js';
import { pointsRepo, type EntryRow, type StatementEntry } from './points.repo.js';
import { createLedger, pointsAccountsRepo as accounts } from './points.ledger.js';
import { atTheCounter, recordCounterRedemption, redeemPoints } from './points.redeem.js';
import { tierStandingOf } from './points.tiers.js';
import { rulesRepo } from './points.rules.js';

export type PointsService = ReturnType<typeof createPointsService>;

interface Customer {
  id: number;
  custname: string;
  mobileno: string;
}

interface Deps {
  db: Db;
  /** Where the statements read: the reports replica when it may answer the staff member. */
  reads: Pick<Reads, 'run'>;
  today: () => string;
  /** Tells the customer of a credit or deduction by staff, in the change's transaction. */
  notices: NoticeQueue;
}

export function createPointsService({ db, reads, today, notices }: Deps) {
  const ledger = createLedger();
  const assertNotFuture = (date: string) => {
    if (date > today()) throw new InvalidInputError(MESSAGES.entryDateInFuture);
  };

  return {
    /** Credits or deducts points; a deduction never takes the balance below zero. */
    async updatePoints(actor: StaffActor, form: PointsForm) {
      assertNotFuture(form.INVDATE);
      return db.transaction(async (tx) => {
        const { credit, debit } = sides(form);
        const posted = await ledger.postByMobile(tx, form.MOBILENO, {
          kind: 'manual',
          points: credit - debit,
          invdate: form.INVDATE,
          narration: form.NARRATION || POINTS_DEFAULT_NARRATION[form.CASHCR],
          branchId: actor.branchId,
          createdBy: actor.id,
        });
        if (!posted) {
          const known = await accounts.findByMobile(tx, form.MOBILENO);
          if (!known) throw new NotFoundError(MESSAGES.customerNotFound);
          throw new ConflictError(MESSAGES.insufficientPoints(known.balance));
        }
        const { entry, customer } = posted;
        await recordAudit(tx, {
          userId: actor.id,
          action: form.CASHCR === CASHCR.credit ? 'points.credit' : 'points.debit',
          entity: 'points_entry',
          entityId: entry.mrn,
          after: {
            invdate: form.INVDATE,
            credit,
            debit,
            narration: entry.narration,
            balance: customer.balance,
          },
          mobile: form.MOBILENO,
        });
        await notices.queue(tx, {
          event: 'pointsAdjusted',
          customerId: customer.id,
          branchId: actor.branchId,
          facts: { points: credit > 0 ? `+${credit}` : `-${debit}` },
        });
        return { ...entry, balance: customer.balance };
      });
    },

    /** The customer's balance, its worth and the rules' minimum, shown before redeeming. */
    async redeemTerms(mobile: string) {
      return db.transaction(async (tx) => {
        const rules = await rulesRepo.current(tx);
        const customer = await accounts.findByMobile(tx, mobile);
        if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
        return {
          balance: customer.balance,
          value: rupeesOfPaise(pointsWorthPaise(customer.balance, rules.pointValuePaise)),
          pointValue: rupeesOfPaise(rules.pointValuePaise),
          minRedeemPoints: rules.minRedeemPoints,
          ...(await tierStandingOf(tx, customer.id, today())),
        };
      });
    },

    /**
     * Redeems a customer's points at the counter (the rules as the billing system's
     * redemptions). Customers belong to the whole chain, so any branch may redeem; the row is
     * the staff member's branch's.
     */
    async redeem(
      actor: StaffActor,
      given: { mobile: string; points: number; invoiceNo?: string | undefined },
    ): Promise<CounterRedemptionAnswer> {
      return db.transaction(async (tx) => {
        const { entry, balance, valuePaise } = await redeemPoints(
          tx,
          { ledger, notices },
          {
            mobile: given.mobile,
            points: given.points,
            invdate: today(),
            described: atTheCounter(given.invoiceNo),
            branchId: actor.branchId,
            createdBy: actor.id,
          },
        );
        await recordCounterRedemption(tx, {
          entryMrn: entry.mrn,
          invoiceNo: given.invoiceNo,
          valuePaise,
        });
        const value = rupeesOfPaise(valuePaise);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'points.redeem',
          entity: 'points_entry',
          entityId: entry.mrn,
          after: { points: given.points, value, balance, invoiceNo: given.invoiceNo || null },
          mobile: given.mobile,
        });
        return { points: given.points, value, balance };
      });
    },

    /**
     * Edits a manual ledger row of the caller's branch (any branch's for the owner), possibly
     * moving it to another customer; keeps history.
     */
    async updateStatement(actor: StaffIdentity & BranchStaff, form: PointsForm & { MRN: number }) {
      assertNotFuture(form.INVDATE);
      return db.transaction(async (tx) => {
        const before = await pointsRepo.findEntryForUpdate(tx, form.MRN);
        if (!before) throw new NotFoundError(MESSAGES.entryNotFound);
        // A manager corrects their own branch's entries; the customer may be anyone's.
        assertOwnBranch(actor, before.branchId);
        if (before.source !== ENTRY_SOURCE.manual)
          throw new ConflictError(MESSAGES.onlyManualEntries);
        const target = await accounts.findByMobile(tx, form.MOBILENO);
        if (!target) throw new NotFoundError(MESSAGES.customerNotFound);

        const locked = await accounts.lockById(tx, [...new Set([before.customerId, target.id])]);
        const { credit, debit } = sides(form);
        const after = await ledger.edit(
          tx,
          locked,
          before,
          {
            customerId: target.id,
            invdate: form.INVDATE,
            narration: form.NARRATION || POINTS_DEFAULT_NARRATION[form.CASHCR],
            credit,
            debit,
            updatedBy: actor.id,
          },
          today(),
        );
        await recordAudit(tx, {
          userId: actor.id,
          action: 'points.edit',
          entity: 'points_entry',
          entityId: before.mrn,
          before: { ...effectOf(before), invdate: before.invdate, narration: before.narration },
          after: {
            ...effectOf(after),
            mobileno: form.MOBILENO,
            invdate: after.invdate,
            narration: after.narration,
          },
          mobile: form.MOBILENO,
        });
        return after;
      });
    },

    /**
     * The ledger for a date range, opening with the balance brought forward; read from the
     * reports replica when it may answer `reader`.
     */
    async statement(reader: Reader, filter: PointsStatementFilter): Promise<StatementRow[]> {
      // One snapshot for both reads: an edit moving an entry across DFROM in between would
      // otherwise count it twice or not at all.
      return reads.run(reader, ({ pool }) =>
        readSnapshot(pool, async (tx) => {
          const customer = await accounts.findByMobile(tx, filter.MOBILENO);
          if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
          const opening = await pointsRepo.openingBalance(tx, customer.id, filter.DFROM);
          const entries = await pointsRepo.entriesBetween(
            tx,
            customer.id,
            filter.DFROM,
            filter.DTO,
          );
          // The name as every row shows it, cleaned once.
          const shown = { custname: cleanName(customer.custname), mobileno: customer.mobileno };
          const rows = entries.map((entry) => toStatementRow(entry, shown));
          return opening.entries === 0 ? rows : [openingRow(opening.net, shown), ...rows];
        }),
      );
    },

    financialYearStart: () => financialYearStart(today()),
  };
}

function sides(form: Pick<PointsForm, 'CASHCR' | 'POINTS'>) {
  return form.CASHCR === CASHCR.credit
    ? { credit: form.POINTS, debit: 0 }
    : { credit: 0, debit: form.POINTS };
}

const effectOf = (entry: Pick<EntryRow, 'customerId' | 'credit' | 'debit'>) => ({
  customerId: entry.customerId,
  points: entry.credit - entry.debit,
});

/** The customer as a statement's rows show them, their name cleaned. */
type Shown = Pick<Customer, 'custname' | 'mobileno'>;

function toStatementRow(entry: StatementEntry, customer: Shown): StatementRow {
  return {
    MRN: entry.mrn,
    INVDATE: entry.invdate,
    NARRATION: entry.narration,
    SALEAMT: entry.saleAmountPaise / 100,
    RCREDIT: entry.credit,
    RDEBIT: entry.debit,
    TS: entry.source,
    CUSTNAME: customer.custname,
    MOBILENO: customer.mobileno,
    CASHCR: entry.credit > 0 ? CASHCR.credit : CASHCR.debit,
  };
}

/** INVDATE null: the screen shows the statement's "Date from" on this line. */
function openingRow(net: number, customer: Shown): StatementRow {
  return {
    MRN: 0,
    INVDATE: null,
    NARRATION: OPENING_BALANCE_NARRATION,
    SALEAMT: 0,
    RCREDIT: Math.max(net, 0),
    RDEBIT: Math.max(-net, 0),
    TS: ENTRY_SOURCE.opening,
    CUSTNAME: customer.custname,
    MOBILENO: customer.mobileno,
    CASHCR: net >= 0 ? CASHCR.credit : CASHCR.debit,
  };
}
