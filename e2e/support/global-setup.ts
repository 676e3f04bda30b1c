import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { DEFAULT_ACCOUNTING_SETTINGS, type BackupsList } from '@kanak/contract';
import { startFakeRazorpay } from '../../apps/server/test/fake-razorpay';
import { startFakeTally } from '../../apps/server/test/fake-tally';
import { startFakeWhatsApp } from '../../apps/server/test/fake-whatsapp';
import { chromePath } from './chrome';
import { ADMIN } from './env';

/**
 * Starts the product exactly as `npm start` does: `npm run build` once, then
 * `node --enable-source-maps apps/server/dist/main.js`, with no DATABASE_URL (so the server runs
 * its embedded PostgreSQL) on a fresh temporary DATA_DIR and a free port. Returns the teardown,
 * which sends SIGTERM and checks that the server and its PostgreSQL stopped cleanly.
 *
 * Environment:
 *   E2E_SKIP_BUILD=1   reuse the existing build (apps/server/dist, apps/web/dist)
 *   E2E_BASE_URL=...   test a server that is already running; start nothing
 *   E2E_KEEP_DATA=1    keep the temporary DATA_DIR and server log after the run
 *
 * Notices to customers go to a local fake WhatsApp provider started here (never the internet):
 * its address is KANAK_E2E_FAKE_WHATSAPP_URL, and GET {it}/_fake/messages lists what it got.
 * Pushes to Tally go to a local fake of Tally's XML server (TALLY_URL), whose company has the
 * default ledgers. Online installments go to a local fake of Razorpay (RAZORPAY_URL and its
 * keys), whose Standard Checkout the portal loads from RAZORPAY_CHECKOUT_URL.
 */

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;

/** A loopback port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function tail(file: string, lines = 60): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

function build(root: string): void {
  if (process.env.E2E_SKIP_BUILD === '1') {
    if (!fs.existsSync(path.join(root, 'apps/server/dist/main.js'))) {
      throw new Error(
        'E2E_SKIP_BUILD=1 but apps/server/dist/main.js is missing: run `npm run build`.',
      );
    }
    if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
      process.stdout.write(
        'e2e: warning: apps/web/dist is missing, the server will serve no web app\n',
      );
    }
    return;
  }
  const started = Date.now();
  process.stdout.write('e2e: npm run build ...\n');
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(
      `e2e: \`npm run build\` failed (exit ${result.status ?? result.signal}):\n` +
        `${result.stdout ?? ''}\n${result.stderr ?? ''}`.slice(-8000),
    );
  }
  process.stdout.write(`e2e: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

async function waitForHealth(
  url: string,
  child: ChildProcess,
  logFile: string,
  deadline: number,
): Promise<void> {
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `e2e: the server exited during start (${child.exitCode ?? child.signalCode}). ` +
          `Log ${logFile}:\n${tail(logFile)}`,
      );
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      const body = (await response.json().catch(() => null)) as { success?: unknown } | null;
      if (response.status === 200 && body?.success === true) return;
      lastProblem = `HTTP ${response.status} ${JSON.stringify(body)}`;
    } catch (error) {
      lastProblem = String(error);
    }
    await sleep(200);
  }
  throw new Error(
    `e2e: GET /api/health did not answer {success:true} within ${START_TIMEOUT_MS / 1000} s ` +
      `(last: ${lastProblem}). Log ${logFile}:\n${tail(logFile)}`,
  );
}

function findFiles(dir: string, name: string, found: string[] = []): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) findFiles(full, name, found);
    else if (entry.name === name) found.push(full);
  }
  return found;
}

/** The browser (see chrome.ts): its absence fails the run at once, never a skip. */
function checkBrowser(): void {
  const chrome = chromePath();
  try {
    fs.accessSync(chrome, fs.constants.X_OK);
  } catch {
    throw new Error(
      `e2e: no Chromium at ${chrome}. Install Debian's (apt-get install -y chromium) ` +
        'or set CHROME_PATH to a Chromium executable.',
    );
  }
}

/**
 * The shared server's first backup, made before any spec runs. Its start's catch-up would make
 * one some 30 s in, and until then every owner's dashboard warned of no backup: a warning that
 * came and went under the specs. (backups.spec.ts sees the warning on a server of its own.)
 */
