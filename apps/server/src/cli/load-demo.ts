import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { receiptLabel } from '@kanak/contract';
import type { Database } from '../db/client.js';
import { postInBulk, type BulkPosting } from '../modules/points/index.js';
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
 * Appends customers (with COPY, the fast path for millions of rows) and their ledgers, posted
 * through the points ledger's bulk path as an import posts openings: every credit a lot
 * expiring by the rules in force, every redemption taking from the lots as the ledger takes,
 * the balances the ledgers' sums. The running totals (points by day, points held) are kept by
 * the tables' own triggers.
 */
export async function loadDemoData(database: Pick<Database, 'db' | 'pool'>, options: LoadOptions) {
  const client = await database.pool.connect();
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

    // Their points accounts open with them, at the end of the COPY (the customers trigger).
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
    await client.query(
      `SELECT setval(pg_get_serial_sequence('customers', 'id'), (SELECT max(id) FROM customers))`,
    );

    // The ledgers in slices of customers, each slice one transaction: a load stopped midway
    // leaves whole customers whose balance, ledger and lots agree.
    for (let n = 1; n <= options.customers; n += LEDGER_SLICE) {
      const last = Math.min(n + LEDGER_SLICE - 1, options.customers);
      const postings: BulkPosting[] = [];
      for (let customer = start + n; customer <= start + last; customer++) {
        const count = rng.int(0, options.entriesPerCustomer * 2);
        for (const entry of demoLedger(rng, count, options.today)) {
          postings.push({
            customerId: customer,
            kind: entry.source === 'S' ? 'sale' : 'manual',
            points: entry.credit - entry.debit,
            invdate: entry.invdate,
            narration: entry.narration,
            branchId: branch.id,
            saleAmountPaise: entry.saleAmountPaise,
          });
        }
      }
      entries += await database.db.transaction((tx) => postInBulk(tx, postings));
      if (last < options.customers && last % 100_000 === 0)
        options.onProgress?.(`ledger: ${last} customers`);
    }
    options.onProgress?.(`ledger entries: ${entries}`);

    const schemes = await loadSchemes(client, rng, start, options);
    await client.query(
      'ANALYZE customers; ANALYZE points_accounts; ANALYZE points_entries; ANALYZE points_lots',
    );
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

/**
 * Customers whose ledgers are posted per transaction: about a hundred thousand ledger rows,
 * each table written by one statement of the ledger's bulk path.
 */
const LEDGER_SLICE = 10_000;

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
