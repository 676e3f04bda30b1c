import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ENTRY_SOURCE, MESSAGES } from '@kanak/contract';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import { copyRows } from '../../db/copy.js';
import {
  pointsAccounts,
  pointsEntries,
  pointsEntryHistory,
  pointsLots,
  pointsLotTakes,
} from '../../db/schema.js';
import { ConflictError, DataFaultError, NotFoundError } from '../../lib/errors.js';
import { namesIn, withoutNaming, type Naming } from '../../lib/naming.js';
import { expiryOf } from './points.lots.js';
import { rulesRepo } from './points.rules.js';

/**
 * The points ledger: the only code that writes ledger rows, points lots and their takes, and
 * the balance. Every change of a customer's points goes through here and writes all three in
 * the caller's transaction, so the balance, the ledger's sum and the open lots always agree
 * (`npm run check-ledger` checks them).
 *
 * The balance is the customer's points account (points_accounts), and its row is what a change
 * locks: first the account, then anything else of the customer's (their lots; the customers
 * row, which a ledger row's foreign key holds). An erasure locks the account before the
 * customers row too, so the two can never deadlock.
 */

/** A ledger row as read, and as the ledger writes one (the database numbers and dates it). */
export type EntryRow = typeof pointsEntries.$inferSelect;
type NewEntry = Omit<typeof pointsEntries.$inferInsert, 'mrn' | 'createdAt'>;

/**
 * The customer with this mobile number and their balance: every statement and redemption
 * asks it first, so its text is written once. $1 the mobile number.
 */
const ACCOUNT_BY_MOBILE: Statement = {
  name: '',
  text: `SELECT a.customer_id AS id, c.custname, c.mobileno, a.balance
           FROM points_accounts a JOIN customers c ON c.id = a.customer_id
          WHERE c.mobileno = $1`,
};

export const pointsAccountsRepo = {
  /** The customer with this mobile number and their balance, as it stands (no lock). */
  async findByMobile(tx: Tx, mobileno: string) {
    const [row] = await runStatement<{
      id: number;
      custname: string;
      mobileno: string;
      balance: number;
    }>(tx, ACCOUNT_BY_MOBILE, [mobileno]);
    return row;
  },

  /**
   * The customer with this mobile number, their account locked until the transaction ends.
   * The customers row is share-locked after the account (FOR KEY SHARE, as a ledger row's
   * foreign key takes it anyway): a number erased while this waited for the account is read
   * again as it now stands, and is no longer found.
   */
  async lockByMobile(tx: Tx, mobileno: string) {
    // Raw SQL: drizzle names one lock per query. The accounts first, as in the clauses' order.
    const result = await tx.execute<{
      id: number;
      custname: string;
      mobileno: string;
      balance: number;
    }>(sql`
      SELECT a.customer_id AS id, c.custname, c.mobileno, a.balance
        FROM points_accounts a JOIN customers c ON c.id = a.customer_id
       WHERE c.mobileno = ${mobileno}
         FOR UPDATE OF a FOR KEY SHARE OF c`);
    return result.rows[0];
  },

  /** Several accounts locked in id order, so two changes can never wait on each other. */
  lockById(tx: Tx, ids: number[]) {
    return tx
      .select({ id: pointsAccounts.customerId, balance: pointsAccounts.balance })
      .from(pointsAccounts)
      .where(inArray(pointsAccounts.customerId, ids))
      .orderBy(asc(pointsAccounts.customerId))
      .for('update');
  },
};
export type PointsAccountsRepo = typeof pointsAccountsRepo;

/** What a change is, which decides its ledger code and what it does to the lots. */
export type PostingKind = 'manual' | 'sale' | 'return' | 'redemption' | 'cancel';

const SOURCE: Record<PostingKind, string> = {
  manual: ENTRY_SOURCE.manual,
  sale: ENTRY_SOURCE.sale,
  return: 'X',
  redemption: 'R',
  // A cancelled redemption gives its points back on a row of the redemption's own code.
  cancel: 'R',
};

export interface Posting {
  kind: PostingKind;
  /** Points credited (above zero) or taken (below zero). */
  points: number;
  invdate: string;
  narration: string;
  /** The branch the row belongs to: the staff member's, or the counter's key's. */
  branchId: number;
  createdBy?: number;
  /** A sale's whole invoice amount. */
  saleAmountPaise?: number;
  /** A sale's lot: when it expires by the sale's own rules (a manual credit: by those in force). */
  expiresOn?: string | null;
  /** A return: the sale's ledger row, whose lot gives the points back first. */
  saleEntryMrn?: number | null;
  /** A cancel: the redemption's ledger row, whose points go back to the lots they came from. */
  cancels?: number;
}

interface LockedCustomer {
  id: number;
  balance: number;
}

