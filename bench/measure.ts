/** Load generation: autocannon against the server, and the same SQL straight through pg, at equal concurrency. */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Scenario {
  name: string;
  /** The n-th request of a run. */
  call(n: number): HttpCall;
  /** The same SQL the server runs for the n-th request, on one pooled client. */
  raw(client: pg.PoolClient, n: number): Promise<unknown>;
  /** Exports run a fixed number of requests per connection instead of for a duration. */
  requestsPerConnection?: number;
  /** Streaming answers have no meaningful Server-Timing; their client latency is reported. */
  streamed?: boolean;
  /** A counter's billing system: sent with this API key instead of the staff token. */
  apiKey?: string;
  /** Settings the run needs: SQL run before it, and SQL that takes them back after. */
  settings?: { apply: string; undo: string };
}

export interface Figures {
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface Run {
  connections: number;
  requestsPerSecond: number;
  errors: number;
  /** Time to the last byte at the client. */
  latencyMs: Figures;
  /** The server's own time (Server-Timing), which excludes the network and the load generator. */
  serverTimeMs: Figures;
  raw: { requestsPerSecond: number; latencyMs: Figures };
  /** Server p95 over raw SQL p95, and server throughput over raw throughput. */
  ratio: { p95: number; throughput: number };
  peakRssMb?: number;
}

export interface Target {
  base: string;
  token: string;
  databaseUrl: string;
  serverPid: number;
  durationS: number;
}

export async function measure(target: Target, scenario: Scenario, connections: number[]) {
  const { settings } = scenario;
  if (!settings) return measureRuns(target, scenario, connections);
  await runSql(target.databaseUrl, settings.apply);
  try {
    return await measureRuns(target, scenario, connections);
  } finally {
    await runSql(target.databaseUrl, settings.undo);
  }
}

async function runSql(databaseUrl: string, text: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function measureRuns(target: Target, scenario: Scenario, connections: number[]) {
  const runs: Run[] = [];
  for (const c of connections) {
    const rss = watchRss(target.serverPid);
    const http = await overHttp(target, scenario, c);
    const peakRssMb = rss.stop();
    const raw = await overSql(target, scenario, c);
    const server = scenario.streamed ? http.latencyMs : http.serverTimeMs;
    runs.push({
      connections: c,
      ...http,
      raw,
      ratio: {
        p95: round(server.p95 / raw.latencyMs.p95),
        throughput: round(http.requestsPerSecond / raw.requestsPerSecond),
      },
      ...(scenario.streamed ? { peakRssMb } : {}),
    });
    console.log(
      `${scenario.name} c${c}: ${http.requestsPerSecond} req/s, server p95 ${server.p95} ms, raw p95 ${raw.latencyMs.p95} ms, ${raw.requestsPerSecond} raw/s` +
        (scenario.streamed ? `, peak RSS ${peakRssMb} MB` : ''),
    );
  }
  return runs;
}

/** `keepGoing`: after the usual duration, the run goes on in steps of it while this says so. */
export async function overHttp(
  target: Target,
  scenario: Scenario,
  connections: number,
  keepGoing?: () => boolean,
) {
  if (scenario.streamed) return overHttpStreamed(target, scenario, connections);
  const latencies: number[] = [];
  const serverTimes: number[] = [];
  let n = 0;
  let failed = 0;
  let dropped = 0;
  const started = performance.now();
  do {
    const result = await autocannon({
      url: target.base,
      connections,
      // Timeouts far beyond any target: a slow answer is a figure to report, not an error. 32
      // concurrent million-row exports share two cores for minutes.
      ...(scenario.requestsPerConnection
        ? { amount: connections * scenario.requestsPerConnection, timeout: 900 }
        : { duration: target.durationS, timeout: 60 }),
      requests: [
        {
          setupRequest: (request, context: { sentAt?: number }) => {
            const call = scenario.call(n++);
            context.sentAt = performance.now();
            return {
              ...request,
              method: call.method,
              path: call.path,
              headers: headersOf(target, scenario, call),
              body: bodyOf(call),
            };
          },
          onResponse: (status, _body, context: { sentAt?: number }, headers) => {
            if (status !== 200) {
              failed += 1;
              return;
            }
            latencies.push(performance.now() - (context.sentAt ?? 0));
            const timing = /dur=([\d.]+)/.exec(String(headers?.['server-timing'] ?? ''));
            if (timing) serverTimes.push(Number(timing[1]));
          },
        },
      ],
    });
    dropped += result.errors + result.timeouts;
  } while (keepGoing?.());
  const seconds = (performance.now() - started) / 1000;
  return {
    requestsPerSecond: round(latencies.length / seconds),
    errors: failed + dropped,
    latencyMs: percentiles(latencies),
    serverTimeMs: percentiles(serverTimes),
  };
}

/** The staff token, or the counter's API key, and the call's own headers. */
const headersOf = (target: Target, scenario: Scenario, call: HttpCall) => ({
  ...(scenario.apiKey
    ? { 'x-api-key': scenario.apiKey }
    : { authorization: `Bearer ${target.token}` }),
  'content-type': 'application/json',
  ...call.headers,
});

const bodyOf = (call: HttpCall) =>
  call.body === undefined ? undefined : JSON.stringify(call.body);

/**
 * Streamed answers are read and dropped chunk by chunk: autocannon keeps a whole body as one
 * string, which a ten-million-row export (over 512 MB of CSV) cannot be.
 */
async function overHttpStreamed(target: Target, scenario: Scenario, connections: number) {
  const latencies: number[] = [];
  const serverTimes: number[] = [];
  let failed = 0;
  let n = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = 0; i < (scenario.requestsPerConnection ?? 1); i++) {
        const call = scenario.call(n++);
        const sentAt = performance.now();
        try {
          const response = await fetch(new URL(call.path, target.base), {
            method: call.method,
            headers: headersOf(target, scenario, call),
            body: bodyOf(call),
          });
          for await (const chunk of response.body ?? []) void chunk;
          if (response.status !== 200) {
            failed += 1;
            continue;
          }
          latencies.push(performance.now() - sentAt);
          const timing = /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
          if (timing) serverTimes.push(Number(timing[1]));
        } catch {
          failed += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    requestsPerSecond: round(latencies.length / seconds),
    errors: failed,
    latencyMs: percentiles(latencies),
    serverTimeMs: percentiles(serverTimes),
  };
}

/** `connections` clients each running the scenario's SQL back to back, for as long as the HTTP run. */
async function overSql(target: Target, scenario: Scenario, connections: number) {
  const pool = new pg.Pool({ connectionString: target.databaseUrl, max: connections });
  const latencies: number[] = [];
  let n = 0;
  const started = performance.now();
  const until = started + target.durationS * 1000;
  const budget = scenario.requestsPerConnection;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        const client = await pool.connect();
        try {
          for (let done = 0; budget ? done < budget : performance.now() < until; done++) {
            const sent = performance.now();
            await scenario.raw(client, n++);
            latencies.push(performance.now() - sent);
          }
        } finally {
          client.release();
        }
      }),
    );
  } finally {
    await pool.end();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    requestsPerSecond: round(latencies.length / seconds),
    latencyMs: percentiles(latencies),
  };
}

/** Peak resident memory of the server process while a run lasts (Linux /proc). */
function watchRss(pid: number) {
  let peakKb = 0;
  const sample = () => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    peakKb = Math.max(peakKb, Number(match?.[1] ?? 0));
  };
  sample();
  const timer = setInterval(sample, 50);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return round(peakKb / 1024);
    },
  };
}

export function percentiles(values: number[]): Figures {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99) };
}

export const round = (value: number) => Number(value.toFixed(2));
