import {
  CASHCR,
  cleanName,
  ENTRY_SOURCE,
  financialYearStart,
  MESSAGES,
  OPENING_BALANCE_NARRATION,
  POINTS_DEFAULT_NARRATION,
  type PointsForm,
  type PointsStatementFilter,
  type StatementRow,
} from '@kanak/contract';
import type { Db, Tx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { assertOwnBranch, type BranchStaff } from '../../lib/branch-scope.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import type { StaffActor, StaffIdentity } from '../../plugins/types.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { NoticeQueue } from '../notices/notices.outbox.js';
import { pointsRepo, type EntryRow } from './points.repo.js';
import { expiryOf, lotsRepo } from './points.lots.js';
import { rulesRepo } from './points.rules.js';

export type PointsService = ReturnType<typeof createPointsService>;

interface Customer {
  id: number;
  custname: string;
  mobileno: string;
  balance: number;
}

/** What the ledger needs of the customers table, which the customers module owns. */
export type LedgerCustomers = Pick<
  CustomersRepo,
  'changeBalanceByMobile' | 'lockBalancesById' | 'findBalanceByMobile' | 'addToBalance'
>;

interface Deps {
  db: Db;
  today: () => string;
  customers: LedgerCustomers;
  /** Tells the customer of a credit or deduction by staff, in the change's transaction. */
  notices: NoticeQueue;
}

export function createPointsService({ db, today, customers, notices }: Deps) {
  const assertNotFuture = (date: string) => {
    if (date > today()) throw new InvalidInputError(MESSAGES.entryDateInFuture);
  };

  return {
    /** Credits or deducts points; a deduction never takes the balance below zero. */
    async updatePoints(actor: StaffActor, form: PointsForm) {
      assertNotFuture(form.INVDATE);
      return db.transaction(async (tx) => {
        const { credit, debit } = sides(form);
        const customer = await customers.changeBalanceByMobile(tx, form.MOBILENO, credit - debit);
        if (!customer) {
          const known = await customers.findBalanceByMobile(tx, form.MOBILENO);
          if (!known) throw new NotFoundError(MESSAGES.customerNotFound);
          throw new ConflictError(MESSAGES.insufficientPoints(known.balance));
        }
        const entry = await pointsRepo.insertEntry(tx, {
          customerId: customer.id,
          invdate: form.INVDATE,
          narration: form.NARRATION || POINTS_DEFAULT_NARRATION[form.CASHCR],
          credit,
          debit,
          source: ENTRY_SOURCE.manual,
          branchId: actor.branchId,
          createdBy: actor.id,
        });
        // A credit is a lot expiring by the rules in force; a debit takes the soonest-expiring.
        if (credit > 0) {
          const rules = await rulesRepo.current(tx);
          await lotsRepo.insert(tx, {
            customerId: customer.id,
            entryMrn: entry.mrn,
            earnedOn: form.INVDATE,
            expiresOn: expiryOf(form.INVDATE, rules.expiryMonths),
            points: credit,
          });
        } else {
          await lotsRepo.take(tx, customer.id, debit, { entryMrn: entry.mrn });
        }
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
        const target = await customers.findBalanceByMobile(tx, form.MOBILENO);
        if (!target) throw new NotFoundError(MESSAGES.customerNotFound);

        const locked = await customers.lockBalancesById(tx, [
          ...new Set([before.customerId, target.id]),
        ]);
        const { credit, debit } = sides(form);
        await moveEffect(tx, customers, locked, before, { customerId: target.id, credit, debit });
        await moveLots(tx, today(), before, {
          customerId: target.id,
          credit,
          debit,
          invdate: form.INVDATE,
        });
        const after = await pointsRepo.updateEntry(tx, before.mrn, {
          customerId: target.id,
          invdate: form.INVDATE,
          narration: form.NARRATION || POINTS_DEFAULT_NARRATION[form.CASHCR],
          credit,
          debit,
          updatedBy: actor.id,
        });
        await pointsRepo.insertHistory(tx, before.mrn, before, after, actor.id);
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
     * The ledger for a date range, opening with the balance brought forward; read `from` the
     * reports replica when the route chooses it.
     */
    async statement(filter: PointsStatementFilter, from: Db): Promise<StatementRow[]> {
      // One snapshot for both reads: an edit moving an entry across DFROM in between would
      // otherwise count it twice or not at all.
      return from.transaction(
        async (tx) => {
          const customer = await customers.findBalanceByMobile(tx, filter.MOBILENO);
          if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
          const opening = await pointsRepo.openingBalance(tx, customer.id, filter.DFROM);
          const entries = await pointsRepo.entriesBetween(
            tx,
            customer.id,
            filter.DFROM,
            filter.DTO,
          );
          const rows = entries.map((entry) => toStatementRow(entry, customer));
          return opening.entries === 0 ? rows : [openingRow(opening.net, customer), ...rows];
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
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

/** Takes the old entry's effect off its customer and puts the new one on; no balance below 0. */
async function moveEffect(
  tx: Tx,
  customers: Pick<LedgerCustomers, 'addToBalance'>,
  locked: Customer[],
  before: EntryRow,
  after: Pick<EntryRow, 'customerId' | 'credit' | 'debit'>,
) {
  const balances = new Map(locked.map((customer) => [customer.id, customer.balance]));
  const deltas = new Map<number, number>();
  const add = (id: number, delta: number) => deltas.set(id, (deltas.get(id) ?? 0) + delta);
  add(before.customerId, -effectOf(before).points);
  add(after.customerId, effectOf(after).points);

  for (const [customerId, delta] of deltas) {
    const balance = balances.get(customerId) ?? 0;
    if (balance + delta < 0) {
      const customer = locked.find((c) => c.id === customerId)!;
      const available =
        customerId === after.customerId
          ? balance - (customerId === before.customerId ? effectOf(before).points : 0)
          : balance;
      // A negative "available" means other rows already spent this entry's credit.
      throw new ConflictError(
        customerId === after.customerId && after.debit > 0 && available >= 0
          ? MESSAGES.insufficientPoints(available)
          : MESSAGES.balanceWouldGoNegative(customer.mobileno),
      );
    }
  }
  for (const [customerId, delta] of deltas) await customers.addToBalance(tx, customerId, delta);
}

/**
 * Keeps the lots equal to the balances when a manual row is edited: the old row's effect on
 * the lots is undone and the new one made. A credit keeps its own lot (a smaller credit takes
 * from that lot first, then from the soonest-expiring); a debit's takes go back to their lots
 * and the new debit takes afresh. Increases come first, so the lots never run short midway.
 */
async function moveLots(
  tx: Tx,
  today: string,
  before: EntryRow,
  after: { customerId: number; credit: number; debit: number; invdate: string },
) {
  const lot = await lotsRepo.findByEntry(tx, before.mrn);
  const expiresOn = expiryOf(after.invdate, (await rulesRepo.current(tx)).expiryMonths);
  const dated = { earnedOn: after.invdate, expiresOn };
  if (before.debit > 0) await lotsRepo.giveBack(tx, before.mrn, before.customerId, today);
  if (lot && after.credit > 0 && lot.customerId === after.customerId) {
    // A credit staying a credit of the same customer: its lot grows or shrinks.
    const change = after.credit - before.credit;
    if (change >= 0) {
      await lotsRepo.updateLot(tx, lot.id, {
        ...dated,
        points: after.credit,
        remaining: lot.remaining + change,
      });
    } else {
      await lotsRepo.updateLot(tx, lot.id, { ...dated, points: after.credit });
      await lotsRepo.take(tx, lot.customerId, -change, { preferLotId: lot.id });
    }
    return;
  }
  if (lot && before.credit > 0) {
    // The old credit leaves its customer: from its own lot first, the rest already spent.
    await lotsRepo.take(tx, lot.customerId, before.credit, { preferLotId: lot.id });
  }
  if (after.credit > 0) {
    if (lot) {
      await lotsRepo.updateLot(tx, lot.id, {
        ...dated,
        customerId: after.customerId,
        points: after.credit,
        remaining: after.credit,
      });
    } else {
      await lotsRepo.insert(tx, {
        ...dated,
        customerId: after.customerId,
        entryMrn: before.mrn,
        points: after.credit,
      });
    }
  } else {
    if (lot) await lotsRepo.updateLot(tx, lot.id, { points: 0, remaining: 0 });
    await lotsRepo.take(tx, after.customerId, after.debit, { entryMrn: before.mrn });
  }
}

function toStatementRow(entry: EntryRow, customer: Customer): StatementRow {
  return {
    MRN: entry.mrn,
    INVDATE: entry.invdate,
    NARRATION: entry.narration,
    SALEAMT: entry.saleAmountPaise / 100,
    RCREDIT: entry.credit,
    RDEBIT: entry.debit,
    TS: entry.source,
    CUSTNAME: cleanName(customer.custname),
    MOBILENO: customer.mobileno,
    CASHCR: entry.credit > 0 ? CASHCR.credit : CASHCR.debit,
  };
}

/** INVDATE null: the screen shows the statement's "Date from" on this line. */
function openingRow(net: number, customer: Customer): StatementRow {
  return {
    MRN: 0,
    INVDATE: null,
    NARRATION: OPENING_BALANCE_NARRATION,
    SALEAMT: 0,
    RCREDIT: Math.max(net, 0),
    RDEBIT: Math.max(-net, 0),
    TS: ENTRY_SOURCE.opening,
    CUSTNAME: cleanName(customer.custname),
    MOBILENO: customer.mobileno,
    CASHCR: net >= 0 ? CASHCR.credit : CASHCR.debit,
  };
}
