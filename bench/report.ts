/** bench/results/*.json and the generated tables of docs/performance.md. */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { LIMITS } from '@kanak/contract';
import type { Figures, Run } from './measure.js';
import type { NoticesRun } from './notices.js';

export const TARGETS = {
  searchP95Ms: 10,
  /** The API over the same SQL run raw, p95 at 1 connection: search, statement, summary page. */
  readsRatio: 1.5,
  statementP95Ms: 15,
  updatesPerSecond: 1000,
  updatesRatio: 0.5,
  summaryWholeP95Ms: 100,
  summaryPageP95Ms: 30,
  exportSeconds: 15,
  exportRssMb: 250,
  firstStartMs: 3000,
  laterStartMs: 1500,
  loginJsGzipKb: 180,
  posSalesRatio: 0.7,
  posSaleP95Ms: 20,
  importSeconds: 60,
  memberMeP95Ms: 10,
  memberPassbookP95Ms: 15,
  importRssMb: 300,
  expirySeconds: 120,
  expirySalesP95Ratio: 2,
  /** The notices' sender keeps up with its configured rate within this share. */
  noticeRateShare: 0.9,
  dashboardP95Ms: 150,
  reportFirstPageP95Ms: 100,
} as const;

/** The expiry step: due lots expired idle and while sales post at 8 connections. */
export interface ExpiryResults {
  lots: number;
  today: string;
  idleSeconds: number;
  busySeconds: number;
  salesIdle: { requestsPerSecond: number; errors: number; serverTimeMs: Figures };
  salesDuring: { requestsPerSecond: number; errors: number; serverTimeMs: Figures };
  loadAverage: string;
}

/** The notices step, with the API's p95 just before and while the worker sent. */
export interface NoticesResults extends NoticesRun {
  searchIdle: { requestsPerSecond: number; errors: number; serverTimeMs: Figures };
  searchDuring: { requestsPerSecond: number; errors: number; serverTimeMs: Figures };
  loadAverage: string;
}

/** The import of another program's customers with opening points (bench/import.ts). */
export interface ImportResults {
  customers: number;
  created: number;
  errors: number;
  seconds: number;
  /** The server's peak RSS (earlier results: the importing process's own). */
  peakRssMb: number;
  /** The server's RSS once started, before the file was sent. */
  rssBeforeMb?: number;
  /** The server's CPU time during the import, and the machine's load average after it. */
  serverCpuSeconds?: number;
  loadAverage?: string;
  ledgerAgrees: boolean;
  /** The route posted to; absent in earlier results, which ran the service in-process. */
  via?: string;
}

export interface Results {
  at: string;
  quick: boolean;
  machine: Record<string, string | number>;
  dataSet: Record<string, number>;
  scenarios: Record<string, Run[]>;
  expiry?: ExpiryResults;
  notices?: NoticesResults;
  import?: ImportResults;
  start: { firstMs: number; laterMs: number[]; laterMaxMs: number };
  loginJsGzipKb: number;
}

const BEGIN = '<!-- bench:begin (written by `npm run bench`) -->';
const END = '<!-- bench:end -->';

export async function saveResults(results: Results) {
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  // A quick run is a smoke test at 1/100 scale: it never replaces the full figures.
  const names = results.quick ? ['quick.json'] : ['latest.json', `${results.at.slice(0, 10)}.json`];
  for (const name of names) await writeFile(new URL(name, dir), json);
  if (!results.quick) await writeTables(results);
}

/**
 * A run at another scale (`--customers N`): its own file, beside the targets' run rather than
 * in place of it, with the request table printed.
 */
export async function saveScaleResults(
  customers: number,
  results: Pick<Results, 'at' | 'machine' | 'dataSet' | 'scenarios'>,
) {
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const file = new URL(`customers-${customers}.json`, dir);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(detailTable(results));
  return file.pathname;
}

