import { desc, eq, getTableColumns, lt, sql } from 'drizzle-orm';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import {
  customerConsents,
  customers,
  exportTickets,
  pointsAccounts,
  users,
} from '../../db/schema.js';

export type CustomerRow = typeof customers.$inferSelect;
/** A customer with their points balance, as the profile and the exports show them. */
export type CustomerWithPoints = CustomerRow & { pointsBalance: number };
export type CustomerValues = Omit<typeof customers.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export const SEARCH_LIMIT = 20;
/**
 * An erased customer has no mobile number; the ledger and the schemes still name the row (as
 * "Erased customer", without a number).
 */
const mobileOrEmpty = sql<string>`coalesce(${customers.mobileno}, '')`;

/**
 * The customers row with the balance of its points account (which the points module owns and
 * alone changes), joined on both tables' primary key.
 */
const withPoints = (tx: Tx) =>
  tx
    .select({ ...getTableColumns(customers), pointsBalance: pointsAccounts.balance })
    .from(customers)
    .innerJoin(pointsAccounts, eq(pointsAccounts.customerId, customers.id));

const schemeColumns = {
  id: customers.id,
  mobileno: mobileOrEmpty,
  custname: customers.custname,
  pan: customers.pan,
};

/** `%` and `_` typed by staff are letters, not wildcards. */
function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Who each notice goes to, with their balance and consent: read by every change a customer
 * hears of, so written once and prepared. $1 the customers' ids, a PostgreSQL array literal.
 */
const NOTICE_RECIPIENTS: Statement = {
  name: 'customers_notice_recipients',
  text: `
    SELECT c.id, c.custname AS name, c.mobileno AS mobile, a.balance,
           coalesce((SELECT cc.granted FROM customer_consents cc
                      WHERE cc.customer_id = c.id AND cc.purpose = 'transactional'
                      ORDER BY cc.id DESC LIMIT 1), false) AS consented
      FROM customers c JOIN points_accounts a ON a.customer_id = c.id
     WHERE c.id = ANY($1::int[])`,
};

/** A customer as the search box lists them; an erased customer's number reads ''. */
interface CustomerSearchRow {
  CUSTNAME: string;
  MOBILENO: string;
}

/*
 * The search box's three reads, the text written once: it asks with every key staff type,
 * and building the query anew each time cost more than running it. Unnamed on purpose: a
 * LIKE reaches its index only when PostgreSQL plans it with the pattern in hand, which a
 * prepared statement's generic plan does not have.
 */
const SEARCH_BY_MOBILE_PREFIX: Statement = {
  name: '',
  text: `SELECT custname AS "CUSTNAME", coalesce(mobileno, '') AS "MOBILENO" FROM customers
          WHERE mobileno LIKE $1 ORDER BY mobileno USING ~<~ LIMIT ${SEARCH_LIMIT}`,
};
const SEARCH_BY_NAME_PREFIX: Statement = {
  name: '',
  text: `SELECT custname AS "CUSTNAME", coalesce(mobileno, '') AS "MOBILENO" FROM customers
          WHERE lower(custname) LIKE $1 AND mobileno IS NOT NULL
          ORDER BY lower(custname) USING ~<~ LIMIT ${SEARCH_LIMIT}`,
};
const SEARCH_BY_NAME_PART: Statement = {
  name: '',
  text: `SELECT custname AS "CUSTNAME", coalesce(mobileno, '') AS "MOBILENO" FROM customers
          WHERE custname ILIKE $1 AND mobileno IS NOT NULL LIMIT $2`,
};

