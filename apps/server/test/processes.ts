import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PATHS, API_PREFIX, IDEMPOTENCY_HEADER, todayIn } from '@kanak/contract';
import { UNHEARD_REJECTION } from '../src/lib/unheard-rejections.js';
import { NO_PROVIDER, TEST_SECRETS } from './helpers.js';

/**
 * Real server processes for the fault tests: `src/main.ts` run from source through tsx (no
 * build needed), on a loopback port of their own, with a log file to show when a test fails.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const ADMIN = { username: 'admin', password: 'Fault@Test1928' };

/** Every child started by this file: killed when the test process exits, whatever happened. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A temporary folder the `postgres` system user can reach: under root, the embedded
 * PostgreSQL runs as that user.
 */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return { path: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** The last lines the server printed, for failure messages. */
  logTail(): string;
  /** `kill -9`: no chance to finish requests, close the pool or stop PostgreSQL. */
  kill9(): Promise<void>;
  /** SIGTERM, as an operator stops it; SIGKILL if it has not stopped within 15 s. */
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` and waits until /api/health answers 200. With no DATABASE_URL in `env`
 * the server runs its embedded PostgreSQL in DATA_DIR.
 */
interface ServerOptions {
  dataDir: string;
  env?: Record<string, string>;
  port?: number;
  healthTimeoutMs?: number;
}

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  if (options.port !== undefined) return startServerOn(options.port, options);
  // A port found free can be taken before the server listens on it (an outgoing connection
  // of another process picks from the same range): the server then exits, and another is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOn(await freePort(), options);
    } catch (error) {
      if (attempt === 3 || !(error as Error).message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function startServerOn(port: number, options: ServerOptions): Promise<ServerProcess> {
  const logFile = path.join(options.dataDir, `server-${port}-${Date.now()}.log`);
  const log = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    ['--conditions=@kanak/source', '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: REPO_ROOT,
      // Only what the server needs: a DATABASE_URL of the test runner's must not leak in.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? os.tmpdir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: options.dataDir,
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        JWT_SECRET: TEST_SECRETS.jwtSecret,
        DATA_KEY: TEST_SECRETS.dataKey,
        ...NO_PROVIDER,
        ...options.env,
      },
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  const logTail = () => readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      // A server that dies on its own is a finding: show why, whatever the test says next.
      if (code) console.error(`${url} exited with code ${code}:\n${logTail()}`);
      resolve();
    }),
  );

  const server: ServerProcess = {
    url,
    pid: child.pid!,
    logTail,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      // A rejection nobody listened to is logged rather than ending the process, and is a
      // defect all the same: every test that starts a server fails on one.
      const unheard = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes(UNHEARD_REJECTION));
      if (unheard.length > 0) {
        throw new Error(
          `${url} logged ${unheard.length} unheard rejection(s):\n${unheard.join('\n')}`,
        );
      }
    },
  };
  try {
    await waitForHealth(url, options.healthTimeoutMs ?? 60_000, () => child.exitCode !== null);
  } catch (error) {
    await server.kill9();
    throw new Error(`${(error as Error).message}\nServer log:\n${logTail()}`);
  }
  return server;
}

/** Polls /api/health until it answers 200; returns how long that took. */
export async function waitForHealth(
  url: string,
  timeoutMs: number,
  gaveUp: () => boolean = () => false,
): Promise<number> {
  const started = Date.now();
  let last = 'no answer';
  while (Date.now() - started < timeoutMs) {
    if (gaveUp()) throw new Error(`the server exited before it was healthy (last: ${last})`);
    try {
      const response = await fetch(`${url}${API_PREFIX}${API_PATHS.health}`, {
        signal: AbortSignal.timeout(2_000),
      });
      if (response.status === 200) return Date.now() - started;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String((error as Error).cause ?? error);
    }
    await sleep(100);
  }
  throw new Error(`${url} was not healthy within ${timeoutMs} ms (last: ${last})`);
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T & { success?: boolean; message?: string };
}

/** One JSON POST to the API; a change carries an Idempotency-Key (a fresh one unless given). */
export async function post<T = Record<string, unknown>>(
  url: string,
  apiPath: string,
  body: unknown,
  options: {
    token?: string;
    idempotencyKey?: string;
    timeoutMs?: number;
    /** More headers: a load balancer's X-Forwarded-For. */
    headers?: Record<string, string>;
  } = {},
): Promise<Answer<T>> {
  const response = await fetch(`${url}${API_PREFIX}${apiPath}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      [IDEMPOTENCY_HEADER]: options.idempotencyKey ?? randomUUID(),
      ...options.headers,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await response.text();
  let parsed: Answer<T>['body'];
  try {
    parsed = JSON.parse(text) as Answer<T>['body'];
  } catch {
    throw new Error(`${apiPath}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: parsed };
}

/** One GET of the API, answered as JSON. */
export async function get<T = Record<string, unknown>>(
  url: string,
  apiPath: string,
  options: { token?: string } = {},
): Promise<Answer<T>> {
  const response = await fetch(`${url}${API_PREFIX}${apiPath}`, {
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
}

export async function signIn(url: string, username = ADMIN.username, password = ADMIN.password) {
  const answer = await post<{ accessToken?: string }>(url, API_PATHS.login, {
    USERNAME: username,
    PASSWORD: password,
    stayLoggedIn: false,
  });
  if (!answer.body.accessToken) throw new Error(`sign-in failed: ${JSON.stringify(answer)}`);
  return answer.body.accessToken;
}

/** Creates a customer through the API and returns its id. */
export async function addCustomer(url: string, token: string, mobileno: string, custname: string) {
  const answer = await post<{ data?: { custid: number } }>(
    url,
    API_PATHS.saveCustomer,
    { formData: { custid: null, mobileno, custname } },
    { token },
  );
  if (answer.status !== 200 || !answer.body.data)
    throw new Error(`customer ${mobileno} not created: ${JSON.stringify(answer)}`);
  return answer.body.data.custid;
}

/** Today in the store's time zone, as the spawned server (default STORE_TIMEZONE) sees it. */
export const storeToday = () => todayIn('Asia/Kolkata');

/** The first day of the month `offset` months from today's month ('YYYY-MM-01'). */
export function firstOfMonth(offset: number): string {
  const [year, month] = storeToday().split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, month - 1 + offset, 1));
  return date.toISOString().slice(0, 10);
}
