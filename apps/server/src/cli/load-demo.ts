import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { demoCustomer, demoLedger, random } from './demo-data.js';

export interface LoadOptions {
  customers: number;
  entriesPerCustomer: number;
  today: string;
  seed?: number;
  onProgress?: (message: string) => void;
}

/** COPY text format: tab-separated, \N for null; our generated values hold no tabs. */
const row = (cells: (string | number | null)[]) =>
  `${cells.map((c) => (c === null ? '\\N' : String(c))).join('\t')}\n`;

/**
 * Appends customers and their ledgers with COPY (the fast path for millions of rows), then
 * sets every new customer's cached balance from the ledger in one statement.
 */
export async function loadDemoData(pool: pg.Pool, options: LoadOptions) {
  const client = await pool.connect();
  try {
    const [{ start }] = (
      await client.query<{ start: number }>(
        `SELECT coalesce(max(id), 0)::int AS start FROM customers`,
      )
    ).rows as [{ start: number }];
    const rng = random(options.seed ?? 1928);
    const batch = 1000;
    let entries = 0;

    await copy(
      client,
      'customers (id, mobileno, custname, email, address, city, pincode, state, dob)',
      function* () {
        for (let n = 1; n <= options.customers; n += batch) {
          let chunk = '';
          for (let i = n; i < Math.min(n + batch, options.customers + 1); i++) {
            const c = demoCustomer(rng, start + i);
            chunk += row([
              start + i,
              c.mobileno,
              c.custname,
              c.email,
              c.address,
              c.city,
              c.pincode,
              c.state,
              c.dob,
            ]);
          }
          yield chunk;
        }
      },
    );
    options.onProgress?.(`customers: ${options.customers}`);

    await copy(
      client,
      'points_entries (customer_id, invdate, narration, sale_amount_paise, credit, debit, ts)',
      function* () {
        for (let n = 1; n <= options.customers; n += batch) {
          let chunk = '';
          for (let i = n; i < Math.min(n + batch, options.customers + 1); i++) {
            const count = rng.int(0, options.entriesPerCustomer * 2);
            for (const e of demoLedger(rng, count, options.today)) {
              chunk += row([
                start + i,
                e.invdate,
                e.narration,
                e.saleAmountPaise,
                e.credit,
                e.debit,
                e.source,
              ]);
            }
            entries += count;
          }
          yield chunk;
          if ((n - 1) % 100_000 === 0 && n > 1) options.onProgress?.(`ledger: ${n - 1} customers`);
        }
      },
    );
    options.onProgress?.(`ledger entries: ${entries}`);

    await client.query(
      `SELECT setval(pg_get_serial_sequence('customers', 'id'), (SELECT max(id) FROM customers))`,
    );
    await client.query(
      `UPDATE customers c SET points_balance = s.net
       FROM (SELECT customer_id, sum(credit - debit) AS net FROM points_entries WHERE customer_id > $1 GROUP BY customer_id) s
       WHERE c.id = s.customer_id`,
      [start],
    );
    await client.query('ANALYZE customers; ANALYZE points_entries');
    return { customers: options.customers, entries };
  } finally {
    client.release();
  }
}

/** COPY accepts explicit values for GENERATED ALWAYS identity columns. */
async function copy(client: pg.PoolClient, target: string, chunks: () => Generator<string>) {
  await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}