async function writeTables(results: Results) {
  const file = new URL('../docs/performance.md', import.meta.url);
  const doc = await readFile(file, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/performance.md lacks the ${BEGIN} markers`);
  const tables = [describeRun(results), '', targetsTable(results), '', detailTable(results)].join(
    '\n',
  );
  await writeFile(file, `${doc.slice(0, start + BEGIN.length)}\n${tables}\n${doc.slice(end)}`);
}

function describeRun({ at, machine: m, dataSet: d }: Results) {
  const count = (n: number | undefined) => (n ?? 0).toLocaleString('en-IN');
  return [
    `Run of ${at.slice(0, 16).replace('T', ' ')} UTC on ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB,`,
    `load average ${m.loadAverage} at the end; Node ${m.node}; PostgreSQL ${m.postgres} (${m.database}),`,
    `fsync ${m.fsync}, synchronous_commit ${m.synchronousCommit}, shared_buffers ${m.sharedBuffers}.`,
    `Data: ${count(d.customers)} customers, ${count(d.ledgerRows)} ledger rows, ${count(d.schemes)} schemes,`,
    `${count(d.installments)} installments.`,
  ].join('\n');
}

const at = (results: Results, name: string, connections: number) =>
  results.scenarios[name]!.find((run) => run.connections === connections)!;
const ms = (value: number) => `${value} ms`;
const verdict = (met: boolean) => (met ? 'met' : '**not met**');

function targetsTable(results: Results) {
  const search = at(results, 'customerSearch', 1);
  const statement = at(results, 'pointsStatement', 1);
  const updates = results.scenarios.pointsUpdate!.reduce((best, run) =>
    run.requestsPerSecond > best.requestsPerSecond ? run : best,
  );
  const summary = at(results, 'schemeSummaryWhole', 1);
  const summaryPage = results.scenarios.summaryPage?.find((run) => run.connections === 1);
  const exported = at(results, 'customerExportCsv', 1);
  const rows = [
    [
      'customer search, p95 server time (1 connection)',
      `≤ ${TARGETS.searchP95Ms} ms, ≤ ${TARGETS.readsRatio}× raw`,
      ms(search.serverTimeMs.p95),
      ms(search.raw.latencyMs.p95),
      `${search.ratio.p95}×`,
      verdict(
        search.serverTimeMs.p95 <= TARGETS.searchP95Ms && search.ratio.p95 <= TARGETS.readsRatio,
      ),
    ],
    [
      'points statement, p95 server time (1 connection)',
      `≤ ${TARGETS.statementP95Ms} ms, ≤ ${TARGETS.readsRatio}× raw`,
      ms(statement.serverTimeMs.p95),
      ms(statement.raw.latencyMs.p95),
      `${statement.ratio.p95}×`,
      verdict(
        statement.serverTimeMs.p95 <= TARGETS.statementP95Ms &&
          statement.ratio.p95 <= TARGETS.readsRatio,
      ),
    ],
    [
      `points updates per second, fsync on (${updates.connections} connections)`,
      `≥ ${TARGETS.updatesPerSecond}, ≥ ${TARGETS.updatesRatio}× raw`,
      `${updates.requestsPerSecond}/s`,
      `${updates.raw.requestsPerSecond}/s`,
      `${updates.ratio.throughput}×`,
      verdict(
        updates.requestsPerSecond >= TARGETS.updatesPerSecond &&
          updates.ratio.throughput >= TARGETS.updatesRatio,
      ),
    ],
    [
      `scheme summary unpaged (up to ${LIMITS.summaryWholeMaxRows} rows of a month), p95 server time (1 connection)`,
      `≤ ${TARGETS.summaryWholeP95Ms} ms`,
      ms(summary.serverTimeMs.p95),
      ms(summary.raw.latencyMs.p95),
      `${summary.ratio.p95}×`,
      verdict(summary.serverTimeMs.p95 <= TARGETS.summaryWholeP95Ms),
    ],
    ...(summaryPage
      ? [
          [
            'scheme summary, a page of 100 rows of a month with its totals, p95 server time (1 connection)',
            `≤ ${TARGETS.summaryPageP95Ms} ms, ≤ ${TARGETS.readsRatio}× raw`,
            ms(summaryPage.serverTimeMs.p95),
            ms(summaryPage.raw.latencyMs.p95),
            `${summaryPage.ratio.p95}×`,
            verdict(
              summaryPage.serverTimeMs.p95 <= TARGETS.summaryPageP95Ms &&
                summaryPage.ratio.p95 <= TARGETS.readsRatio,
            ),
          ],
        ]
      : []),
    [
      `customer export as CSV, ${results.dataSet.customers!.toLocaleString('en-IN')} rows`,
      `≤ ${TARGETS.exportSeconds} s, RSS < ${TARGETS.exportRssMb} MB`,
      `${(exported.latencyMs.p50 / 1000).toFixed(1)} s, RSS ${exported.peakRssMb} MB`,
      `${(exported.raw.latencyMs.p50 / 1000).toFixed(1)} s`,
      `${exported.ratio.p95}×`,
      verdict(
        exported.latencyMs.p50 <= TARGETS.exportSeconds * 1000 &&
          (exported.peakRssMb ?? Infinity) < TARGETS.exportRssMb,
      ),
    ],
    [
      'start to first answered request, embedded, new data dir',
      `≤ ${TARGETS.firstStartMs / 1000} s`,
      ms(results.start.firstMs),
      '',
      '',
      verdict(results.start.firstMs <= TARGETS.firstStartMs),
    ],
    [
      'start to first answered request, embedded, existing data dir (worst of 3)',
      `≤ ${TARGETS.laterStartMs / 1000} s`,
      ms(results.start.laterMaxMs),
      '',
      '',
      verdict(results.start.laterMaxMs <= TARGETS.laterStartMs),
    ],
    [
      'JS loaded by the login page, gzip',
      `≤ ${TARGETS.loginJsGzipKb} KB`,
      `${results.loginJsGzipKb} KB`,
      '',
      '',
      verdict(results.loginJsGzipKb <= TARGETS.loginJsGzipKb),
    ],
  ];
  for (const [name, what] of [
    ['posSale', 'POS sale postings, fsync on (8 connections)'],
    ['posSaleTiers', 'POS sale postings with three tiers set (8 connections)'],
  ] as const) {
    const sales = results.scenarios[name]?.find((run) => run.connections === 8);
    if (!sales) continue;
    rows.push([
      what,
      `≥ ${TARGETS.posSalesRatio}× raw throughput, p95 ≤ ${TARGETS.posSaleP95Ms} ms`,
      `${sales.requestsPerSecond}/s, p95 ${ms(sales.serverTimeMs.p95)}`,
      `${sales.raw.requestsPerSecond}/s, p95 ${ms(sales.raw.latencyMs.p95)}`,
      `${sales.ratio.throughput}×`,
      verdict(
        sales.ratio.throughput >= TARGETS.posSalesRatio &&
          sales.serverTimeMs.p95 <= TARGETS.posSaleP95Ms,
      ),
    ]);
  }
  for (const [name, what, target] of [
    ['dashboardChain', 'dashboard, whole chain', TARGETS.dashboardP95Ms],
    ['dashboardBranch', 'dashboard, one branch', TARGETS.dashboardP95Ms],
    ['overdueFirstPage', 'overdue installments report, first page', TARGETS.reportFirstPageP95Ms],
    ['collectionsFirstPage', 'daily collections report, first page', TARGETS.reportFirstPageP95Ms],
    ['memberMe', "a customer's home on their phone (GET /api/member/me)", TARGETS.memberMeP95Ms],
    ['memberPassbook', "a customer's scheme passbook on their phone", TARGETS.memberPassbookP95Ms],
  ] as const) {
    const measured = results.scenarios[name]?.find((run) => run.connections === 1);
    if (!measured) continue;
    rows.push([
      `${what}, p95 server time (1 connection)`,
      `≤ ${target} ms`,
      ms(measured.serverTimeMs.p95),
      ms(measured.raw.latencyMs.p95),
      `${measured.ratio.p95}×`,
      verdict(measured.serverTimeMs.p95 <= target),
    ]);
  }
  const expiry = results.expiry;
  if (expiry) {
    const idleP95 = expiry.salesIdle.serverTimeMs.p95;
    const duringP95 = expiry.salesDuring.serverTimeMs.p95;
    rows.push([
      `expiry of ${expiry.lots.toLocaleString('en-IN')} due points lots (idle / while sales post)`,
      `≤ ${TARGETS.expirySeconds} s; sales p95 ≤ ${TARGETS.expirySalesP95Ratio}× idle`,
      `${expiry.idleSeconds} s / ${expiry.busySeconds} s; sales p95 ${ms(duringP95)} (idle ${ms(idleP95)})`,
      '',
      `${round2(duringP95 / idleP95)}×`,
      verdict(
        Math.max(expiry.idleSeconds, expiry.busySeconds) <= TARGETS.expirySeconds &&
          duringP95 <= TARGETS.expirySalesP95Ratio * idleP95,
      ),
    ]);
  }
  const notices = results.notices;
  if (notices) {
    const idleP95 = notices.searchIdle.serverTimeMs.p95;
    const duringP95 = notices.searchDuring.serverTimeMs.p95;
    rows.push([
      `notices: ${notices.notices.toLocaleString('en-IN')} queued reminders to a local fake provider`,
      `every one sent exactly once at the configured rate (${notices.rate}/s)`,
      `${notices.delivered.toLocaleString('en-IN')} in ${notices.seconds} s (${notices.achievedPerSecond}/s), ${notices.duplicates} twice, ${notices.lost} lost; search p95 ${ms(duringP95)} (idle ${ms(idleP95)})`,
      '',
      `${round2(duringP95 / idleP95)}×`,
      verdict(
        notices.duplicates === 0 &&
          notices.lost === 0 &&
          notices.unsent === 0 &&
          notices.achievedPerSecond >= TARGETS.noticeRateShare * notices.rate,
      ),
    ]);
  }
  const imported = results.import;
  if (imported) {
    rows.push([
      `import of ${imported.customers.toLocaleString('en-IN')} customers with opening points`,
      `≤ ${TARGETS.importSeconds} s, RSS < ${TARGETS.importRssMb} MB`,
      `${imported.seconds} s, ${imported.via ? 'server ' : ''}RSS ${imported.peakRssMb} MB, ${imported.created.toLocaleString('en-IN')} created; ledger ${imported.ledgerAgrees ? 'agrees' : 'DIFFERS'}`,
      '',
      '',
      verdict(
        imported.seconds <= TARGETS.importSeconds &&
          imported.peakRssMb < TARGETS.importRssMb &&
          imported.created === imported.customers &&
          imported.ledgerAgrees,
      ),
    ]);
  }
  return table(['what', 'target', 'measured', 'raw SQL', 'ratio', ''], rows);
}

function detailTable(results: Pick<Results, 'scenarios'>) {
  const rows = Object.entries(results.scenarios).flatMap(([name, runs]) =>
    runs.map((run) => [
      name,
      String(run.connections),
      String(run.requestsPerSecond),
      `${run.latencyMs.p50} / ${run.latencyMs.p95} / ${run.latencyMs.p99}`,
      `${run.serverTimeMs.p50} / ${run.serverTimeMs.p95} / ${run.serverTimeMs.p99}`,
      String(run.raw.requestsPerSecond),
      `${run.raw.latencyMs.p50} / ${run.raw.latencyMs.p95} / ${run.raw.latencyMs.p99}`,
      `${run.ratio.p95}× / ${run.ratio.throughput}×`,
      String(run.errors),
    ]),
  );
  return table(
    [
      'request',
      'conn.',
      'req/s',
      'client ms p50 / p95 / p99',
      'server ms p50 / p95 / p99',
      'raw/s',
      'raw SQL ms p50 / p95 / p99',
      'ratio p95 / throughput',
      'errors',
    ],
    rows,
  );
}

const round2 = (value: number) => Number(value.toFixed(2));

function table(head: string[], rows: string[][]) {
  return [head, head.map(() => '---'), ...rows]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}
