import { inArray, sql } from 'drizzle-orm';
import { runStatement, type Statement, type Tx } from '../../db/client.js';
import { customers } from '../../db/schema.js';

type NewCustomer = typeof customers.$inferInsert;

/**
 * The customers module's writes for an import from other software, in the importer's
 * transaction: the batch's new customers, and the changed profile fields of known ones.
 */
export const customersImport = {
  async updateProfile(tx: Tx, id: number, fields: Partial<NewCustomer>, byId: number | null) {
    await tx
      .update(customers)
      .set({ ...fields, updatedBy: byId, updatedAt: sql`now()` })
      .where(sql`${customers.id} = ${id}`);
  },

  /** Of these keyed hashes of mobile numbers, those of customers erased at their request. */
  async erasedAmong(tx: Tx, hashes: string[]) {
    if (hashes.length === 0) return new Set<string>();
    const rows = await tx
      .select({ hash: customers.erasedMobileHash })
      .from(customers)
      .where(inArray(customers.erasedMobileHash, hashes));
    return new Set(rows.map((row) => row.hash!));
  },

  /**
   * Adds the batch's new customers, each column one array parameter: one statement, whatever
   * the batch's size. A number enrolled at a counter meanwhile is that customer's now, so it is
   * left out (the next import run updates it).
   */
  async insertNew(tx: Tx, rows: NewImportedCustomer[], byId: number | null) {
    if (rows.length === 0) return [];
    const column = <T>(pick: (row: NewImportedCustomer) => T) => rows.map(pick);
    return runStatement<{ id: number; mobileno: string }>(tx, INSERT_IMPORTED, [
      column((row) => row.mobileno),
      column((row) => row.custname),
      column((row) => row.email),
      column((row) => row.address),
      column((row) => row.city),
      column((row) => row.pincode),
      column((row) => row.state),
      column((row) => row.dob),
      column((row) => row.doa),
      byId,
    ]);
  },
};

/** A customer as another program's export gives them: the profile, no Aadhaar or PAN. */
export interface NewImportedCustomer {
  mobileno: string;
  custname: string;
  email: string;
  address: string;
  city: string;
  pincode: string;
  state: string;
  dob: string | null;
  doa: string | null;
}

const INSERT_IMPORTED: Statement = {
  name: 'customers_insert_imported',
  text: `
    INSERT INTO customers (mobileno, custname, email, address, city, pincode, state, dob, doa,
                           created_by, updated_by)
    SELECT n.mobileno, n.custname, n.email, n.address, n.city, n.pincode, n.state, n.dob, n.doa,
           $10::int, $10::int
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                  $7::text[], $8::date[], $9::date[])
           AS n(mobileno, custname, email, address, city, pincode, state, dob, doa)
    ON CONFLICT DO NOTHING
    RETURNING id, mobileno`,
};
