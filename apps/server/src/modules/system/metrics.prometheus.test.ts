import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.js';
import { freePort, startServer, tempDir, type ServerProcess } from '../../../test/processes.js';

/**
 * A real Prometheus (Debian's; PROMETHEUS names another binary) scraping a real server process
 * with the bearer token, as the operations guide sets it up: its query API then answers the
 * request durations' 95th percentile from what it scraped.
 */
const PROMETHEUS = process.env.PROMETHEUS ?? '/usr/bin/prometheus';
const TOKEN = 'prometheus-scrapes-with-this-token';

let database: TestDatabase;
let dir: ReturnType<typeof tempDir>;
let server: ServerProcess;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;
let prometheusLog = '';

beforeAll(async () => {
  database = await createTestDatabase();
  dir = tempDir('kanak-prometheus-');
  server = await startServer({
    dataDir: dir.path,
    env: { DATABASE_URL: database.url, METRICS_TOKEN: TOKEN, JOBS: 'off' },
  });
  const config = path.join(dir.path, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'scrape_configs:',
      '  - job_name: kanak',
      '    scrape_interval: 1s',
      '    scrape_timeout: 1s',
      '    metrics_path: /metrics',
      '    authorization:',
      `      credentials: ${TOKEN}`,
      '    static_configs:',
      `      - targets: ['${new URL(server.url).host}']`,
    ].join('\n'),
  );
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir.path, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
  prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
}, 90_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    const timer = setTimeout(() => prometheus!.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await server?.stop();
  await database?.drop();
  dir?.remove();
});

interface QueryAnswer {
  status: string;
  data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

/** One instant query to Prometheus's HTTP API; undefined until Prometheus answers. */
async function query(promql: string): Promise<QueryAnswer | undefined> {
  try {
    const response = await fetch(
      `${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`,
      { signal: AbortSignal.timeout(2_000) },
    );
    return (await response.json()) as QueryAnswer;
  } catch {
    return undefined;
  }
}

describe('Prometheus scraping GET /metrics', () => {
  it('scrapes with the bearer token and answers the 95th percentile of the request durations', async () => {
    // Requests all along, so that the rate over the last minute has something in every scrape.
    let busy = true;
    const traffic = (async () => {
      while (busy) {
        await fetch(`${server.url}/api/health`).catch(() => undefined);
        await sleep(100);
      }
    })();
    const p95 =
      'histogram_quantile(0.95, sum by (le) (rate(kanak_http_request_duration_seconds_bucket{route="/api/health"}[1m])))';
    let answer: QueryAnswer | undefined;
    try {
      for (const until = Date.now() + 20_000; Date.now() < until; await sleep(500)) {
        answer = await query(p95);
        const value = Number(answer?.data?.result[0]?.value[1]);
        if (Number.isFinite(value) && value > 0) break;
      }
    } finally {
      busy = false;
      await traffic;
    }
    expect(answer?.status, prometheusLog).toBe('success');
    const seconds = Number(answer!.data!.result[0]?.value[1]);
    expect(Number.isFinite(seconds), JSON.stringify(answer)).toBe(true);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(10);

    // The target was up, with the token; and the database's figures were read.
    const up = await query('up{job="kanak"}');
    expect(up?.data?.result[0]?.value[1]).toBe('1');
    const source = await query('kanak_scrape_source_up{source="database"}');
    expect(source?.data?.result[0]?.value[1]).toBe('1');
  }, 40_000);
});
