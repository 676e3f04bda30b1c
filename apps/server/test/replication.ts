import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freeLoopbackPort, systemUserWhenRoot } from '../src/db/embedded.js';

/**
 * A real primary and a hot standby streaming from it, made with PostgreSQL's own tools
 * (initdb, pg_ctl, pg_basebackup -R) in a temporary folder, each on a free loopback port. As
 * root they run as the `postgres` system user, which PostgreSQL requires. For the replica
 * tests, and for the bench's replica run.
 */
export interface ReplicatedPair {
  primary: Cluster;
  standby: Cluster;
  /** Stops both and removes their folder. */
  close(): Promise<void>;
}

export interface Cluster {
  /** The `kanak` database on this cluster. */
  url: string;
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** `pg_ctl stop -m fast`: sessions are ended, as when the machine is shut down. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const run = promisify(execFile);
const DATABASE = 'kanak';

/** PostgreSQL's own programs: PG_BIN, pg_config's, or the newest Debian installs. */
function postgresBin(): string {
  const candidates = [process.env.PG_BIN];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config: look where Debian installs the servers
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(debian, version, 'bin')));
  }
  const found = candidates.find((dir) => dir && existsSync(path.join(dir, 'pg_basebackup')));
  if (!found) {
    throw new Error(
      'A replica test needs PostgreSQL server programs (initdb, pg_ctl, pg_basebackup): install ' +
        'the postgresql package or set PG_BIN to their folder.',
    );
  }
  return found;
}

export async function startReplicatedPair(): Promise<ReplicatedPair> {
  const bin = postgresBin();
  const runAs = systemUserWhenRoot();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kanak-replica-'));
  chmodSync(dir, 0o700);
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const tool = (name: string, args: string[]) =>
    run(path.join(bin, name), args, {
      ...(runAs ?? {}),
      cwd: dir,
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
    });

  const started = new Set<string>();
  // Whatever ends this process, no postmaster of ours is left behind.
  const stopAll = () => {
    for (const data of started) {
      spawnSync(path.join(bin, 'pg_ctl'), ['-D', data, 'stop', '-m', 'immediate'], {
        ...(runAs ?? {}),
        cwd: dir,
      });
    }
    started.clear();
  };
  process.once('exit', stopAll);

  const cluster = (name: string, port: number): Cluster => {
    const data = path.join(dir, name);
    const url = `postgres://postgres@127.0.0.1:${port}/${DATABASE}`;
    return {
      url,
      sql: async (text, values) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(text, values)).rows;
        } finally {
          await client.end();
        }
      },
      async start() {
        await tool('pg_ctl', [
          '-D',
          data,
          '-l',
          path.join(dir, `${name}.log`),
          '-w',
          '-t',
          '60',
          '-o',
          // Streaming replication needs nothing more than the defaults (wal_level=replica,
          // wal senders) and initdb's trust lines for loopback; a test needs no fsync.
          `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off`,
          'start',
        ]);
        started.add(data);
      },
      async stop() {
        await tool('pg_ctl', ['-D', data, '-w', '-t', '60', 'stop', '-m', 'fast']);
        started.delete(data);
      },
    };
  };

  try {
    const primary = cluster('primary', await freeLoopbackPort());
    await tool('initdb', [
      '-D',
      path.join(dir, 'primary'),
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    await primary.start();
    await withAdmin(primary.url, (client) => client.query(`CREATE DATABASE ${DATABASE}`));

    const standby = cluster('standby', await freeLoopbackPort());
    const primaryPort = new URL(primary.url).port;
    // -R writes standby.signal and the connection back to the primary.
    await tool('pg_basebackup', [
      '-d',
      `host=127.0.0.1 port=${primaryPort} user=postgres`,
      '-D',
      path.join(dir, 'standby'),
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await standby.start();

    return {
      primary,
      standby,
      async close() {
        process.removeListener('exit', stopAll);
        stopAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    process.removeListener('exit', stopAll);
    stopAll();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
