import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer, tempDir } from '../../test/processes.js';

/**
 * A stop that comes as soon as the server answers, while its background jobs are still being
 * set up (a service manager restarting it, a benchmark timing starts): the embedded
 * PostgreSQL stops with the server, and the next start on the same DATA_DIR succeeds.
 */

const dir = tempDir('kanak-stop-starting-');
afterAll(() => dir.remove());

/** Is the postmaster of DATA_DIR still running? */
function postmasterAlive(): boolean {
  const pidFile = path.join(dir.path, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it('stops its embedded PostgreSQL when stopped right after it first answers, and starts again', async () => {
  // A fresh DATA_DIR: the jobs' schema is made after listening, so the stop lands while it is.
  const first = await startServer({ dataDir: dir.path });
  await first.stop();
  expect(postmasterAlive(), first.logTail()).toBe(false);

  const second = await startServer({ dataDir: dir.path });
  try {
    const health = await fetch(`${second.url}/api/health`);
    expect(health.status).toBe(200);
  } finally {
    await second.stop();
  }
  expect(postmasterAlive()).toBe(false);
}, 120_000);