export const customersRepo = {
  /**
   * Mobile numbers starting with the digits, in number order. `USING ~<~` is the order of the
   * text_pattern_ops index that serves the LIKE, so PostgreSQL reads the first 20 off the index;
   * a plain ORDER BY (the database collation's order) made it fetch and sort every match.
   */
  searchByMobilePrefix: (tx: Tx, digits: string) =>
    runStatement<CustomerSearchRow>(tx, SEARCH_BY_MOBILE_PREFIX, [`${digits}%`]),

  /** Names starting with the text, case-insensitive, in the prefix index's order (as above). */
  searchByNamePrefix: (tx: Tx, text: string) =>
    runStatement<CustomerSearchRow>(tx, SEARCH_BY_NAME_PREFIX, [
      `${escapeLike(text.toLowerCase())}%`,
    ]),

  /**
   * Names containing the text anywhere (trigram GIN index). No ORDER BY on purpose: a common
   * syllable matches tens of thousands of names, and an unordered LIMIT lets PostgreSQL stop
   * after the first few instead of fetching and sorting them all.
   */
  searchByNamePart: (tx: Tx, text: string, limit = SEARCH_LIMIT) =>
    runStatement<CustomerSearchRow>(tx, SEARCH_BY_NAME_PART, [`%${escapeLike(text)}%`, limit]),

  async findByMobile(tx: Tx, mobileno: string): Promise<CustomerWithPoints | undefined> {
    const [row] = await withPoints(tx).where(eq(customers.mobileno, mobileno));
    return row;
  },

  async findById(tx: Tx, id: number): Promise<CustomerWithPoints | undefined> {
    const [row] = await withPoints(tx).where(eq(customers.id, id));
    return row;
  },

  /** The customers row locked; not the points account, which a change of points locks. */
  async findByIdForUpdate(tx: Tx, id: number): Promise<CustomerWithPoints | undefined> {
    const [row] = await withPoints(tx).where(eq(customers.id, id)).for('update', { of: customers });
    return row;
  },

  async insert(tx: Tx, values: CustomerValues) {
    const [row] = await tx.insert(customers).values(values).returning();
    return row!;
  },

  async update(tx: Tx, id: number, values: Partial<CustomerValues>) {
    const [row] = await tx
      .update(customers)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(customers.id, id))
      .returning();
    return row!;
  },

  async any(tx: Tx) {
    const [row] = await tx.select({ id: customers.id }).from(customers).limit(1);
    return row !== undefined;
  },

  /**
   * Removes the personal data of a customer whose row the caller holds locked. The id and the
   * dates of the record itself stay: the ledger, the points account and schemes point at them.
   */
  /** `erasedMobileHash`: the number's keyed hash, so an import leaves the customer erased. */
  async erase(tx: Tx, id: number, erasedBy: number, name: string, erasedMobileHash: string | null) {
    const [row] = await tx
      .update(customers)
      .set({
        mobileno: null,
        custname: name,
        email: '',
        address: '',
        city: '',
        pincode: '',
        state: '',
        dob: null,
        doa: null,
        aadhaarSealed: null,
        aadhaarLast4: null,
        pan: '',
        erasedAt: sql`now()`,
        erasedBy,
        erasedMobileHash,
        updatedBy: erasedBy,
        updatedAt: sql`now()`,
      })
      .where(eq(customers.id, id))
      .returning();
    return row!;
  },

  async insertConsent(
    tx: Tx,
    values: Omit<typeof customerConsents.$inferInsert, 'id' | 'recordedAt'>,
  ) {
    await tx.insert(customerConsents).values(values);
  },

  /** Every grant and withdrawal of a customer, newest first, with who recorded it. */
  consentHistory(tx: Tx, customerId: number) {
    return tx
      .select({
        purpose: customerConsents.purpose,
        granted: customerConsents.granted,
        method: customerConsents.method,
        noticeVersion: customerConsents.noticeVersion,
        recordedBy: sql<string>`coalesce(${users.username}, '')`,
        recordedAt: customerConsents.recordedAt,
      })
      .from(customerConsents)
      .leftJoin(users, eq(users.id, customerConsents.recordedBy))
      .where(eq(customerConsents.customerId, customerId))
      .orderBy(desc(customerConsents.id));
  },

  /**
   * What a notice to each customer needs: the name, the mobile number (none once erased), the
   * points balance, and whether the latest word on transactional consent is a grant.
   */
  async noticeRecipients(tx: Tx, ids: number[]) {
    if (ids.length === 0) return [];
    return runStatement<{
      id: number;
      name: string;
      mobile: string | null;
      balance: number;
      consented: boolean;
    }>(tx, NOTICE_RECIPIENTS, [`{${ids.join(',')}}`]);
  },

  // What the counter and the schemes need of a customer: they reach this table only through
  // these, handed to them as narrow interfaces.

  /**
   * The customer with this mobile number, enrolled with just the name when new (a counter's
   * sale; their points account opens with them). Two sales enrolling one number at once: the
   * second finds the first's row.
   */
  async enrolByMobile(tx: Tx, mobileno: string, custname: string) {
    const [row] = await tx
      .insert(customers)
      .values({ mobileno, custname })
      .onConflictDoNothing()
      .returning({ id: customers.id });
    if (row) return { ...row, enrolled: true };
    const [found] = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.mobileno, mobileno));
    return { ...found!, enrolled: false };
  },

  /** The customer a scheme is for; locked while a scheme is started or the PAN saved. */
  async findForScheme(tx: Tx, customerId: number, options: { forUpdate?: boolean } = {}) {
    const query = tx.select(schemeColumns).from(customers).where(eq(customers.id, customerId));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  async setPan(tx: Tx, customerId: number, pan: string, updatedBy: number) {
    await tx
      .update(customers)
      .set({ pan, updatedBy, updatedAt: sql`now()` })
      .where(eq(customers.id, customerId));
  },
};

export type CustomersRepo = typeof customersRepo;

export const exportTicketsRepo = {
  /** Expires by the database's clock, which also judges it when it is used. */
  async insert(
    tx: Tx,
    values: Omit<typeof exportTickets.$inferInsert, 'expiresAt'>,
    lifetimeSeconds: number,
  ) {
    await tx
      .insert(exportTickets)
      .values({ ...values, expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})` });
  },

  /** Tickets past their expiry can no longer be used; they go when the next one is made. */
  async deleteExpired(tx: Tx) {
    await tx.delete(exportTickets).where(lt(exportTickets.expiresAt, sql`now()`));
  },

  /**
   * Takes the ticket out in one statement, so of two requests with the same ticket at the same
   * moment only one gets it back.
   */
  async take(tx: Tx, ticketHash: string) {
    const [row] = await tx
      .delete(exportTickets)
      .where(eq(exportTickets.ticketHash, ticketHash))
      .returning({
        userId: exportTickets.userId,
        tokenVersion: exportTickets.tokenVersion,
        jti: exportTickets.jti,
        expired: sql<boolean>`${exportTickets.expiresAt} <= now()`,
      });
    return row;
  },
};