/**
 * A credit (or a sale of no points) to the customer with this mobile number, in one statement:
 * their account locked as `lockByMobile` locks it, then the ledger row, its lot and the new
 * balance. The account's update follows the lock to the row as locked, so the balance is
 * the one the lock read plus the credit. No row: no customer has the number.
 * $1 mobile, $2 branch, $3 date, $4 narration, $5 sale amount, $6 points, $7 the lot's expiry,
 * $8 code, $9 staff member.
 */
const CREDIT_BY_MOBILE: Statement = {
  name: 'ledger_credit_by_mobile',
  text: `
    WITH account AS (
      SELECT a.customer_id AS id, c.custname, c.mobileno, a.balance
        FROM points_accounts a JOIN customers c ON c.id = a.customer_id
       WHERE c.mobileno = $1::text
         FOR UPDATE OF a FOR KEY SHARE OF c
    ), entry AS (
      INSERT INTO points_entries
             (branch_id, customer_id, invdate, narration, sale_amount_paise, credit, debit, ts, created_by)
      SELECT $2::int, id, $3::date, $4::text, $5::bigint, $6::int, 0, $8::char(1), $9::int FROM account
      RETURNING *
    ), lot AS (
      INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
      SELECT customer_id, mrn, invdate, $7::date, credit, credit FROM entry WHERE credit > 0
    ), credited AS (
      UPDATE points_accounts a SET balance = a.balance + $6::int
        FROM account WHERE a.customer_id = account.id AND $6::int > 0
    )
    SELECT account.id, account.custname, account.mobileno, account.balance + $6::int AS balance,
           entry.mrn, entry.customer_id, entry.invdate, entry.narration, entry.sale_amount_paise,
           entry.credit, entry.debit, entry.ts, entry.branch_id, entry.created_by,
           entry.created_at, entry.updated_by, entry.updated_at
      FROM account, entry`,
};

/**
 * The same credit for a customer whose account the caller holds locked: the ledger row, its lot
 * and the new balance in one statement. $1 customer, $2 branch, $3 date, $4 narration, $5 sale
 * amount, $6 points, $7 the lot's expiry, $8 code, $9 staff member.
 */
const CREDIT_LOCKED: Statement = {
  name: 'ledger_credit_locked',
  text: `
    WITH entry AS (
      INSERT INTO points_entries
             (branch_id, customer_id, invdate, narration, sale_amount_paise, credit, debit, ts, created_by)
      VALUES ($2::int, $1::int, $3::date, $4::text, $5::bigint, $6::int, 0, $8::char(1), $9::int)
      RETURNING *
    ), lot AS (
      INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
      SELECT customer_id, mrn, invdate, $7::date, credit, credit FROM entry WHERE credit > 0
    ), credited AS (
      UPDATE points_accounts SET balance = balance + $6::int
       WHERE customer_id = $1::int AND $6::int > 0
    )
    SELECT $1::int AS id, null AS custname, null AS mobileno, null::int AS balance,
           entry.mrn, entry.customer_id, entry.invdate, entry.narration, entry.sale_amount_paise,
           entry.credit, entry.debit, entry.ts, entry.branch_id, entry.created_by,
           entry.created_at, entry.updated_by, entry.updated_at
      FROM entry`,
};

interface CreditedRow {
  id: number;
  custname: string;
  mobileno: string;
  balance: number;
  mrn: number;
  customer_id: number;
  invdate: string;
  narration: string;
  sale_amount_paise: number;
  credit: number;
  debit: number;
  ts: string;
  branch_id: number;
  created_by: number | null;
  created_at: Date;
  updated_by: number | null;
  updated_at: Date | null;
}

/** A credit in one statement: to the customer with `who` as their mobile number, or by id. */
async function credit(
  tx: Tx,
  who: { mobileno: string } | { lockedId: number },
  posting: Posting,
  expiresOn: string | null,
) {
  const [row] = await runStatement<CreditedRow>(
    tx,
    'mobileno' in who ? CREDIT_BY_MOBILE : CREDIT_LOCKED,
    [
      'mobileno' in who ? who.mobileno : who.lockedId,
      posting.branchId,
      posting.invdate,
      posting.narration,
      posting.saleAmountPaise ?? 0,
      posting.points,
      expiresOn,
      SOURCE[posting.kind],
      posting.createdBy ?? null,
    ],
  );
  if (!row) return undefined;
  const entry: EntryRow = {
    mrn: row.mrn,
    customerId: row.customer_id,
    invdate: row.invdate,
    narration: row.narration,
    saleAmountPaise: row.sale_amount_paise,
    credit: row.credit,
    debit: row.debit,
    source: row.ts,
    branchId: row.branch_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
  };
  const customer = {
    id: row.id,
    custname: row.custname,
    mobileno: row.mobileno,
    balance: row.balance,
  };
  return { entry, customer };
}

/** A credit's kinds: a sale (or a sale of no points) and a staff credit. */
const isCredit = (posting: Posting) =>
  posting.points >= 0 && (posting.kind === 'sale' || posting.kind === 'manual');

