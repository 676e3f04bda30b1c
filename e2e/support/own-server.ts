import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN } from './env';
import { freePort } from './global-setup';

/**
 * A server of a test's own, started from the same build exactly as the shared one (embedded
 * PostgreSQL, its own DATA_DIR, its own port), for the tests that stop it in the middle of
 * what a user does and start it again. The shared server is never stopped.
 */
export class OwnServer {
  private child: ChildProcess | null = null;
  private log: number;

  private constructor(
    private readonly root: string,
    readonly dataDir: string,
    readonly port: number,
    /** Settings of this server's own (JOBS=off: no job runs behind the test's back). */
    private readonly extraEnv: NodeJS.ProcessEnv = {},
  ) {
    this.log = fs.openSync(`${dataDir}.log`, 'a');
  }

  get baseURL(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A fresh DATA_DIR on a free port, started and answering. */
  static async create(root: string, env: NodeJS.ProcessEnv = {}): Promise<OwnServer> {
    const main = path.join(root, 'apps/server/dist/main.js');
    if (!fs.existsSync(main)) throw new Error(`e2e: ${main} is missing: run \`npm run build\`.`);
    // The embedded PostgreSQL may run as the `postgres` user: the folder must be reachable.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kanak-e2e-own-'));
    fs.chmodSync(dataDir, 0o755);
    const server = new OwnServer(root, dataDir, await freePort(), env);
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...this.extraEnv,
    };
    for (const name of [
      'DATABASE_URL',
      'TEST_DATABASE_URL',
      'JWT_SECRET',
      'DATA_KEY',
      'WEB_DIST',
    ]) {
      delete env[name];
    }
    const child = spawn(process.execPath, [path.join(this.root, 'apps/server/dist/main.js')], {
      cwd: this.root,
      env,
      stdio: ['ignore', this.log, this.log],
    });
    this.child = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`e2e: own server exited (${child.exitCode})`);
      try {
        const response = await fetch(`${this.baseURL}/api/health`, {
          signal: AbortSignal.timeout(1_000),
        });
        if (response.ok) return;
      } catch {
        // not up yet
      }
      await sleep(100);
    }
    throw new Error('e2e: own server did not answer within 60 s');
  }

  /** SIGTERM, as an operator's restart: the server stops its PostgreSQL and exits. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
    ]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.closeSync(this.log);
    if (process.env.E2E_KEEP_DATA !== '1') {
      fs.rmSync(this.dataDir, { recursive: true, force: true });
      fs.rmSync(`${this.dataDir}.log`, { force: true });
    }
  }
}
