/**
 * The import of another program's customers with their opening points, measured on its own:
 * a CSV of N customers (every one with points and an expiry date) written to a temporary file,
 * imported by the import service into a database made for the run (migrated, then dropped),
 * timed, with the process's peak memory. Target: 100,000 customers in ≤ 60 s, RSS < 300 MB.
 *
 * `npm run bench -- --only import` runs it on the bench's database server, and a full
 * `npm run bench` does too; alone: `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
 * npx tsx --conditions=@kanak/source bench/import.ts [--customers 100000]` (the URL's server
 * makes and drops a database of its own; the URL's database itself is not touched). Prints one
 * line of JSON, its last.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { connectDatabase } from '../apps/server/src/db/client.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { erasedMobileHasher } from '../apps/server/src/lib/crypto.js';
import { createImportService } from '../apps/server/src/modules/import/index.js';
import { checkLedger } from '../apps/server/src/modules/points/points.ledger-check.js';
import { TARGETS } from './report.js';

const { values: args } = parseArgs({
  options: { customers: { type: 'string', default: '100000' } },
});
const CUSTOMERS = Number(args.customers);

async function writeFile(file: string) {
  const out = createWriteStream(file);
  out.write('Mobile No,Customer Name,City,DOB,Points,Expiry Date\n');
  for (let i = 0; i < CUSTOMERS; i += 1) {
    const line = `${6_000_000_000 + i},Customer ${i} सिंह,Jaipur,15/08/1985,${1 + (i % 5000)},31/12/2030\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('BENCH_DATABASE_URL is needed (its server hosts the run)');
  const name = `kanak_bench_import_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = connectDatabase(url.toString(), { max: 2 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kanak-bench-import-'));
  try {
    await migrateDatabase(database.db);
    const [branch] = (await database.pool.query<{ id: number }>('SELECT id FROM branches LIMIT 1'))
      .rows;
    const file = path.join(dir, 'customers.csv');
    await writeFile(file);
    const imports = createImportService({
      db: database.db,
      today: () => new Date().toISOString().slice(0, 10),
      terms: { installments: 11 },
      erasedMobileHash: erasedMobileHasher(randomBytes(32).toString('hex')),
    });
    const started = performance.now();
    const result = await imports.run(
      'customers',
      { id: null, branchId: branch!.id },
      { path: file, filename: 'customers.csv' },
      { dryRun: false },
    );
    const seconds = (performance.now() - started) / 1000;
    const rssMb = process.resourceUsage().maxRSS / 1024;
    const ledger = await checkLedger(database.db);
    console.log(
      JSON.stringify({
        customers: CUSTOMERS,
        created: result.created,
        errors: result.errors.length,
        seconds: Number(seconds.toFixed(1)),
        peakRssMb: Math.round(rssMb),
        ledgerAgrees: ledger.differing === 0,
        target: `≤ ${TARGETS.importSeconds} s, RSS < ${TARGETS.importRssMb} MB`,
        met:
          seconds <= TARGETS.importSeconds && rssMb < TARGETS.importRssMb && ledger.differing === 0,
      }),
    );
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