/** A credit's lot expires by the sale's own rules; a staff credit's by those in force. */
async function expiryOfCredit(tx: Tx, posting: Posting) {
  if (posting.points === 0) return null;
  if (posting.kind === 'sale') return posting.expiresOn ?? null;
  return expiryOf(posting.invdate, (await rulesRepo.current(tx)).expiryMonths);
}

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger() {
  /** A debit's or a cancel's row and its effect on the lots (the balance is the caller's step). */
  async function write(tx: Tx, customerId: number, posting: Posting) {
    const credit = Math.max(posting.points, 0);
    const debit = Math.max(-posting.points, 0);
    const [entry] = await tx
      .insert(pointsEntries)
      .values({
        branchId: posting.branchId,
        customerId,
        invdate: posting.invdate,
        narration: posting.narration,
        ...(posting.saleAmountPaise === undefined
          ? {}
          : { saleAmountPaise: posting.saleAmountPaise }),
        credit,
        debit,
        source: SOURCE[posting.kind],
        ...(posting.createdBy === undefined ? {} : { createdBy: posting.createdBy }),
      } satisfies NewEntry)
      .returning();
    const mrn = entry!.mrn;
    switch (posting.kind) {
      case 'manual':
      case 'sale':
        // Credits are one statement of their own (`credit`): here only a staff deduction.
        await take(tx, customerId, debit, { entryMrn: mrn });
        break;
      case 'return': {
        const saleLot = posting.saleEntryMrn
          ? await lotOfEntry(tx, posting.saleEntryMrn)
          : undefined;
        await take(tx, customerId, debit, { entryMrn: mrn, preferLotId: saleLot?.id });
        break;
      }
      case 'redemption':
        await take(tx, customerId, debit, { entryMrn: mrn });
        break;
      case 'cancel':
        await giveBack(tx, posting.cancels!, customerId, posting.invdate);
        break;
    }
    return entry!;
  }

  return {
    /**
     * Posts a change for a customer whose account the caller holds locked (`customer`, as
     * read under the lock): the ledger row, its lots and the balance. The caller has checked
     * the balance covers a debit.
     */
    async post(tx: Tx, customer: LockedCustomer, posting: Posting) {
      if (isCredit(posting)) {
        // Nothing decides between the caller's lock and the writes: one statement.
        const credited = await credit(
          tx,
          { lockedId: customer.id },
          posting,
          await expiryOfCredit(tx, posting),
        );
        return { entry: credited!.entry, balance: customer.balance + posting.points };
      }
      const entry = await write(tx, customer.id, posting);
      await addToBalance(tx, customer.id, posting.points);
      return { entry, balance: customer.balance + posting.points };
    },

    /**
     * Posts a credit, a sale or a staff deduction by mobile number, the customer's account
     * locked here; a balance never goes below zero. Undefined when nothing changed (an unknown
     * mobile, or too few points).
     */
    async postByMobile(tx: Tx, mobileno: string, posting: Posting) {
      if (isCredit(posting)) {
        // The lock and the writes in one statement, as nothing decides between them.
        return credit(tx, { mobileno }, posting, await expiryOfCredit(tx, posting));
      }
      const locked = await pointsAccountsRepo.lockByMobile(tx, mobileno);
      if (!locked || locked.balance + posting.points < 0) return undefined;
      const entry = await write(tx, locked.id, posting);
      await addToBalance(tx, locked.id, posting.points);
      return { entry, customer: { ...locked, balance: locked.balance + posting.points } };
    },

    /**
     * Edits a manual row, possibly moving it to another customer (both accounts locked by the
     * caller, `locked` as read under the lock): the balances, the lots and the row change
     * together, and the row's history keeps both sides. No balance goes below zero.
     */
    async edit(
      tx: Tx,
      locked: LockedCustomer[],
      before: EntryRow,
      after: {
        customerId: number;
        credit: number;
        debit: number;
        invdate: string;
        narration: string;
        updatedBy: number;
      },
      today: string,
    ) {
      await moveEffect(tx, locked, before, after);
      await moveLots(tx, today, before, after);
      const [row] = await tx
        .update(pointsEntries)
        .set({ ...after, updatedAt: sql`now()` })
        .where(eq(pointsEntries.mrn, before.mrn))
        .returning();
      await tx
        .insert(pointsEntryHistory)
        .values({ mrn: before.mrn, before, after: row!, changedBy: after.updatedBy });
      return row!;
    },
  };
}

/** One customer's opening balance brought in from other software. */
export interface Opening {
  customerId: number;
  points: number;
  /** When the lot expires; null: never. */
  expiresOn: string | null;
}

/**
 * Opening balances brought in from other software, many customers at once: per customer one
 * ledger row of code O and one lot, and the balance raised, in the caller's transaction
 * (`postInBulk`). A customer who already has an opening row is left as they are (an import
 * run again brings nothing twice). Answers the customers credited.
 */
