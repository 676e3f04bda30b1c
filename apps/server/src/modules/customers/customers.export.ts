import { Readable } from 'node:stream';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { CUSTOMER_EXPORT_COLUMNS, csvLine, maskAadhaar } from '@kanak/contract';

const EXPORT_SQL = `
  SELECT id AS custid, mobileno, custname, email, address, city, pincode, state,
         to_char(dob, 'YYYY-MM-DD') AS dob, to_char(doa, 'YYYY-MM-DD') AS doa,
         aadhaar_last4, pan, points_balance AS points
  FROM customers ORDER BY id`;

/**
 * All customers as CSV, streamed from a database cursor so that memory stays flat however
 * many there are. Aadhaar is masked; formula-like cells are neutralised by csvCell.
 */
export function streamCustomersCsv(pool: pg.Pool): Readable {
  async function* lines() {
    const client = await pool.connect();
    try {
      const rows = client.query(new QueryStream(EXPORT_SQL, [], { batchSize: 2000 }));
      yield csvLine([...CUSTOMER_EXPORT_COLUMNS]);
      let chunk = '';
      let count = 0;
      for await (const row of rows as AsyncIterable<Record<string, unknown>>) {
        const record: Record<string, unknown> = {
          ...row,
          aadhaar: row.aadhaar_last4 ? maskAadhaar(String(row.aadhaar_last4)) : '',
        };
        chunk += csvLine(CUSTOMER_EXPORT_COLUMNS.map((column) => record[column] ?? ''));
        if (++count % 1000 === 0) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    } finally {
      client.release();
    }
  }
  return Readable.from(lines());
}
