import type { Readable } from 'node:stream';
import type pg from 'pg';
import { CUSTOMER_EXPORT_COLUMNS, maskAadhaar } from '@kanak/contract';
import { createCsvStreams } from '../../lib/csv-stream.js';

const EXPORT_SQL = `
  SELECT id AS custid, mobileno, custname, email, address, city, pincode, state,
         to_char(dob, 'YYYY-MM-DD') AS dob, to_char(doa, 'YYYY-MM-DD') AS doa,
         aadhaar_last4, pan, points_balance AS points
  FROM customers
  -- An erased customer has nothing left to export.
  WHERE mobileno IS NOT NULL
  ORDER BY id`;

// Beyond this many exports at once in the whole chain, the next waits its turn (each holds a
// connection).
const EXPORTS_AT_ONCE = 4;

/** Opens the export on `pool`: the reports replica's when the route chooses it. */
export type OpenCustomersCsv = (pool: pg.Pool) => Promise<Readable>;

/**
 * All customers as CSV, streamed from a database cursor so that memory stays flat however
 * many there are. Aadhaar is masked; formula-like cells are neutralised by csvCell.
 */
export function createCustomersCsv(primary: pg.Pool): OpenCustomersCsv {
  const open = createCsvStreams({ primary, kind: 'customers', atOnce: EXPORTS_AT_ONCE });
  return (pool) =>
    open<Record<string, unknown>>(pool, {
      query: { sql: EXPORT_SQL, params: [] },
      columns: CUSTOMER_EXPORT_COLUMNS,
      cells(row) {
        row.aadhaar = row.aadhaar_last4 ? maskAadhaar(String(row.aadhaar_last4)) : '';
        return CUSTOMER_EXPORT_COLUMNS.map((column) => row[column] ?? '');
      },
    });
}
