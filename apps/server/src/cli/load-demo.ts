import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { receiptLabel } from '@kanak/contract';
import { expiryOf } from '../modules/points/points.lots.js';
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
 * Appends customers and their ledgers with COPY (the fast path for millions of rows). Each
 * ledger goes in as the points service posts one: its credits are lots, its debits take from
 * them, and the customer's balance is the ledger's sum, which the open lots hold; the running
 * totals (points by day, points held) are kept by the tables' own triggers.
 *
 * The one exception to points.ledger.ts being the only writer of ledger rows, lots, takes and
 * balances: posting a million customers' year one entry at a time is beyond a benchmark load.
 * Its tests (load-demo.test, seed-demo.test) hold it to the same books with `checkLedger`.
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

    // The ledger in slices of customers, each one transaction with its points lots, what each
    // debit took from them and the customers' balances: a load stopped midway leaves whole
    // customers whose balance, ledger and lots agree.
    const expiryMonths = await currentExpiryMonths(client);
    for (let n = 1; n <= options.customers; n += LEDGER_SLICE) {
      const last = Math.min(n + LEDGER_SLICE - 1, options.customers);
      await client.query('BEGIN');
      try {
        entries += await loadLedgerSlice(client, rng, {
          first: start + n,
          last: start + last,
          entriesPerCustomer: options.entriesPerCustomer,
          today: options.today,
          expiryMonths,
          branchId: branch.id,
        });
        await client.query(
          `UPDATE points_accounts a SET balance = s.net
           FROM (SELECT customer_id, sum(credit - debit) AS net FROM points_entries
                  WHERE customer_id BETWEEN $1 AND $2 GROUP BY customer_id) s
           WHERE a.customer_id = s.customer_id`,
          [start + n, start + last],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      if (last < options.customers && last % 100_000 === 0)
        options.onProgress?.(`ledger: ${last} customers`);
    }
    options.onProgress?.(`ledger entries: ${entries}`);

    await client.query(
      `SELECT setval(pg_get_serial_sequence('customers', 'id'), (SELECT max(id) FROM customers))`,
    );
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

/** Customers whose ledgers are loaded per transaction (about ten entries each). */
const LEDGER_SLICE = 10_000;

/**
 * The ledgers of customers first … last, written as the points service writes a ledger: every
 * credit is a lot expiring by the rules in force, and every debit takes from the lots that
 * expire first (never-expiring last), each take recorded against the debit, so that the demo
 * customers' balance, ledger and open lots agree and a redemption or an edit works on them
 * as on any customer. Entry and lot ids are given here, to tie the three together in COPY.
 * Returns the entries written.
 */
async function loadLedgerSlice(
  client: pg.PoolClient,
  rng: ReturnType<typeof random>,
  slice: {
    first: number;
    last: number;
    entriesPerCustomer: number;
    today: string;
    expiryMonths: number;
    branchId: number;
  },
) {
  const ids = await client.query<{ mrn: number; lot: number }>(
    `SELECT coalesce((SELECT max(mrn) FROM points_entries), 0)::bigint AS mrn,
            coalesce((SELECT max(id) FROM points_lots), 0)::bigint AS lot`,
  );
  let mrn = Number(ids.rows[0]!.mrn);
  let lotId = Number(ids.rows[0]!.lot);
  let ledger = '';
  let lots = '';
  let takes = '';
  let entries = 0;
  for (let customer = slice.first; customer <= slice.last; customer++) {
    const count = rng.int(0, slice.entriesPerCustomer * 2);
    const open: DemoLot[] = [];
    for (const e of demoLedger(rng, count, slice.today)) {
      mrn += 1;
      ledger += row([
        mrn,
        customer,
        e.invdate,
        e.narration,
        e.saleAmountPaise,
        e.credit,
        e.debit,
        e.source,
        slice.branchId,
      ]);
      if (e.credit > 0) {
        lotId += 1;
        const expiresOn = expiryOf(e.invdate, slice.expiryMonths);
        open.push({
          id: lotId,
          mrn,
          earnedOn: e.invdate,
          expiresOn,
          points: e.credit,
          remaining: e.credit,
        });
      }
      if (e.debit > 0) takes += takeFromLots(open, mrn, e.debit);
    }
    for (const lot of open) {
      lots += row([
        lot.id,
        customer,
        lot.mrn,
        lot.earnedOn,
        lot.expiresOn,
        lot.points,
        lot.remaining,
      ]);
    }
    entries += count;
  }
  await copy(
    client,
    'points_entries (mrn, customer_id, invdate, narration, sale_amount_paise, credit, debit, ts, branch_id)',
    () => chunked(ledger),
  );
  await copy(
    client,
    'points_lots (id, customer_id, entry_mrn, earned_on, expires_on, points, remaining)',
    () => chunked(lots),
  );
  await copy(client, 'points_lot_takes (entry_mrn, lot_id, points)', () => chunked(takes));
  await client.query(
    `SELECT setval(pg_get_serial_sequence('points_entries', 'mrn'), $1),
            setval(pg_get_serial_sequence('points_lots', 'id'), $2)`,
    [Math.max(mrn, 1), Math.max(lotId, 1)],
  );
  return entries;
}

interface DemoLot {
  id: number;
  mrn: number;
  earnedOn: string;
  expiresOn: string | null;
  points: number;
  remaining: number;
}

/**
 * Takes a debit's points from a customer's lots as the points ledger does: the soonest-expiring
 * first, never-expiring last, then the oldest. Returns the takes as COPY rows.
 */
function takeFromLots(lots: DemoLot[], mrn: number, points: number) {
  const order = [...lots].sort(
    (a, b) =>
      (a.expiresOn ?? '9999-12-31').localeCompare(b.expiresOn ?? '9999-12-31') || a.id - b.id,
  );
  let left = points;
  let takes = '';
  for (const lot of order) {
    if (left === 0) break;
    const taken = Math.min(left, lot.remaining);
    if (taken === 0) continue;
    lot.remaining -= taken;
    left -= taken;
    takes += row([mrn, lot.id, taken]);
  }
  // demoLedger never spends more than the balance, which the lots hold.
  if (left > 0) throw new Error('a demo debit spends more than its customer holds');
  return takes;
}

/** COPY text in pieces of about a megabyte. */
function* chunked(text: string) {
  for (let i = 0; i < text.length; i += 1 << 20) yield text.slice(i, i + (1 << 20));
}

/** How long points last under the rules in force (as the points service reads them). */
async function currentExpiryMonths(client: pg.PoolClient) {
  const { rows } = await client.query<{ months: number }>(
    `SELECT expiry_months AS months FROM points_rules WHERE valid_from <= now()
      ORDER BY valid_from DESC, id DESC LIMIT 1`,
  );
  return rows[0]?.months ?? 24;
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