export async function postOpenings(
  tx: Tx,
  openings: Opening[],
  at: { invdate: string; narration: string; branchId: number; createdBy: number | null },
): Promise<number[]> {
  if (openings.length === 0) return [];
  const ids = openings.map((opening) => opening.customerId);
  const idList = `{${ids.join(',')}}`;
  // Locked before the look for an opening row: two imports of one file cannot both miss it.
  await lockAccounts(tx, ids);
  const had = await tx.execute<{ customer_id: number }>(sql`
    SELECT DISTINCT customer_id FROM points_entries
     WHERE customer_id = ANY(${idList}::int[]) AND ts = ${ENTRY_SOURCE.opening}`);
  const skip = new Set(had.rows.map((row) => row.customer_id));
  const fresh = openings
    .filter((opening) => opening.points > 0 && !skip.has(opening.customerId))
    .sort((a, b) => a.customerId - b.customerId);
  await postInBulk(
    tx,
    fresh.map((opening) => ({ ...at, kind: 'opening', ...opening })),
  );
  return fresh.map((opening) => opening.customerId);
}

/** One change of a bulk posting (`postInBulk`). */
export interface BulkPosting {
  customerId: number;
  /** A staff member's credit or deduction (M), a sale (S), an opening balance (O). */
  kind: 'manual' | 'sale' | 'opening';
  /** Points credited (above zero) or taken (below zero). */
  points: number;
  invdate: string;
  narration: string;
  branchId: number;
  createdBy?: number | null;
  /** A sale's whole invoice amount. */
  saleAmountPaise?: number;
  /**
   * When a credit's lot expires (null: never), as the sale's own rules or the other software
   * said; left out, by the rules in force, as a staff member's credit.
   */
  expiresOn?: string | null;
}

const BULK_SOURCE: Record<BulkPosting['kind'], string> = {
  manual: ENTRY_SOURCE.manual,
  sale: ENTRY_SOURCE.sale,
  opening: ENTRY_SOURCE.opening,
};

/**
 * Many changes of many customers' points at once, in the caller's transaction, each as `post`
 * makes it: a credit is a ledger row and a lot, a deduction a ledger row that takes from the
 * customer's lots in the order a debit takes (`byTakeOrder`, recording each take), and the
 * balances move with them. A customer's changes are made in the order given, so a deduction
 * takes from the lots they held then, the ones credited before it in the same call included.
 * The accounts are locked in id order; a deduction beyond a balance is refused (409) and
 * nothing is written. The rows are numbered here from their tables' sequences (so a take can
 * name its lot) and each table written with one COPY: for imports and for loading demo and
 * benchmark data, where a statement per change would take hours. Answers the ledger rows
 * written.
 */
export async function postInBulk(tx: Tx, postings: BulkPosting[]): Promise<number> {
  if (postings.length === 0) return 0;
  const balances = await lockAccounts(
    tx,
    postings.map((posting) => posting.customerId),
  );
  const held = await heldLots(
    tx,
    postings.filter((posting) => posting.points < 0).map((posting) => posting.customerId),
  );
  const undated = postings.some((posting) => posting.points > 0 && posting.expiresOn === undefined);
  const expiryMonths = undated ? (await rulesRepo.current(tx)).expiryMonths : 0;
  const credits = postings.filter((posting) => posting.points > 0).length;
  const mrns = await numbers(tx, 'points_entries', postings.length);
  const lotIds = await numbers(tx, 'points_lots', credits);

  const entries: unknown[][] = [];
  const lots: { row: unknown[]; lot: HeldLot }[] = [];
  const takes: unknown[][] = [];
  const taken = new Map<number, number>();
  const deltas = new Map<number, number>();
  postings.forEach((posting, index) => {
    const mrn = mrns[index]!;
    const { customerId, points } = posting;
    const balance = balances.get(customerId);
    if (balance === undefined) throw new NotFoundError(MESSAGES.customerNotFound);
    if (balance + points < 0) throw new ConflictError(MESSAGES.insufficientPoints(balance));
    balances.set(customerId, balance + points);
    deltas.set(customerId, (deltas.get(customerId) ?? 0) + points);
    entries.push([
      mrn,
      customerId,
      posting.invdate,
      posting.narration,
      posting.saleAmountPaise ?? 0,
      Math.max(points, 0),
      Math.max(-points, 0),
      BULK_SOURCE[posting.kind],
      posting.branchId,
      posting.createdBy ?? null,
    ]);
    const open = held.get(customerId) ?? [];
    held.set(customerId, open);
    if (points > 0) {
      const expiresOn =
        posting.expiresOn === undefined
          ? expiryOf(posting.invdate, expiryMonths)
          : posting.expiresOn;
      const lot = { id: lotIds[lots.length]!, expiresOn, remaining: points };
      open.push(lot);
      lots.push({ row: [lot.id, customerId, mrn, posting.invdate, expiresOn, points], lot });
    } else if (points < 0) {
      const { takes: from, short } = takesFrom(open.sort(byTakeOrder), -points);
      if (short > 0) throw lotsShort(customerId, -points, short);
      for (const one of from) {
        takes.push([mrn, one.lotId, one.points]);
        taken.set(one.lotId, (taken.get(one.lotId) ?? 0) + one.points);
      }
    }
  });
  // The lots made here are written with what is left of them; older ones lose what was taken.
  const fresh = new Set(lots.map(({ lot }) => lot.id));
  const older = [...taken].filter(([id]) => !fresh.has(id));

  await copyRows(tx, ENTRY_COLUMNS, entries);
  await copyRows(
    tx,
    LOT_COLUMNS,
    lots.map(({ row, lot }) => [...row, lot.remaining]),
  );
  await copyRows(tx, TAKE_COLUMNS, takes);
  if (older.length > 0) {
    await runStatement(tx, TAKEN_FROM_OLDER, [
      older.map(([id]) => id),
      older.map(([, points]) => points),
    ]);
  }
  await addToBalances(tx, deltas);
  return postings.length;
}

