import { Readable } from 'node:stream';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { CSV_BOM, CUSTOMER_EXPORT_COLUMNS, csvLine, maskAadhaar } from '@kanak/contract';

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

// An export holds a database connection for as long as it runs (12 s for a million rows).
// Without a limit, a row of Export clicks took every connection of the pool and the counters'
// searches and points updates failed with 503 until the exports finished (bench, 32 at once).
// Beyond this many, exports wait their turn.
const EXPORTS_AT_ONCE = 4;

export type OpenCustomersCsv = () => Promise<Readable>;

/**
 * All customers as CSV, streamed from a database cursor so that memory stays flat however
 * many there are. Aadhaar is masked; formula-like cells are neutralised by csvCell.
 *
 * The connection is taken before the answer starts, so a database that cannot be reached is
 * a 503 in the usual envelope rather than a CSV cut off after its headers.
 */
export function createCustomersCsv(pool: pg.Pool): OpenCustomersCsv {
  const slots = createSlots(EXPORTS_AT_ONCE);
  return async () => {
    await slots.take();
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      slots.give();
      throw error;
    }
    const rows = client.query(new QueryStream(EXPORT_SQL, [], { batchSize: ROWS_PER_FETCH }));
    const csv = Readable.from(csvChunks(rows as AsyncIterable<Record<string, unknown>>), {
      highWaterMark: 1,
    });
    csv.once('close', () => {
      // A cursor read to its end leaves a clean connection; one cut off (the browser went away,
      // the database failed) may still be mid-query, so it is closed rather than reused.
      client.release(csv.readableEnded ? undefined : true);
      slots.give();
    });
    return csv;
  };
}

async function* csvChunks(rows: AsyncIterable<Record<string, unknown>>) {
  yield CSV_BOM + csvLine([...CUSTOMER_EXPORT_COLUMNS]);
  let chunk = '';
  let count = 0;
  for await (const row of rows) {
    row.aadhaar = row.aadhaar_last4 ? maskAadhaar(String(row.aadhaar_last4)) : '';
    chunk += csvLine(CUSTOMER_EXPORT_COLUMNS.map((column) => row[column] ?? ''));
    if (++count % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** A counting semaphore: `take` waits while all slots are in use; `give` hands one on. */
function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async take() {
      if (free > 0) {
        free -= 1;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    give() {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
}
