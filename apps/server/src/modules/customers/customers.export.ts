import { Readable } from 'node:stream';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { CUSTOMER_EXPORT_COLUMNS, csvLine, maskAadhaar } from '@kanak/contract';

const EXPORT_SQL = `
  SELECT id AS custid, mobileno, custname, email, address, city, pincode, state,
         to_char(dob, 'YYYY-MM-DD') AS dob, to_char(doa, 'YYYY-MM-DD') AS doa,
         aadhaar_last4, pan, points_balance AS points
  FROM customers ORDER BY id`;

// Small batches and chunks, one chunk buffered: each chunk is written out before the next
// garbage collection of the young generation, so a million rows never reach the old one
// (measured: 8 concurrent exports of 1,000,000 rows peaked at 271 MB RSS with 2,000/1,000/16).
const ROWS_PER_FETCH = 500;
const ROWS_PER_CHUNK = 250;

/**
 * All customers as CSV, streamed from a database cursor so that memory stays flat however
 * many there are. Aadhaar is masked; formula-like cells are neutralised by csvCell.
 */
export function streamCustomersCsv(pool: pg.Pool): Readable {
  async function* lines() {
    const client = await pool.connect();
    try {
      const rows = client.query(new QueryStream(EXPORT_SQL, [], { batchSize: ROWS_PER_FETCH }));
      yield csvLine([...CUSTOMER_EXPORT_COLUMNS]);
      let chunk = '';
      let count = 0;
      for await (const row of rows as AsyncIterable<Record<string, unknown>>) {
        row.aadhaar = row.aadhaar_last4 ? maskAadhaar(String(row.aadhaar_last4)) : '';
        chunk += csvLine(CUSTOMER_EXPORT_COLUMNS.map((column) => row[column] ?? ''));
        if (++count % ROWS_PER_CHUNK === 0) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    } finally {
      client.release();
    }
  }
  return Readable.from(lines(), { highWaterMark: 1 });
}
