/**
 * The import of another program's customers with their opening points, through the real
 * server: a CSV of N customers (every one with points and an expiry date) written to a
 * temporary file and posted to `POST /api/import/customers` as the Import screen sends it
 * (multipart, `dryRun` false, an owner's token), on the built server started as the bench
 * starts its servers, against a database made for the run on the bench's database server
 * (migrated, then dropped). Timed from the first byte sent to the answer, with the server
 * process's peak RSS (VmHWM) and then `check-ledger` on that database. Target: 100,000
 * customers in ≤ 60 s, server RSS < 300 MB.
 *
 * `npm run bench -- --only import` runs it (without the benchmark data set), and a full
 * `npm run bench` does too. Needs `npm run build` first.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { API_PATHS, API_PREFIX, type ImportResult } from '@kanak/contract';
import { connectDatabase } from '../apps/server/src/db/client.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { createUsersService } from '../apps/server/src/modules/users/users.service.js';
import { checkLedger } from '../apps/server/src/modules/points/points.ledger-check.js';
import { TARGETS, type ImportResults } from './report.js';
import { BENCH_USER, signIn, startServer } from './server.js';

/** The file an owner exports from other software: Indian dates, a Hindi surname, points. */
async function writeFile(file: string, customers: number) {
  const out = createWriteStream(file);
  out.write('Mobile No,Customer Name,City,DOB,Points,Expiry Date\n');
  for (let i = 0; i < customers; i += 1) {
    const line = `${6_000_000_000 + i},Customer ${i} सिंह,Jaipur,15/08/1985,${1 + (i % 5000)},31/12/2030\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/**
 * The CPU seconds (user and system) the process has used so far, from /proc/<pid>/stat: on a
 * shared machine the wall time is also the others' load, this figure is the server's own.
 */
async function cpuSeconds(pid: number) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // After the command's name (in parentheses, which may hold spaces): the state is field 3,
  // utime and stime fields 14 and 15, in clock ticks (100 a second on Linux).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A figure of /proc/<pid>/status (VmHWM: the peak resident set; VmRSS: now), in MB. */
async function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS') {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Math.round(Number(kb[1]) / 1024);
}

export async function importOverHttp({
  databaseUrl,
  dataDir,
  customers,
  nodeArgs = [],
}: {
  /** The bench's database: its server hosts the run's own database; it is not touched. */
  databaseUrl: string;
  /** The servers' DATA_DIR (their secrets), as the other steps start them. */
  dataDir: string;
  customers: number;
  /** Node's options for the server (`--cpu-prof` when looking at where its time goes). */
  nodeArgs?: string[];
}): Promise<ImportResults> {
  const name = `kanak_bench_import_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const database = connectDatabase(url.toString(), { max: 2 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kanak-bench-import-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await migrateDatabase(database.db);
    await createUsersService({ db: database.db }).addUser(
      null,
      BENCH_USER.username,
      BENCH_USER.password,
      'owner',
    );
    const file = path.join(dir, 'customers.csv');
    await writeFile(file, customers);
    // The jobs off: the import is measured alone.
    server = await startServer(url.toString(), dataDir, nodeArgs, { JOBS: 'off' });
    const token = await signIn(server.base);
    const rssBeforeMb = await memoryMb(server.pid, 'VmRSS');
    const cpuBefore = await cpuSeconds(server.pid);

    // As the screen sends it: the form's field, then the file, streamed from disk.
    const form = new FormData();
    form.append('dryRun', 'false');
    form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'customers.csv');
    const started = performance.now();
    const response = await fetch(`${server.base}${API_PREFIX}${API_PATHS.importCustomers}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
      body: form,
    });
    const body = (await response.json()) as { data?: ImportResult; message?: string };
    const seconds = (performance.now() - started) / 1000;
    if (!response.ok || !body.data)
      throw new Error(`import answered ${response.status}: ${body.message ?? ''}`);
    const peakRssMb = await memoryMb(server.pid, 'VmHWM');
    const serverCpuSeconds = Number(((await cpuSeconds(server.pid)) - cpuBefore).toFixed(1));
    const ledger = await checkLedger(database.db);
    const result = {
      customers,
      created: body.data.created,
      errors: body.data.errorCount,
      seconds: Number(seconds.toFixed(1)),
      peakRssMb,
      rssBeforeMb,
      serverCpuSeconds,
      loadAverage: os.loadavg()[0]!.toFixed(2),
      ledgerAgrees: ledger.differing === 0 && ledger.customers === customers,
      via: `POST ${API_PREFIX}${API_PATHS.importCustomers}`,
    };
    console.log(
      JSON.stringify({
        ...result,
        target: `≤ ${TARGETS.importSeconds} s, server RSS < ${TARGETS.importRssMb} MB`,
        met:
          seconds <= TARGETS.importSeconds &&
          peakRssMb < TARGETS.importRssMb &&
          result.ledgerAgrees &&
          result.created === customers,
      }),
    );
    return result;
  } finally {
    await server?.stop();
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  }
}
