import type { Readable } from 'node:stream';
import type pg from 'pg';
import {
  CUSTOMER_EXPORT_COLUMNS,
  CUSTOMER_EXPORT_HEADERS,
  type CustomerRecord,
} from '@kanak/contract';
import type { Reader, Reads } from '../../db/reads.js';
import { createCsvStreams, createCursorStreams, jsonDataChunks } from '../../lib/csv-stream.js';
import { toRecord, type RecordFields } from './customers.service.js';

const EXPORT_SQL = `
  SELECT id, mobileno, custname, email, address, city, pincode, state,
         to_char(dob, 'YYYY-MM-DD') AS dob, to_char(doa, 'YYYY-MM-DD') AS doa,
         aadhaar_last4 AS "aadhaarLast4", pan, a.balance AS "pointsBalance"
  FROM customers c JOIN points_accounts a ON a.customer_id = c.id
  -- An erased customer has nothing left to export.
  WHERE mobileno IS NOT NULL
  ORDER BY id`;

// Beyond this many exports at once in the whole chain, the next waits its turn (each holds a
// connection).
const EXPORTS_AT_ONCE = 4;

/** Opens the export on `pool`: the reports replica's when it may answer the staff member. */
export type OpenCustomersCsv = (pool: pg.Pool) => Promise<Readable>;
export type OpenCustomersJson = (pool: pg.Pool) => Promise<Readable>;

/** A row of EXPORT_SQL: the customers row's fields as the repo names them. */
type ExportRow = Omit<RecordFields, 'pointsBalance'> & {
  /** A bigint, which the driver gives as text. */
  pointsBalance: string;
};

/** The record as the customers service shapes it for a screen. */
const recordOf = (row: ExportRow): CustomerRecord =>
  toRecord({ ...row, pointsBalance: Number(row.pointsBalance) });

/**
 * All customers as CSV, streamed from a database cursor so that memory stays flat however
 * many there are. Aadhaar is masked, names are shown cleaned as on every screen, and
 * formula-like cells are neutralised by csvCell.
 */
export function createCustomersCsv(primary: pg.Pool): OpenCustomersCsv {
  const open = createCsvStreams({ primary, kind: 'customers', atOnce: EXPORTS_AT_ONCE });
  return (pool) =>
    open<ExportRow>(pool, {
      query: { sql: EXPORT_SQL, params: [] },
      // Read by people in a spreadsheet: the screen's names, not the field names.
      columns: CUSTOMER_EXPORT_COLUMNS.map((column) => CUSTOMER_EXPORT_HEADERS[column]),
      cells(row) {
        const record = recordOf(row);
        return CUSTOMER_EXPORT_COLUMNS.map((column) => record[column]);
      },
    });
}

/**
 * All customers as the JSON export answers them, `{ success: true, data: [CustomerRecord…] }`
 * in the field order of the contract, written from a database cursor row by row: a million
 * customers built as one answer held the whole list and its text in memory at once. It
 * takes its turn with the CSV exports.
 */
export function createCustomersJson(primary: pg.Pool): OpenCustomersJson {
  const open = createCursorStreams({ primary, kind: 'customers', atOnce: EXPORTS_AT_ONCE });
  return (pool) =>
    open<ExportRow>(pool, { sql: EXPORT_SQL, params: [] }, (rows) =>
      jsonDataChunks(rows, recordOf),
    );
}

/**
 * The exports of all customers as a staff member asks for them: read from the reports replica
 * when it may answer them (see Reads), otherwise from the primary.
 */
export function createCustomersExports(primary: pg.Pool, reads: Pick<Reads, 'run'>) {
  const csv = createCustomersCsv(primary);
  const json = createCustomersJson(primary);
  return {
    csv: (reader: Reader) => reads.run(reader, (from) => csv(from.pool)),
    json: (reader: Reader) => reads.run(reader, (from) => json(from.pool)),
  };
}

export type CustomersExports = ReturnType<typeof createCustomersExports>;