async function firstBackup(baseURL: string) {
  const signedIn = await fetch(`${baseURL}/api/login/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({
      USERNAME: ADMIN.username,
      PASSWORD: ADMIN.password,
      stayLoggedIn: false,
    }),
  });
  const { accessToken } = (await signedIn.json()) as { accessToken?: string };
  const authorization = `Bearer ${accessToken ?? ''}`;
  const begun = await fetch(`${baseURL}/api/backups`, {
    method: 'POST',
    headers: { authorization, 'Idempotency-Key': randomUUID() },
  });
  if (!begun.ok) throw new Error(`e2e: the first backup was refused (${begun.status})`);
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(250)) {
    const answer = await fetch(`${baseURL}/api/backups`, { headers: { authorization } });
    const { data } = (await answer.json()) as { data: BackupsList };
    const [newest] = data.entries;
    if (newest?.result === 'good') return;
    if (newest?.result === 'failed')
      throw new Error(`e2e: the first backup failed: ${newest.reason}`);
  }
  throw new Error('e2e: the first backup took over 2 minutes');
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  checkBrowser();
  if (process.env.E2E_BASE_URL) {
    process.env.KANAK_E2E_BASE_URL = process.env.E2E_BASE_URL.replace(/\/$/, '');
    return async () => {};
  }

  const root = path.dirname(config.configFile ?? path.resolve('playwright.config.ts'));
  build(root);

  // The embedded PostgreSQL runs as the `postgres` system user when the server runs as root:
  // the data folder (and /tmp above it) must be reachable by that user.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kanak-e2e-'));
  fs.chmodSync(dataDir, 0o755);
  const logFile = `${dataDir}.log`;
  const log = fs.openSync(logFile, 'w');

  const fakeWhatsApp = await startFakeWhatsApp();
  // Servers the specs start of their own (OwnServer) inherit these too.
  process.env.KANAK_E2E_FAKE_WHATSAPP_URL = fakeWhatsApp.url;
  for (const panel of [1, 2, 3]) process.env[`MESSAGING_PANEL${panel}_URL`] = fakeWhatsApp.url;
  const fakeTally = await startFakeTally(
    Object.values(DEFAULT_ACCOUNTING_SETTINGS).filter(Boolean),
  );
  process.env.TALLY_URL = fakeTally.url;
  const fakeRazorpay = await startFakeRazorpay();
  process.env.RAZORPAY_URL = fakeRazorpay.url;
  process.env.RAZORPAY_KEY_ID = fakeRazorpay.keyId;
  process.env.RAZORPAY_KEY_SECRET = fakeRazorpay.keySecret;
  process.env.RAZORPAY_WEBHOOK_SECRET = fakeRazorpay.webhookSecret;
  process.env.RAZORPAY_CHECKOUT_URL = fakeRazorpay.checkoutUrl;

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    // Every spec's browsers sign in from 127.0.0.1, far more often than a showroom's address
    // does: the per-address limit itself is tested on the server (auth.test.ts).
    SIGN_IN_LIMIT_PER_MINUTE: '600',
  };
  // The real start path: embedded PostgreSQL, secrets generated into DATA_DIR.
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'JWT_SECRET', 'DATA_KEY', 'WEB_DIST']) {
    delete env[name];
  }

  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')],
    { cwd: root, env, stdio: ['ignore', log, log] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If the runner dies without teardown, do not leave the server (and its PostgreSQL) behind.
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', killOnExit);

  try {
    await waitForHealth(baseURL, child, logFile, Date.now() + START_TIMEOUT_MS);
    await firstBackup(baseURL);
  } catch (error) {
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(STOP_TIMEOUT_MS)]);
    await fakeWhatsApp.close();
    await fakeTally.close();
    await fakeRazorpay.close();
    throw error;
  }
  process.stdout.write(
    `e2e: server up at ${baseURL} in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
      `(DATA_DIR ${dataDir}, log ${logFile})\n`,
  );
  process.env.KANAK_E2E_BASE_URL = baseURL;
  // For specs that load bulk data straight into the database (`npm run seed:demo`).
  process.env.KANAK_E2E_DATA_DIR = dataDir;

  return async () => {
    process.removeListener('exit', killOnExit);
    const problems: string[] = [];
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const stopped = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS)),
      ]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
        problems.push(`the server did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
      } else if (child.exitCode !== 0) {
        problems.push(`the server exited ${child.exitCode ?? child.signalCode} after SIGTERM`);
      }
    } else {
      problems.push(`the server had already exited (${child.exitCode ?? child.signalCode})`);
    }
    fs.closeSync(log);
    await fakeWhatsApp.close();
    await fakeTally.close();
    await fakeRazorpay.close();
    // The server stops its PostgreSQL itself; a pid file left behind means it did not.
    const leftovers = findFiles(dataDir, 'postmaster.pid');
    if (leftovers.length > 0) {
      problems.push(`embedded PostgreSQL still running (${leftovers.join(', ')})`);
      for (const pidFile of leftovers) {
        // Fast shutdown of the PostgreSQL the server left behind, so nothing outlives the run.
        const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
        try {
          if (pid > 0) process.kill(pid, 'SIGINT');
        } catch {
          // already gone
        }
      }
    }
    if (problems.length > 0) {
      throw new Error(`e2e: ${problems.join('; ')}. Log ${logFile}:\n${tail(logFile)}`);
    }
    if (process.env.E2E_KEEP_DATA !== '1') {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(logFile, { force: true });
    }
  };
}
