import type { Readable } from 'node:stream';
import type pg from 'pg';
import {
  cleanName,
  CUSTOMER_EXPORT_COLUMNS,
  CUSTOMER_EXPORT_HEADERS,
  maskAadhaar,
  type CustomerRecord,
} from '@kanak/contract';
import { createCsvStreams, createCursorStreams, jsonDataChunks } from '../../lib/csv-stream.js';

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
export type OpenCustomersJson = (pool: pg.Pool) => Promise<Readable>;

/** A row of EXPORT_SQL. */
interface ExportRow {
  custid: number;
  mobileno: string;
  custname: string;
  email: string;
  address: string;
  city: string;
  pincode: string;
  state: string;
  dob: string | null;
  doa: string | null;
  aadhaar_last4: string | null;
  pan: string;
  points: number | string;
}

/**
 * All customers as CSV, streamed from a database cursor so that memory stays flat however
 * many there are. Aadhaar is masked, names are shown cleaned as on every screen, and
 * formula-like cells are neutralised by csvCell.
 */
export function createCustomersCsv(primary: pg.Pool): OpenCustomersCsv {
  const open = createCsvStreams({ primary, kind: 'customers', atOnce: EXPORTS_AT_ONCE });
  return (pool) =>
    open<Record<string, unknown>>(pool, {
      query: { sql: EXPORT_SQL, params: [] },
      // Read by people in a spreadsheet: the screen's names, not the field names.
      columns: CUSTOMER_EXPORT_COLUMNS.map((column) => CUSTOMER_EXPORT_HEADERS[column]),
      cells(row) {
        row.custname = cleanName(String(row.custname));
        row.aadhaar = row.aadhaar_last4 ? maskAadhaar(String(row.aadhaar_last4)) : '';
        return CUSTOMER_EXPORT_COLUMNS.map((column) => row[column] ?? '');
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
      jsonDataChunks(rows, toExportRecord),
    );
}

/** The record as the customers service shapes it for a screen. */
const toExportRecord = (row: ExportRow): CustomerRecord => ({
  custid: row.custid,
  mobileno: row.mobileno,
  custname: cleanName(row.custname),
  email: row.email,
  address: row.address,
  city: row.city,
  pincode: row.pincode,
  state: row.state,
  dob: row.dob ?? '',
  doa: row.doa ?? '',
  aadhaar: row.aadhaar_last4 ? maskAadhaar(row.aadhaar_last4) : '',
  pan: row.pan,
  points: Number(row.points),
});