/** The customers' accounts locked in id order, with their balances. */
async function lockAccounts(tx: Tx, customerIds: number[]) {
  const ids = [...new Set(customerIds)].sort((a, b) => a - b);
  const rows = await runStatement<{ id: number; balance: number }>(tx, LOCK_ACCOUNTS, [ids]);
  return new Map(rows.map((row) => [row.id, row.balance]));
}

/** The open lots of the customers (their accounts locked), locked. */
async function heldLots(tx: Tx, customerIds: number[]) {
  const held = new Map<number, HeldLot[]>();
  if (customerIds.length === 0) return held;
  const rows = await runStatement<HeldLot & { customerId: number }>(tx, HELD_LOTS, [
    [...new Set(customerIds)],
  ]);
  for (const { customerId, ...lot } of rows) {
    const open = held.get(customerId) ?? [];
    open.push(lot);
    held.set(customerId, open);
  }
  return held;
}

/** `count` new numbers of the table's identity, in ascending order. */
async function numbers(tx: Tx, table: 'points_entries' | 'points_lots', count: number) {
  if (count === 0) return [];
  const rows = await runStatement<{ id: number }>(tx, NEXT_NUMBERS, [table, count]);
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

// The bulk path's statements.

const LOCK_ACCOUNTS: Statement = {
  name: 'ledger_bulk_lock',
  text: `SELECT customer_id AS id, balance FROM points_accounts
          WHERE customer_id = ANY($1::int[]) ORDER BY customer_id FOR UPDATE`,
};
const HELD_LOTS: Statement = {
  name: 'ledger_bulk_held',
  text: `SELECT id, customer_id AS "customerId", expires_on AS "expiresOn", remaining FROM points_lots
          WHERE customer_id = ANY($1::int[]) AND remaining > 0 ORDER BY id FOR UPDATE`,
};
/** $1 the table, $2 how many: the identity column's next numbers. */
const NEXT_NUMBERS: Statement = {
  name: 'ledger_bulk_numbers',
  text: `SELECT nextval(pg_get_serial_sequence($1, CASE $1 WHEN 'points_entries' THEN 'mrn' ELSE 'id' END)) AS id
           FROM generate_series(1, $2::int)`,
};
// Written with COPY: the numbers are given, the rows many.
const ENTRY_COLUMNS =
  'points_entries (mrn, customer_id, invdate, narration, sale_amount_paise, credit, debit, ts, branch_id, created_by)';
const LOT_COLUMNS =
  'points_lots (id, customer_id, entry_mrn, earned_on, expires_on, points, remaining)';
const TAKE_COLUMNS = 'points_lot_takes (entry_mrn, lot_id, points)';
const TAKEN_FROM_OLDER: Statement = {
  name: 'ledger_bulk_taken',
  text: `UPDATE points_lots l SET remaining = l.remaining - t.points
           FROM unnest($1::bigint[], $2::int[]) AS t(id, points) WHERE l.id = t.id`,
};

/**
 * Expires the lots `ids` still due by `today` (locked here; their customers' accounts already
 * locked by the caller, in id order): each emptied, one TS E row per lot ("Points
 * expired, earned DD-MM-YYYY", dated the day it expired, in the branch that gave the points),
 * and the balances lowered. Answers the lots and points expired per customer.
 */
export async function expireLots(tx: Tx, ids: number[], today: string) {
  const idList = `{${ids.join(',')}}`;
  // The ids on the updated table too: with the batch's size known, the planner reaches the
  // lots by their primary key rather than joining the whole table.
  const expired = await tx.execute<{ customer_id: number; lots: number; points: number }>(sql`
    WITH due AS MATERIALIZED (
      SELECT id, remaining AS held FROM points_lots
       WHERE id = ANY(${idList}::bigint[]) AND remaining > 0 AND expires_on <= ${today}
       ORDER BY id FOR UPDATE
    ), emptied AS (
      UPDATE points_lots l SET remaining = 0
        FROM due
       WHERE l.id = due.id AND l.id = ANY(${idList}::bigint[])
      RETURNING l.id, l.customer_id, l.branch_id, l.earned_on, l.expires_on, due.held
    ), written AS (
      INSERT INTO points_entries (customer_id, invdate, narration, credit, debit, ts, branch_id)
      SELECT customer_id, expires_on, 'Points expired, earned ' || to_char(earned_on, 'DD-MM-YYYY'),
             0, held, 'E', branch_id
        FROM emptied ORDER BY id
      RETURNING customer_id, debit
    )
    SELECT customer_id, count(*)::int AS lots, sum(debit)::int AS points
      FROM written GROUP BY customer_id`);
  const byCustomer = new Map(expired.rows.map((row) => [row.customer_id, -row.points]));
  await addToBalances(tx, byCustomer);
  return expired.rows;
}

/**
 * An erasure: the customer's narrations typed by staff, in the ledger and in its edit history,
 * become `replacement`, except the ledger's own default words (`keep`). Amounts, dates and
 * codes stay.
 */
export async function eraseNarrations(
  tx: Tx,
  customerId: number,
  replacement: string,
  keep: string[],
) {
  const kept = sql`array[${sql.join(
    keep.map((text) => sql`${text}`),
    sql`, `,
  )}]::text[]`;
  await tx
    .update(pointsEntries)
    .set({ narration: replacement })
    .where(
      and(
        eq(pointsEntries.customerId, customerId),
        eq(pointsEntries.source, ENTRY_SOURCE.manual),
        sql`NOT (${pointsEntries.narration} = ANY(${kept}))`,
      ),
    );
  // Either side of an edit may have been this customer's (an entry moved between customers).
  const side = (column: AnyPgColumn) => sql`CASE
    WHEN ${column}->>'customerId' = ${String(customerId)} AND NOT (${column}->>'narration' = ANY(${kept}))
      THEN jsonb_set(${column}, '{narration}', to_jsonb(${replacement}::text))
    ELSE ${column} END`;
  await tx
    .update(pointsEntryHistory)
    .set({ before: side(pointsEntryHistory.before), after: side(pointsEntryHistory.after) })
    .where(
      sql`${pointsEntryHistory.before}->>'customerId' = ${String(customerId)}
        OR ${pointsEntryHistory.after}->>'customerId' = ${String(customerId)}`,
    );
}

/**
 * An erasure, in other customers' rows: where a narration typed by staff names the erased
 * customer (see `Naming`), the mention becomes `replacement`, in the ledger and in its edit
 * history; the rest of the text stays. Answers the entries changed and the count of history
 * records changed.
 */
export async function eraseNamingInOthers(
  tx: Tx,
  customerId: number,
  naming: Naming,
  replacement: string,
) {
  const entries = await tx
    .update(pointsEntries)
    .set({ narration: withoutNaming(pointsEntries.narration, naming, replacement) })
    .where(
      and(
        // Only staff type narrations; Kanak's own (sales, returns, expiry) name nobody.
        eq(pointsEntries.source, ENTRY_SOURCE.manual),
        ne(pointsEntries.customerId, customerId),
        namesIn(pointsEntries.narration, naming),
      ),
    )
    .returning({ mrn: pointsEntries.mrn });
  // Edits are few beside the ledger: their narrations are read through.
  const side = (column: AnyPgColumn) => {
    const narration = sql`(${column}->>'narration')`;
    return sql`CASE WHEN ${namesIn(narration, naming)}
      THEN jsonb_set(${column}, '{narration}', to_jsonb(${withoutNaming(narration, naming, replacement)}))
      ELSE ${column} END`;
  };
  const history = await tx
    .update(pointsEntryHistory)
    .set({ before: side(pointsEntryHistory.before), after: side(pointsEntryHistory.after) })
    .where(
      sql`${namesIn(sql`(${pointsEntryHistory.before}->>'narration')`, naming)}
        OR ${namesIn(sql`(${pointsEntryHistory.after}->>'narration')`, naming)}`,
    )
    .returning({ id: pointsEntryHistory.id });
  return { mrns: entries.map((entry) => entry.mrn), historyRows: history.length };
}

const effectOf = (entry: Pick<EntryRow, 'customerId' | 'credit' | 'debit'>) => ({
  customerId: entry.customerId,
  points: entry.credit - entry.debit,
});

/** Takes the old entry's effect off its customer and puts the new one on; no balance below 0. */
async function moveEffect(
  tx: Tx,
  locked: LockedCustomer[],
  before: EntryRow,
  after: Pick<EntryRow, 'customerId' | 'credit' | 'debit'>,
) {
  const held = new Map(locked.map((customer) => [customer.id, customer.balance]));
  const deltas = new Map<number, number>();
  const add = (id: number, delta: number) => deltas.set(id, (deltas.get(id) ?? 0) + delta);
  add(before.customerId, -effectOf(before).points);
  add(after.customerId, effectOf(after).points);

  for (const [customerId, delta] of deltas) {
    const balance = held.get(customerId) ?? 0;
    if (balance + delta < 0) {
      const available =
        customerId === after.customerId
          ? balance - (customerId === before.customerId ? effectOf(before).points : 0)
          : balance;
      // A negative "available" means other rows already spent this entry's credit.
      throw new ConflictError(
        customerId === after.customerId && after.debit > 0 && available >= 0
          ? MESSAGES.insufficientPoints(available)
          : MESSAGES.balanceWouldGoNegative(customerId !== after.customerId),
      );
    }
  }
  for (const [customerId, delta] of deltas) await addToBalance(tx, customerId, delta);
}

// The balances. The caller holds the accounts locked and has checked no balance goes below
// zero (the table's check refuses it too).

async function addToBalance(tx: Tx, customerId: number, delta: number) {
  if (delta === 0) return;
  await tx
    .update(pointsAccounts)
    .set({ balance: sql`${pointsAccounts.balance} + ${delta}` })
    .where(eq(pointsAccounts.customerId, customerId));
}

/** Adds each delta to its customer's balance, in one statement. */
export async function addToBalances(tx: Tx, deltas: Map<number, number>) {
  if (deltas.size === 0) return;
  const ids = [...deltas.keys()];
  const amounts = ids.map((id) => deltas.get(id)!);
  // Two PostgreSQL array literals as parameters: one statement whatever the number of rows.
  await tx.execute(sql`
    UPDATE points_accounts a SET balance = a.balance + d.delta
      FROM unnest(${`{${ids.join(',')}}`}::int[], ${`{${amounts.join(',')}}`}::bigint[]) AS d(id, delta)
     WHERE a.customer_id = d.id`);
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
  const lot = await lotOfEntry(tx, before.mrn);
  const expiresOn = expiryOf(after.invdate, (await rulesRepo.current(tx)).expiryMonths);
  const dated = { earnedOn: after.invdate, expiresOn };
  if (before.debit > 0) await giveBack(tx, before.mrn, before.customerId, today);
  if (lot && after.credit > 0 && lot.customerId === after.customerId) {
    // A credit staying a credit of the same customer: its lot grows or shrinks.
    const change = after.credit - before.credit;
    if (change >= 0) {
      await updateLot(tx, lot.id, {
        ...dated,
        points: after.credit,
        remaining: lot.remaining + change,
      });
    } else {
      await updateLot(tx, lot.id, { ...dated, points: after.credit });
      await take(tx, lot.customerId, -change, { preferLotId: lot.id });
    }
    return;
  }
  if (lot && before.credit > 0) {
    // The old credit leaves its customer: from its own lot first, the rest already spent.
    await take(tx, lot.customerId, before.credit, { preferLotId: lot.id });
  }
  if (after.credit > 0) {
    if (lot) {
      await updateLot(tx, lot.id, {
        ...dated,
        customerId: after.customerId,
        points: after.credit,
        remaining: after.credit,
      });
    } else {
      await insertLot(tx, {
        ...dated,
        customerId: after.customerId,
        entryMrn: before.mrn,
        points: after.credit,
      });
    }
  } else {
    if (lot) await updateLot(tx, lot.id, { points: 0, remaining: 0 });
    await take(tx, after.customerId, after.debit, { entryMrn: before.mrn });
  }
}

// The lots. The caller holds the customer's account locked, so a customer's lots change one at
// a time.

async function insertLot(
  tx: Tx,
  lot: {
    customerId: number;
    entryMrn: number;
    earnedOn: string;
    expiresOn: string | null;
    points: number;
  },
) {
  if (lot.points <= 0) return undefined;
  const [row] = await tx
    .insert(pointsLots)
    .values({ ...lot, remaining: lot.points })
    .returning({ id: pointsLots.id });
  return row!.id;
}

/** The lot a credit row made, locked. */
async function lotOfEntry(tx: Tx, entryMrn: number) {
  const [row] = await tx
    .select()
    .from(pointsLots)
    .where(eq(pointsLots.entryMrn, entryMrn))
    .for('update');
  return row;
}

async function updateLot(tx: Tx, id: number, values: Partial<typeof pointsLots.$inferInsert>) {
  await tx.update(pointsLots).set(values).where(eq(pointsLots.id, id));
}

/**
 * Takes `points` from the customer's lots, `preferLotId` first, then those expiring first
 * (never-expiring last); records each take against the debit `entryMrn` when given, so that
 * a cancel can give them back to the same lots. The caller has already checked the balance,
 * which the lots always equal: lots holding too few are a fault in the data, refused (409)
 * and logged, the caller's transaction undone.
 */
async function take(
  tx: Tx,
  customerId: number,
  points: number,
  options: { entryMrn?: number; preferLotId?: number } = {},
) {
  if (points <= 0) return;
  const held = await tx
    .select({ id: pointsLots.id, expiresOn: pointsLots.expiresOn, remaining: pointsLots.remaining })
    .from(pointsLots)
    .where(and(eq(pointsLots.customerId, customerId), gt(pointsLots.remaining, 0)))
    .orderBy(asc(pointsLots.id))
    .for('update');
  const prefer = options.preferLotId;
  const { takes, short } = takesFrom(
    held.sort((a, b) => Number(b.id === prefer) - Number(a.id === prefer) || byTakeOrder(a, b)),
    points,
  );
  if (short > 0) throw lotsShort(customerId, points, short);
  for (const taken of takes) {
    await tx
      .update(pointsLots)
      .set({ remaining: sql`${pointsLots.remaining} - ${taken.points}` })
      .where(eq(pointsLots.id, taken.lotId));
  }
  if (options.entryMrn !== undefined) {
    await tx
      .insert(pointsLotTakes)
      .values(takes.map((taken) => ({ ...taken, entryMrn: options.entryMrn! })));
  }
}

/** A lot as a debit takes from it. */
interface HeldLot {
  id: number;
  expiresOn: string | null;
  remaining: number;
}

/**
 * The order a debit takes a customer's points in: from the lot that expires first, those that
 * never expire last, the older of two that expire together first. `take` and `postInBulk`
 * both take in it.
 */
const byTakeOrder = (a: HeldLot, b: HeldLot) => {
  const [x, y] = [a.expiresOn ?? NEVER, b.expiresOn ?? NEVER];
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};
const NEVER = '9999-12-31';

/**
 * What taking `points` from `lots` (in the order to take them) takes from each, lowering their
 * `remaining`; `short` is what they could not give.
 */
function takesFrom(lots: HeldLot[], points: number) {
  let left = points;
  const takes: { lotId: number; points: number }[] = [];
  for (const lot of lots) {
    if (left === 0) break;
    const taken = Math.min(left, lot.remaining);
    if (taken === 0) continue;
    lot.remaining -= taken;
    takes.push({ lotId: lot.id, points: taken });
    left -= taken;
  }
  return { takes, short: left };
}

/**
 * Lots holding less than the balance they make up: a fault in the data, refused (409) and
 * logged, the caller's transaction undone.
 */
const lotsShort = (customerId: number, points: number, short: number) =>
  new DataFaultError(MESSAGES.pointsRecordsDisagree, {
    problem: 'points lots hold less than the balance',
    customerId,
    points,
    short,
  });

/**
 * Gives a debit's points back to the customer's lots: to the lots it took them from, as far
 * as they are still the customer's and have room (a manual credit may since have been edited
 * or moved), the rest to the customer's other lots with room, latest-expiring first; anything
 * left (never expected) becomes a lot of its own that does not expire.
 */
async function giveBack(tx: Tx, entryMrn: number, customerId: number, today: string) {
  const takes = await tx
    .delete(pointsLotTakes)
    .where(eq(pointsLotTakes.entryMrn, entryMrn))
    .returning({ lotId: pointsLotTakes.lotId, points: pointsLotTakes.points });
  let left = 0;
  for (const taken of takes) {
    const [lot] = await tx
      .select({ points: pointsLots.points, remaining: pointsLots.remaining })
      .from(pointsLots)
      .where(and(eq(pointsLots.id, taken.lotId), eq(pointsLots.customerId, customerId)))
      .for('update');
    const restored = lot ? Math.max(0, Math.min(taken.points, lot.points - lot.remaining)) : 0;
    if (restored > 0) {
      await tx
        .update(pointsLots)
        .set({ remaining: sql`${pointsLots.remaining} + ${restored}` })
        .where(eq(pointsLots.id, taken.lotId));
    }
    left += taken.points - restored;
  }
  if (left > 0) {
    const roomy = await tx
      .select({
        id: pointsLots.id,
        room: sql<number>`${pointsLots.points} - ${pointsLots.remaining}`,
      })
      .from(pointsLots)
      .where(
        and(
          eq(pointsLots.customerId, customerId),
          sql`${pointsLots.points} > ${pointsLots.remaining}`,
        ),
      )
      .orderBy(sql`${pointsLots.expiresOn} DESC NULLS FIRST`, sql`${pointsLots.id} DESC`)
      .for('update');
    for (const lot of roomy) {
      if (left === 0) break;
      const given = Math.min(left, Number(lot.room));
      await tx
        .update(pointsLots)
        .set({ remaining: sql`${pointsLots.remaining} + ${given}` })
        .where(eq(pointsLots.id, lot.id));
      left -= given;
    }
  }
  if (left > 0) {
    await tx.insert(pointsLots).values({
      customerId,
      entryMrn: null,
      earnedOn: today,
      expiresOn: null,
      points: left,
      remaining: left,
    });
  }
}
