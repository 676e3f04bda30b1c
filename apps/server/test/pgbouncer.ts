import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, tempDir } from './processes.js';

/** Debian's PgBouncer (`apt-get install pgbouncer`); PGBOUNCER names another binary. */
const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `database`'s URL through the pooler. */
  urlFor(database: string): string;
  /** What PgBouncer printed, for failure messages. */
  logTail(): string;
  stop(): Promise<void>;
}

/**
 * A real PgBouncer in transaction mode in front of the PostgreSQL of `serverUrl`, on a free
 * loopback port, with its own ini and user list in a temporary folder. Few server connections
 * per database, so that the clients' transactions take turns on them, as behind a busy pooler:
 * anything kept on a connection between transactions (a prepared statement, a SET, a session
 * lock) meets another client's connection.
 */
export async function startPgBouncer(
  serverUrl: string,
  options: { serverConnections?: number } = {},
): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const dir = tempDir('kanak-pgbouncer-');
  const ini = path.join(dir.path, 'pgbouncer.ini');
  const userList = path.join(dir.path, 'userlist.txt');
  const version = execFileSync(PGBOUNCER, ['--version'], { encoding: 'utf8' });
  const [major = 0, minor = 0] = /PgBouncer (\d+)\.(\d+)/.exec(version)?.slice(1).map(Number) ?? [];
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432} user=${user}` +
        (password ? ` password=${password}` : ''),
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // The clients are this test's own processes on the loopback.
      'auth_type = trust',
      `auth_file = ${userList}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.serverConnections ?? 3}`,
      'max_client_conn = 500',
      // From 1.21 PgBouncer can keep prepared statements; these tests run without, as 1.18.
      ...(major > 1 || minor >= 21 ? ['max_prepared_statements = 0'] : []),
    ].join('\n'),
  );
  writeFileSync(userList, `"${user}" ""\n`);
  // PgBouncer will not run as root: as root it changes to the postgres system user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir.path, postgresUid, -1);
  }
  const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const bouncer: PgBouncer = {
    urlFor: (database) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`,
    logTail: () => log.split('\n').slice(-30).join('\n'),
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        // SIGTERM: PgBouncer's immediate shutdown, not waiting for its clients to leave.
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      dir.remove();
    },
  };
  const started = Date.now();
  while (!log.includes('process up')) {
    if (child.exitCode !== null || Date.now() - started > 10_000) {
      await bouncer.stop();
      throw new Error(`PgBouncer did not start:\n${log}`);
    }
    await sleep(50);
  }
  return bouncer;
}
