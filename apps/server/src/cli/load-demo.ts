import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { receiptLabel } from '@kanak/contract';
import { demoCustomer, demoLedger, demoScheme, random } from './demo-data.js';

export interface LoadOptions {
  customers: number;
  entriesPerCustomer: number;
  /** Schemes for the new customers, at most one each (so never two Inactive for one). */
  schemes?: number;
  installments?: number;
  /** Schemes per transaction (SCHEME_SLICE unless given). */
  schemeSlice?: number;
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
    const branch = await firstBranch(client);
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
      'points_entries (customer_id, invdate, narration, sale_amount_paise, credit, debit, ts, branch_id)',
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
                branch.id,
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
    const schemes = await loadSchemes(client, rng, start, options);
    await client.query(
      `UPDATE customers c SET points_balance = s.net
       FROM (SELECT customer_id, sum(credit - debit) AS net FROM points_entries WHERE customer_id > $1 GROUP BY customer_id) s
       WHERE c.id = s.customer_id`,
      [start],
    );
    await client.query('ANALYZE customers; ANALYZE points_entries');
    return { customers: options.customers, entries, ...schemes };
  } finally {
    client.release();
  }
}

/** Schemes (one each) for customers firstCustomer+1 … firstCustomer+count that exist already. */
export async function loadDemoSchemes(
  pool: pg.Pool,
  options: {
    firstCustomer: number;
    count: number;
    installments: number;
    today: string;
    schemeSlice?: number;
    onProgress?: (message: string) => void;
  },
) {
  const client = await pool.connect();
  try {
    return await loadSchemes(client, random(1947), options.firstCustomer, {
      customers: options.count,
      entriesPerCustomer: 0,
      schemes: options.count,
      installments: options.installments,
      today: options.today,
      schemeSlice: options.schemeSlice,
      onProgress: options.onProgress,
    });
  } finally {
    client.release();
  }
}

/**
 * Schemes loaded per transaction: their installments are held in memory until the schemes are
 * in (ten million schemes' installments would not fit in Node's heap), and a load stopped
 * midway keeps its whole slices, each scheme with its installments.
 */
const SCHEME_SLICE = 200_000;

/** Schemes with their installments and gapless receipt numbers, loaded with COPY. */
async function loadSchemes(
  client: pg.PoolClient,
  rng: ReturnType<typeof random>,
  firstCustomer: number,
  options: LoadOptions,
) {
  const count = Math.min(options.schemes ?? 0, options.customers);
  if (count === 0) return { schemes: 0, installments: 0 };
  const term = options.installments ?? 11;
  const branch = await firstBranch(client);
  const size = options.schemeSlice ?? SCHEME_SLICE;
  let installments = 0;
  for (let done = 0; done < count; done += size) {
    const slice = { firstCustomer: firstCustomer + done, count: Math.min(size, count - done) };
    await client.query('BEGIN');
    try {
      installments += await loadSchemeSlice(client, rng, branch, slice, term, options.today);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    if (done + slice.count < count) options.onProgress?.(`schemes: ${done + slice.count}`);
  }
  await client.query('ANALYZE schemes; ANALYZE scheme_installments');
  options.onProgress?.(`schemes: ${count}, installments: ${installments}`);
  return { schemes: count, installments };
}

/** One slice of schemes (for customers firstCustomer+1 … firstCustomer+count); its installments' count. */
async function loadSchemeSlice(
  client: pg.PoolClient,
  rng: ReturnType<typeof random>,
  branch: { id: number; code: string },
  { firstCustomer, count }: { firstCustomer: number; count: number },
  term: number,
  today: string,
) {
  const ids = await client.query<{ scheme: number; receipt: number }>(
    `SELECT coalesce((SELECT max(id) FROM schemes), 0)::int AS scheme,
            coalesce((SELECT last_no FROM receipt_counter WHERE branch_id = $1), 0)::int AS receipt`,
    [branch.id],
  );
  let { scheme: schemeId, receipt } = ids.rows[0]!;
  const payments: string[] = [];
  await copy(
    client,
    'schemes (id, customer_id, startdt, matdt, amount, installments, status, bonus, maturity_value, closed_on, branch_id)',
    function* () {
      for (let n = 1; n <= count; n += 1000) {
        let chunk = '';
        for (let i = n; i < Math.min(n + 1000, count + 1); i++) {
          const s = demoScheme(rng, today, term);
          schemeId += 1;
          const paid = s.paidOn.length;
          const bonus = s.status === 'm' ? Math.floor((s.amount * paid) / term) : null;
          chunk += row([
            schemeId,
            firstCustomer + i,
            s.startdt,
            s.matdt,
            s.amount,
            term,
            s.status,
            bonus,
            bonus === null ? null : s.amount * paid + bonus,
            s.status === 'm' ? s.matdt : null,
            branch.id,
          ]);
          for (const date of s.paidOn) {
            receipt += 1;
            payments.push(
              row([
                schemeId,
                branch.id,
                receipt,
                receiptLabel(branch.code, receipt),
                date,
                date.slice(0, 7),
                s.amount,
                s.mode(),
              ]),
            );
          }
        }
        yield chunk;
      }
    },
  );
  await copy(
    client,
    'scheme_installments (scheme_id, branch_id, receipt_no, receipt, paid_on, period, amount, mode)',
    function* () {
      for (let i = 0; i < payments.length; i += 5000) yield payments.slice(i, i + 5000).join('');
    },
  );
  await client.query(
    `INSERT INTO receipt_counter (branch_id, last_no) VALUES ($1, $2)
     ON CONFLICT (branch_id) DO UPDATE SET last_no = excluded.last_no`,
    [branch.id, receipt],
  );
  await client.query(`SELECT setval(pg_get_serial_sequence('schemes', 'id'), $1)`, [schemeId]);
  return payments.length;
}

/** The demo's rows belong to the shop's first branch. */
async function firstBranch(client: pg.PoolClient) {
  const result = await client.query<{ id: number; code: string }>(
    `SELECT id, code FROM branches ORDER BY id LIMIT 1`,
  );
  return result.rows[0]!;
}

/** COPY accepts explicit values for GENERATED ALWAYS identity columns. */
async function copy(client: pg.PoolClient, target: string, chunks: () => Generator<string>) {
  await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}
