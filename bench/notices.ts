/**
 * The notices' sender measured: N queued reminders, made by SQL for the first N customers
 * (each given transactional consent for the run), sent by a notices worker — a process of its
 * own, as `npm run worker` is — to a local fake WhatsApp provider at `rate` a second. Counted at
 * the fake: every notice exactly once, none lost. Everything the step wrote (consents, notices,
 * the panel's settings) is taken back after, and the shop's own panel settings restored.
 *
 * Alone: `BENCH_DATABASE_URL=postgres://… npx tsx --conditions=@kanak/source bench/notices.ts
 * --notices 100000 --rate 150` (a database with its migrations run and enough customers).
 * `npm run bench` uses the same functions for its notices step, with the API's p95 measured
 * beside it.
 */
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { connectDatabase } from '../apps/server/src/db/client.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { createFieldCipher } from '../apps/server/src/lib/crypto.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../apps/server/test/fake-whatsapp.js';
import { spawnNoticesWorker } from '../apps/server/test/notices-worker.js';

/** The bench's rows are marked so they are found and taken back: its own consents and texts. */
const METHOD = 'bench';
const TEXT = 'Bench notice ';
/** Where the shop's own panel settings wait while the bench uses the fake's. */
let savedPanel: Record<string, unknown> | undefined;

/** N queued reminders, one per customer (the first N by id), and a panel pointing at panel 1. */
export async function makeBenchNotices(pool: pg.Pool, notices: number, dataKey: string) {
  const { rows } = await pool.query(`SELECT * FROM panel_config WHERE id = 1`);
  savedPanel = rows[0];
  await pool.query(
    `INSERT INTO panel_config (id, instance_id, token_sealed, panel, phone)
     VALUES (1, 'bench', $1, 1, '9000000000')
     ON CONFLICT (id) DO UPDATE SET instance_id = excluded.instance_id,
       token_sealed = excluded.token_sealed, panel = excluded.panel, phone = excluded.phone`,
    [createFieldCipher(dataKey).encrypt('bench-token')],
  );
  await pool.query(
    `WITH picked AS (SELECT id, mobileno FROM customers WHERE mobileno IS NOT NULL ORDER BY id LIMIT $1),
     consents AS (
       INSERT INTO customer_consents (customer_id, purpose, granted, method, notice_version)
       SELECT id, 'transactional', true, $2, $2 FROM picked
     )
     INSERT INTO notices (event, customer_id, mobile, text, status, dedupe_key)
     SELECT 'installmentDue', id, mobileno, $3 || id, 'queued', 'bench:' || id FROM picked`,
    [notices, METHOD, TEXT],
  );
  await pool.query('VACUUM ANALYZE notices, customer_consents');
}

/** Takes back the step's notices and consents, and puts the shop's panel settings back. */
export async function removeBenchNotices(pool: pg.Pool) {
  await pool.query(`DELETE FROM notices WHERE dedupe_key LIKE 'bench:%'`);
  await pool.query(`DELETE FROM customer_consents WHERE method = $1`, [METHOD]);
  if (savedPanel) {
    const p = savedPanel;
    await pool.query(
      `UPDATE panel_config SET instance_id = $1, token_sealed = $2, panel = $3, phone = $4 WHERE id = 1`,
      [p.instance_id, p.token_sealed, p.panel, p.phone],
    );
  } else {
    await pool.query(`DELETE FROM panel_config WHERE instance_id = 'bench'`);
  }
  savedPanel = undefined;
}

/** What the notices step found. */
export interface NoticesRun {
  notices: number;
  /** The configured rate, and what the fake saw from its first message to its last. */
  rate: number;
  seconds: number;
  achievedPerSecond: number;
  delivered: number;
  /** Notices the fake got more than once, and notices it never got. */
  duplicates: number;
  lost: number;
  /** Rows still not `sent` in the database. */
  unsent: number;
}

/** Sends the queued bench notices through a worker to `fake`, and counts what arrived. */
export async function sendBenchNotices(
  pool: pg.Pool,
  fake: FakeWhatsApp,
  {
    databaseUrl,
    notices,
    rate,
    dataKey,
  }: {
    databaseUrl: string;
    notices: number;
    rate: number;
    dataKey: string;
  },
): Promise<NoticesRun> {
  fake.reset();
  const worker = spawnNoticesWorker({
    databaseUrl,
    providerUrl: fake.url,
    dataKey,
    rate,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await worker.exited;
  if (code !== 0) throw new Error(`the notices worker exited ${code}`);
  const texts = fake
    .delivered()
    .map((message) => message.text)
    .filter((t) => t.startsWith(TEXT));
  const unique = new Set(texts);
  const times = fake.delivered().map((message) => message.at);
  const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notices WHERE dedupe_key LIKE 'bench:%' AND status <> 'sent'`,
  );
  return {
    notices,
    rate,
    seconds: Number(seconds.toFixed(1)),
    achievedPerSecond: Math.round(texts.length / Math.max(seconds, 0.001)),
    delivered: texts.length,
    duplicates: texts.length - unique.size,
    lost: notices - unique.size,
    unsent: rows[0]!.n,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      notices: { type: 'string', default: '100000' },
      rate: { type: 'string', default: '150' },
    },
  });
  const url = process.env.BENCH_DATABASE_URL;
  const dataKey = process.env.DATA_KEY;
  if (!url || !dataKey) throw new Error('set BENCH_DATABASE_URL and DATA_KEY');
  const database = connectDatabase(url, { max: 4 });
  const fake = await startFakeWhatsApp();
  try {
    await migrateDatabase(database.db);
    await removeBenchNotices(database.pool);
    const notices = Number(values.notices);
    await makeBenchNotices(database.pool, notices, dataKey);
    const run = await sendBenchNotices(database.pool, fake, {
      databaseUrl: url,
      notices,
      rate: Number(values.rate),
      dataKey,
    });
    console.log(JSON.stringify(run));
  } finally {
    await removeBenchNotices(database.pool);
    await fake.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
