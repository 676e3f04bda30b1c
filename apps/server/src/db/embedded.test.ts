import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateCluster } from './embedded.js';
import {
  ADMIN,
  REPO_ROOT,
  addCustomer,
  post,
  signIn,
  startServer,
  type ServerProcess,
} from '../../test/processes.js';
import { API_PATHS } from '@kanak/contract';

/**
 * `git clone` into root's 0700 home, then `npm start` as root: PostgreSQL runs as the
 * `postgres` system user, which cannot pass the home folder. The cluster is then kept in
 * /var/lib/kanak under a name made from DATA_DIR, the same for every start and command;
 * secrets and the lock stay in DATA_DIR.
 *
 * Only root runs PostgreSQL as another user, so only root can meet this: CI runs as root, and
 * a developer who is not root has nothing here to test.
 */
const asRoot = process.getuid?.() === 0;

/** A CLI command as `npm run <script>` runs it (tsx from source), with only DATA_DIR set. */
function runCli(script: string, args: string[], dataDir: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@kanak/source', '--import', 'tsx', `apps/server/src/cli/${script}`, ...args],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), DATA_DIR: dataDir },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe.skipIf(!asRoot)('as root, with DATA_DIR inside a private (0700) home folder', () => {
  let home: string;
  let dataDir: string;
  let cluster = '';
  let server: ServerProcess | undefined;

  beforeAll(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'kanak-home-'));
    // mkdtemp makes it 0700 already, as a home folder is: no chmod by the test.
    expect(statSync(home).mode & 0o777).toBe(0o700);
    dataDir = path.join(home, 'kanak', 'data');
    mkdirSync(dataDir, { recursive: true });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
    if (cluster.startsWith('/var/lib/kanak/')) rmSync(cluster, { recursive: true, force: true });
  });

  it('starts, keeps the database in /var/lib/kanak and says so; secrets stay in DATA_DIR', async () => {
    server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } });
    const token = await signIn(server.url);
    await addCustomer(server.url, token, '9300000021', 'Home Folder Customer');

    const located = /so its database is kept in (\/var\/lib\/kanak\/[^;]+);/.exec(server.logTail());
    expect(located, server.logTail()).not.toBeNull();
    cluster = located![1]!;
    expect(path.basename(cluster)).toMatch(/^kanak-data-[0-9a-f]{12}$/);
    expect(existsSync(path.join(cluster, 'PG_VERSION'))).toBe(true);
    expect(statSync(cluster).mode & 0o777).toBe(0o700);
    expect(statSync(cluster).uid).not.toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'kanak.pid'))).toBe(true);
    // The home folder was left as it was.
    expect(statSync(home).mode & 0o777).toBe(0o700);
  }, 90_000);

  it('a command finds the same database, with the server running and without it', async () => {
    const running = await runCli('users.ts', ['list'], dataDir);
    expect(running.code, running.output).toBe(0);
    expect(running.output).toContain(ADMIN.username);

    await server!.stop();
    server = undefined;
    const added = await runCli('users.ts', ['add', 'priya', '--password', 'Priya@1928'], dataDir);
    expect(added.code, added.output).toBe(0);
    const backup = await runCli('backup.ts', ['--out', path.join(home, 'backups')], dataDir);
    expect(backup.code, backup.output).toBe(0);
  }, 90_000);

  it('the next start uses the same cluster: the data is still there', async () => {
    server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } });
    expect(server.logTail()).toContain(cluster);
    const token = await signIn(server.url, 'priya', 'Priya@1928');
    const found = await post<{ data?: { custname: string } }>(
      server.url,
      API_PATHS.customerData,
      { mobileno: '9300000021' },
      { token },
    );
    expect(found.body.data?.custname).toBe('Home Folder Customer');
    expect(readFileSync(path.join(dataDir, 'kanak.pid'), 'utf8')).toBe(String(server.pid));
  }, 90_000);
});

describe('locateCluster', () => {
  it('is DATA_DIR/pg when not root', async () => {
    expect(await locateCluster('/srv/kanak/data', undefined)).toBe('/srv/kanak/data/pg');
  });
});
