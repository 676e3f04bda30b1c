/**
 * The five measured requests, each beside the SQL the server runs for it. The raw
 * SQL is kept statement for statement equal to the repos' queries, so the ratio shows what the
 * HTTP layer, validation and serialisation add.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { API_PATHS, API_PREFIX, IDEMPOTENCY_HEADER } from '@kanak/contract';
import type { Samples } from './data.js';
import type { Scenario } from './measure.js';

const api = (path: string) => `${API_PREFIX}${path}`;
const pick = <T>(list: T[], n: number) => list[n % list.length]!;

export function scenarios(samples: Samples, benchUserId: number): Scenario[] {
  return [
    customerSearch(samples),
    pointsStatement(samples),
    pointsUpdate(samples, benchUserId),
    schemeSummary(samples),
    customerExport(),
  ];
}

function customerSearch({ searches }: Samples): Scenario {
  return {
    name: 'customerSearch',
    call: (n) => ({
      method: 'GET',
      path: `${api(API_PATHS.searchCustomers)}?search=${encodeURIComponent(pick(searches, n))}`,
    }),
    raw: (client, n) => rawSearch(client, pick(searches, n)),
  };
}

/** customers.service `search`: mobile prefix, else names starting with the text, then containing it. */
async function rawSearch(client: pg.PoolClient, text: string) {
  if (/^\d+$/.test(text)) {
    return client.query(
      `SELECT custname, mobileno FROM customers WHERE mobileno LIKE $1 ORDER BY mobileno USING ~<~ LIMIT 20`,
      [`${text}%`],
    );
  }
  const starting = await client.query(
    `SELECT custname, mobileno FROM customers WHERE lower(custname) LIKE $1 ORDER BY lower(custname) USING ~<~ LIMIT 20`,
    [`${text.toLowerCase()}%`],
  );
  if (starting.rowCount === 20 || text.length < 3) return starting;
  return client.query(`SELECT custname, mobileno FROM customers WHERE custname ILIKE $1 LIMIT 40`, [
    `%${text}%`,
  ]);
}

function pointsStatement({ statementMobiles: mobiles, from, to }: Samples): Scenario {
  return {
    name: 'pointsStatement',
    call: (n) => ({
      method: 'POST',
      path: api(API_PATHS.pointsStatement),
      body: { MOBILENO: pick(mobiles, n), DFROM: from, DTO: to },
    }),
    async raw(client, n) {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ id: number }>(
        `SELECT id FROM customers WHERE mobileno = $1`,
        [pick(mobiles, n)],
      );
      const id = rows[0]!.id;
      await client.query(
        `SELECT coalesce(sum(credit - debit), 0)::bigint, count(*)::int FROM points_entries WHERE customer_id = $1 AND invdate < $2`,
        [id, from],
      );
      await client.query(
        `SELECT * FROM points_entries WHERE customer_id = $1 AND invdate BETWEEN $2 AND $3 ORDER BY invdate, mrn`,
        [id, from, to],
      );
      await client.query('COMMIT');
    },
  };
}

/**
 * A credit of 10 points to one of 200 customers, each with its own Idempotency-Key. Raw: the
 * session's user check, the key's claim, the entry's transaction (balance, entry, audit) and storing the answer.
 */
function pointsUpdate({ updateMobiles: mobiles, to: today }: Samples, userId: number): Scenario {
  const form = (n: number) => ({
    MOBILENO: pick(mobiles, n),
    POINTS: '10',
    INVDATE: today,
    CASHCR: 'CR',
    NARRATION: 'Benchmark credit',
  });
  return {
    name: 'pointsUpdate',
    call: (n) => ({
      method: 'POST',
      path: api(API_PATHS.updatePoints),
      body: { formData: form(n) },
      headers: { [IDEMPOTENCY_HEADER]: randomUUID() },
    }),
    async raw(client, n) {
      const key = randomUUID();
      // Named, as the server prepares these three: parsed and planned once per connection.
      await client.query({
        name: 'session_user',
        text: `SELECT * FROM users WHERE id = $1
                 AND NOT EXISTS (SELECT 1 FROM ended_sessions WHERE jti = $2)`,
        values: [userId, key],
      });
      await client.query({
        name: 'idempotency_claim',
        text: `INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3)
               ON CONFLICT (user_id, key) DO UPDATE SET request_hash = excluded.request_hash,
                 status_code = NULL, response_body = NULL, created_at = now()
               WHERE idempotency_keys.created_at < now() - make_interval(hours => 24)
               RETURNING key`,
        values: [userId, key, 'x'.repeat(64)],
      });
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: number }>(
        `UPDATE customers SET points_balance = points_balance + 10
         WHERE mobileno = $1 AND points_balance + 10 >= 0
         RETURNING id, custname, mobileno, points_balance`,
        [form(n).MOBILENO],
      );
      const { rows: entry } = await client.query<{ mrn: number }>(
        `INSERT INTO points_entries (customer_id, invdate, narration, credit, debit, ts, created_by)
         VALUES ($1, $2, $3, 10, 0, 'M', $4) RETURNING *`,
        [rows[0]!.id, today, 'Benchmark credit', userId],
      );
      await client.query(
        `INSERT INTO audit_log (user_id, action, entity, entity_id, detail) VALUES ($1, 'points.credit', 'points_entry', $2, $3)`,
        [userId, String(entry[0]!.mrn), { customerId: rows[0]!.id, credit: 10, debit: 0 }],
      );
      await client.query('COMMIT');
      await client.query({
        name: 'idempotency_store',
        text: `UPDATE idempotency_keys SET status_code = $1, response_body = $2
               WHERE user_id = $3 AND key = $4`,
        values: [200, JSON.stringify({ success: true, data: entry[0] }), userId, key],
      });
    },
  };
}

function schemeSummary({ months }: Samples): Scenario {
  return {
    name: 'schemeSummaryOneMonth',
    call: (n) => ({
      method: 'POST',
      path: api(API_PATHS.schemeSummary),
      body: { selected: 'All', formData: { mobileno: '', ...pick(months, n) } },
    }),
    raw: (client, n) =>
      client.query(
        `SELECT s.id AS schemeid, c.custname, c.mobileno, s.startdt, s.amount, s.status AS matyn
         FROM schemes s JOIN customers c ON c.id = s.customer_id
         WHERE s.status IN ('n', 'a', 'm') AND s.startdt BETWEEN $1 AND $2
         ORDER BY s.startdt, s.id`,
        [pick(months, n).datefrom, pick(months, n).dateto],
      ),
  };
}

/** Every customer as CSV: one request per connection (at full scale, a million rows each). */
function customerExport(): Scenario {
  return {
    name: 'customerExportCsv',
    requestsPerConnection: 1,
    streamed: true,
    call: () => ({ method: 'GET', path: `${api(API_PATHS.exportCustomers)}?format=csv` }),
    async raw(client) {
      const rows = client.query(
        new QueryStream(
          `SELECT id AS custid, mobileno, custname, email, address, city, pincode, state,
                  to_char(dob, 'YYYY-MM-DD') AS dob, to_char(doa, 'YYYY-MM-DD') AS doa,
                  aadhaar_last4, pan, points_balance AS points
           FROM customers ORDER BY id`,
          [],
          { batchSize: 2000 },
        ),
      );
      for await (const _row of rows as AsyncIterable<unknown>) void _row;
    },
  };
}
