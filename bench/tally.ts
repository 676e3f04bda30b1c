import os from 'node:os';
import type pg from 'pg';
import type { Db } from '../apps/server/src/db/client.js';
import { createAccountingService } from '../apps/server/src/modules/accounting/accounting.service.js';
import { branchesRepo } from '../apps/server/src/modules/branches/branches.repo.js';
import { pointsMovementByMonth } from '../apps/server/src/modules/points/index.js';
import { schemesRepo } from '../apps/server/src/modules/schemes/schemes.repo.js';

/**
 * The Tally profile (`npm run bench -- --tally`): a month of a 10-branch chain, October 2026 —
 * 5,000 installments a branch in every mode, 100 schemes a branch closed with a bonus — made
 * by SQL in a database of its own (bench/data-tally), then the month's import file exported
 * whole, as the route streams it, and timed: to its first piece and to its end.
 */
export const TALLY_MONTH = { from: '2026-10-01', to: '2026-10-31' };
const BRANCHES = [
  'MAIN',
  'NORTH',
  'SOUTH',
  'EAST',
  'WEST',
  'PUNE',
  'NASIK',
  'SURAT',
  'GOA',
  'THANE',
];
const PAYING = 5_000;
const CLOSED = 100;

/** Makes the month once; a second run finds it made. */
async function ensureTallyMonth(pool: pg.Pool) {
  const [made] = (await pool.query(`SELECT 1 FROM customers WHERE mobileno = '7000000001'`)).rows;
  if (made) return;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const code of BRANCHES)
      await client.query(
        `INSERT INTO branches (code, name, address, phone) VALUES ($1::text, $1::text, 'Bench road', '+91 20 0000 0000')
         ON CONFLICT (code) DO NOTHING`,
        [code],
      );
    // A name that must be escaped, so the timing includes the escaping.
    await client.query(
      `INSERT INTO customers (mobileno, custname)
       SELECT (7000000000 + n)::text, 'Customer ' || n || ' & Sons <Jewels>'
         FROM generate_series(1, $1::int) n`,
      [PAYING * BRANCHES.length + CLOSED * BRANCHES.length],
    );
    await client.query(
      `INSERT INTO schemes (customer_id, startdt, matdt, amount, installments, status, branch_id, bonus, closed_on)
       SELECT c.id, '2026-01-01', '2026-12-01', 1000 + (n % 20) * 500, 12,
              CASE WHEN n > $1::int THEN 'm' ELSE 'a' END,
              b.id,
              CASE WHEN n > $1::int THEN 1000 END,
              CASE WHEN n > $1::int THEN ('2026-10-01'::date + (n % 31)::int)::date END
         FROM (SELECT id, mobileno::bigint - 7000000000 AS n FROM customers
                WHERE mobileno LIKE '70%') c
         JOIN branches b ON b.code = ($2::text[])[1 + (c.n % $3::int)::int]`,
      [PAYING * BRANCHES.length, BRANCHES, BRANCHES.length],
    );
    await client.query(
      `INSERT INTO scheme_installments
         (scheme_id, branch_id, receipt_no, receipt, paid_on, period, amount, mode, reference)
       SELECT s.id, s.branch_id, 900000 + r, b.code || '-' || (900000 + r), '2026-10-01'::date + (r % 31)::int,
              '2026-10', s.amount, (ARRAY['cash', 'upi', 'card', 'bank', 'cheque'])[1 + r % 5],
              CASE WHEN r % 5 = 0 THEN '' ELSE 'REF' || r END
         FROM (SELECT s.*, row_number() OVER (PARTITION BY s.branch_id ORDER BY s.id) AS r
                 FROM schemes s WHERE s.status = 'a') s
         JOIN branches b ON b.id = s.branch_id`,
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  await pool.query('ANALYZE');
}

export async function tallyStep(database: { db: Db; pool: pg.Pool }) {
  await ensureTallyMonth(database.pool);
  const accounting = createAccountingService({
    db: database.db,
    schemes: schemesRepo,
    branches: branchesRepo,
    points: { movementByMonth: pointsMovementByMonth, pointValuePaise: async () => 100 },
    // No Razorpay here: the export's own work, without the gateway's round trips.
    gateway: undefined,
    timeZone: 'Asia/Kolkata',
    tallyUrl: undefined,
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  let firstPieceMs = 0;
  let bytes = 0;
  let vouchers = 0;
  const { file } = await accounting.exportFile({ id: 1, username: 'bench' }, TALLY_MONTH);
  for await (const piece of file) {
    if (bytes === 0) firstPieceMs = performance.now() - started;
    bytes += Buffer.byteLength(piece);
    vouchers += piece.split('<VOUCHER ').length - 1;
  }
  const used = process.cpuUsage(cpu);
  return {
    branches: BRANCHES.length,
    vouchers,
    megabytes: +(bytes / 1e6).toFixed(1),
    firstPieceMs: Math.round(firstPieceMs),
    seconds: +((performance.now() - started) / 1000).toFixed(2),
    // The export's own CPU (building the XML, reading the rows): on a busy machine the
    // seconds above are mostly waiting for a core.
    cpuSeconds: +((used.user + used.system) / 1e6).toFixed(2),
    loadAverage: os.loadavg()[0]!.toFixed(2),
  };
}
