import { asc, eq } from 'drizzle-orm';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import { pointsEntries } from '../../db/schema.js';
import { eraseNamingInOthers, eraseNarrations, type EntryRow } from './points.ledger.js';

export type { EntryRow } from './points.ledger.js';

/** A ledger row as a statement shows it. */
export type StatementEntry = Pick<
  EntryRow,
  'mrn' | 'invdate' | 'narration' | 'saleAmountPaise' | 'credit' | 'debit' | 'source'
>;

/*
 * The statement's two reads of the ledger, the text written once: building them anew for
 * every statement cost more than running them. Unnamed: each is planned with its own dates.
 * $1 the customer, $2 the first day (and $3 the last).
 */
const OPENING_BALANCE: Statement = {
  name: '',
  text: `SELECT coalesce(sum(credit - debit), 0)::bigint AS net, count(*)::int AS entries
           FROM points_entries WHERE customer_id = $1 AND invdate < $2`,
};
const ENTRIES_BETWEEN: Statement = {
  name: '',
  text: `SELECT mrn, invdate, narration, sale_amount_paise AS "saleAmountPaise", credit, debit,
                ts AS source
           FROM points_entries WHERE customer_id = $1 AND invdate BETWEEN $2 AND $3
          ORDER BY invdate, mrn`,
};

export const pointsRepo = {
  /** Every ledger row of a customer, in statement order, for the customer's copy of their data. */
  allForCustomer(tx: Tx, customerId: number) {
    return tx
      .select()
      .from(pointsEntries)
      .where(eq(pointsEntries.customerId, customerId))
      .orderBy(asc(pointsEntries.invdate), asc(pointsEntries.mrn));
  },

  /** An erasure of the customer's narrations typed by staff (see the ledger's). */
  eraseNarrations,

  /** An erasure of the customer's mentions in other customers' narrations (the ledger's). */
  eraseNamingInOthers,

  async findEntryForUpdate(tx: Tx, mrn: number) {
    const [row] = await tx
      .select()
      .from(pointsEntries)
      .where(eq(pointsEntries.mrn, mrn))
      .for('update');
    return row;
  },

  /** Net points and number of entries dated before `date`: the statement's opening line. */
  async openingBalance(tx: Tx, customerId: number, date: string) {
    const [row] = await runStatement<{ net: number; entries: number }>(tx, OPENING_BALANCE, [
      customerId,
      date,
    ]);
    return { net: Number(row?.net ?? 0), entries: row?.entries ?? 0 };
  },

  /** The customer's rows dated `from` to `to`, in statement order, as a statement shows them. */
  entriesBetween: (tx: Tx, customerId: number, from: string, to: string) =>
    runStatement<StatementEntry>(tx, ENTRIES_BETWEEN, [customerId, from, to]),
};
export type PointsRepo = typeof pointsRepo;
