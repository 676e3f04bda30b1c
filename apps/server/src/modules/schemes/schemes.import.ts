import type { Tx } from '../../db/client.js';
import { schemeInstallments, schemes } from '../../db/schema.js';

/** Installment rows per statement: their columns stay under PostgreSQL's 65,535 parameters. */
const INSTALLMENTS_PER_STATEMENT = 5_000;

/**
 * The schemes module's writes for an import from other software, in the importer's
 * transaction: running schemes, and the installments already paid in the other software.
 */
export const schemesImport = {
  insertSchemes(tx: Tx, rows: (typeof schemes.$inferInsert)[]) {
    return tx.insert(schemes).values(rows).returning({ id: schemes.id });
  },

  async insertInstallments(tx: Tx, rows: (typeof schemeInstallments.$inferInsert)[]) {
    for (let at = 0; at < rows.length; at += INSTALLMENTS_PER_STATEMENT)
      await tx.insert(schemeInstallments).values(rows.slice(at, at + INSTALLMENTS_PER_STATEMENT));
  },
};
