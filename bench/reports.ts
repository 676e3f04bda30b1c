/**
 * The owner's view measured: the dashboard for the whole chain and for one branch, and the
 * first page of the overdue and cash-book reports, each beside the same statements run raw.
 * The raw text is the reports repo's own (rendered by the same builders), so the two cannot
 * drift apart.
 */
import type pg from 'pg';
import type { SQL } from 'drizzle-orm';
import { API_PATHS, API_PREFIX, DEFAULT_GRACE_DAYS, LIMITS, todayIn } from '@kanak/contract';
import {
  queryText,
  reportQueries,
  type Scope,
} from '../apps/server/src/modules/reports/reports.repo.js';
import type { PlanGrace } from '../apps/server/src/modules/schemes/index.js';
import type { Samples } from './data.js';
import type { Scenario } from './measure.js';

const STORE_TIMEZONE = 'Asia/Kolkata';
const api = (path: string) => `${API_PREFIX}${path}`;
/** The bench's data belongs to the first branch: one branch is as large as the chain. */
const BRANCH = 'MAIN';

const run = (client: pg.PoolClient, query: SQL) => {
  const { sql, params } = queryText(query);
  return client.query(sql, params);
};

/** As the reports service reads: one repeatable-read, read-only snapshot. */
async function snapshot(client: pg.PoolClient, work: () => Promise<unknown>) {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await work();
  await client.query('COMMIT');
}

/** Every plan's grace, read first as the service does: the overdue statements are built with them. */
const planGraces = async (client: pg.PoolClient) =>
  (await run(client, reportQueries.planGraces())).rows as PlanGrace[];

/** The owner's scope: the branch looked up by its code, as the service does. */
async function scopeOf(client: pg.PoolClient, code: string | undefined): Promise<Scope> {
  if (code === undefined) return {};
  const { rows } = await client.query<{ id: number; code: string }>(
    `SELECT * FROM branches WHERE code = $1`,
    [code],
  );
  return { branchId: rows[0]!.id, branchCode: rows[0]!.code };
}

/** reports.service `dashboard`: the statements it runs, in its order. */
function dashboard(name: string, branch?: string): Scenario {
  return {
    name,
    call: () => ({
      method: 'GET',
      path: `${api(API_PATHS.dashboard)}${branch ? `?branch=${branch}` : ''}`,
    }),
    raw: (client) =>
      snapshot(client, async () => {
        const scope = await scopeOf(client, branch);
        const today = todayIn(STORE_TIMEZONE);
        const first = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
        first.setUTCMonth(first.getUTCMonth() + 1 - LIMITS.dashboardMonths);
        const from = first.toISOString().slice(0, 10);
        await run(client, reportQueries.collectionsByMonth(scope, from, today));
        await run(client, reportQueries.pointsByMonth(scope, from, today));
        await run(client, reportQueries.pointsOutstanding(scope));
        await client.query(
          `SELECT * FROM points_rules WHERE valid_from <= now() ORDER BY valid_from DESC, id DESC LIMIT 1`,
        );
        await run(client, reportQueries.schemeFigures(scope, today));
        await run(client, reportQueries.overdueTotals(today, scope, await planGraces(client)));
      }),
  };
}

/** The Overdue Installments report as it opens: the first 50 rows and the totals. */
function overdueFirstPage(): Scenario {
  return {
    name: 'overdueFirstPage',
    call: () => ({ method: 'POST', path: api(API_PATHS.overdueReport), body: {} }),
    raw: (client) =>
      snapshot(client, async () => {
        const today = todayIn(STORE_TIMEZONE);
        const plans = await planGraces(client);
        const { sql, params } = queryText(reportQueries.overdueRows(today, {}, plans));
        await client.query(`${sql} LIMIT ${LIMITS.reportPageSize} OFFSET 0`, params);
        await run(client, reportQueries.overdueTotals(today, {}, plans));
      }),
  };
}

/** The cash book of the data set's latest day of installments: its first 50 rows and totals. */
function collectionsFirstPage({ cashBookDay: day }: Samples): Scenario {
  const range = { from: day, to: day, timeZone: STORE_TIMEZONE };
  return {
    name: 'collectionsFirstPage',
    call: () => ({
      method: 'POST',
      path: api(API_PATHS.collectionsReport),
      body: { from: day, to: day },
    }),
    raw: (client) =>
      snapshot(client, async () => {
        const page = LIMITS.reportPageSize;
        const { sql, params } = queryText(reportQueries.collectionsRows(range, {}, page));
        await client.query(`${sql} LIMIT ${page} OFFSET 0`, params);
        await run(client, reportQueries.collectionsByMode(range, {}));
        await run(client, reportQueries.redemptionTotals(range, {}));
      }),
  };
}

export const reportScenarios = (samples: Samples): Scenario[] => [
  dashboard('dashboardChain'),
  dashboard('dashboardBranch', BRANCH),
  overdueFirstPage(),
  collectionsFirstPage(samples),
];

/**
 * The demo's schemes are paid up to the day the data set was built, so on that day nothing is
 * overdue. When fewer than 2% of the active schemes are overdue, one in twenty of those with
 * two or more installments loses its latest (kept in the data set): about 5% of the active
 * schemes then owe one installment or more, as a shop's would. Their statistics are refreshed.
 */
export async function ensureOverdueSchemes(pool: pg.Pool) {
  const { rows } = await pool.query<{ active: number; overdue: number }>(
    `SELECT count(*)::integer AS active,
            count(*) FILTER (WHERE next_due <= current_date - $1::integer)::integer AS overdue
       FROM schemes WHERE status = 'a'`,
    // The demo's schemes are standard ones, with the default grace.
    [DEFAULT_GRACE_DAYS],
  );
  const { active, overdue } = rows[0]!;
  if (overdue < active * 0.02) {
    await pool.query(
      `DELETE FROM scheme_installments WHERE id IN (
         SELECT (SELECT max(i.id) FROM scheme_installments i WHERE i.scheme_id = s.id)
           FROM schemes s WHERE s.status = 'a' AND s.paid >= 2 AND s.id % 20 = 3)`,
    );
  }
  // After the reports migration filled the schemes' counts (and after the lines above), the
  // visibility map lets the overdue report read its index alone.
  await pool.query('VACUUM ANALYZE schemes, scheme_installments');
}
