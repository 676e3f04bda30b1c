import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { connectDatabase } from '../src/db/client.js';
import { createFieldCipher } from '../src/lib/crypto.js';
import { customersRepo } from '../src/modules/customers/customers.repo.js';
import { createMessagingService } from '../src/modules/messaging/messaging.service.js';
import { createNoticeSender } from '../src/modules/notices/notices.sender.js';

/**
 * A notices worker in a process of its own — the server's sender, as its jobs run it, every
 * panel pointing at one (fake) provider — for the fault tests, which kill it, and the bench,
 * which times it. It sends until nothing is due and exits, or with `forever` until killed.
 */
export interface WorkerOptions {
  databaseUrl: string;
  providerUrl: string;
  /** The DATA_KEY the panel's token was sealed with. */
  dataKey: string;
  rate: number;
  leaseSeconds?: number;
  timeoutMs?: number;
  forever?: boolean;
  stdio?: StdioOptions;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);

export function spawnNoticesWorker(options: WorkerOptions) {
  const child = spawn(
    process.execPath,
    ['--conditions=@kanak/source', '--import', 'tsx', THIS_FILE],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, NOTICES_WORKER: JSON.stringify({ ...options, stdio: undefined }) },
      stdio: options.stdio ?? 'ignore',
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited };
}

async function main(options: WorkerOptions) {
  const { db, close } = connectDatabase(options.databaseUrl, { max: 4 });
  const url = options.providerUrl;
  const sender = createNoticeSender({
    db,
    panel: createMessagingService({ db, cipher: createFieldCipher(options.dataKey) }),
    customers: customersRepo,
    urls: { 1: url, 2: url, 3: url },
    rate: options.rate,
    log: pino({ level: 'warn' }),
    leaseSeconds: options.leaseSeconds,
    timeoutMs: options.timeoutMs,
  });
  for (;;) {
    const run = await sender.run();
    const idle = !run.more && run.sent + run.retried + run.failed + run.skipped === 0;
    if (idle && !options.forever) break;
    if (idle) await sleep(100);
  }
  await close();
}

if (process.argv[1] === THIS_FILE && process.env.NOTICES_WORKER) {
  await main(JSON.parse(process.env.NOTICES_WORKER) as WorkerOptions);
}
