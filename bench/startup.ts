/** Start-to-first-answered-request on the embedded database, and the login page's JS weight. */
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server.js';

/**
 * A new DATA_DIR (initdb, start, migrations, first admin), then the same directory again
 * `restarts` times after a clean stop. Milliseconds from spawning `node` to the first 200
 * from /api/health.
 */
export async function startTimes(restarts = 3) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kanak-bench-start-'));
  // As root the embedded PostgreSQL runs as `postgres`, which must reach the directory.
  await chmod(dataDir, 0o755);
  try {
    const firstMs = await timeOneStart(dataDir);
    const laterMs: number[] = [];
    for (let i = 0; i < restarts; i++) laterMs.push(await timeOneStart(dataDir));
    return { firstMs, laterMs, laterMaxMs: Math.max(...laterMs) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function timeOneStart(dataDir: string) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Bench@19280',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await untilHealthy(`http://127.0.0.1:${port}`, child);
    return Math.round(performance.now() - started);
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

async function untilHealthy(base: string, child: ChildProcess) {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(10);
  }
  throw new Error('server did not answer /api/health within 30 s');
}

/** The total printed by the web app's own size script (entry + login chunk + their static imports). */
export function loginPageJsGzipKb() {
  // The script exits 1 above its limit; the figure is still wanted then.
  const { stdout: output } = spawnSync(process.execPath, ['apps/web/scripts/login-js-size.mjs'], {
    encoding: 'utf8',
  });
  const total = /([\d.]+) KB\s+gzip in total/.exec(output);
  if (!total) throw new Error(`unexpected output of login-js-size.mjs:\n${output}`);
  return Number(total[1]);
}
