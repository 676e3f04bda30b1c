/**
 * The measured requests, each beside the SQL the server runs for it. The raw
 * SQL is kept statement for statement equal to the repos' queries, so the ratio shows what the
 * HTTP layer, validation and serialisation add.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { API_PATHS, API_PREFIX, IDEMPOTENCY_HEADER, LIMITS } from '@kanak/contract';
import type { Samples } from './data.js';
import type { Scenario } from './measure.js';
import { memberScenarios, type BenchMember } from './members.js';
import { reportScenarios } from './reports.js';

const api = (path: string) => `${API_PREFIX}${path}`;
const pick = <T>(list: T[], n: number) => list[n % list.length]!;

export function scenarios(
  samples: Samples,
  benchUserId: number,
  key: BenchKey,
  members: BenchMember[],
): Scenario[] {
  return [
    customerSearch(samples),
    pointsStatement(samples),
    pointsUpdate(samples, benchUserId),
    schemeSummary(samples),
    summaryPage(samples),
    customerExport(),
    auditFirstPage(),
    auditByMobile(samples),
    posSale(samples, key),
    posSaleTiers(samples, key),
    ...reportScenarios(samples),
    ...memberScenarios(members, samples.to),
  ];
}

/** The bench's API key (a counter's billing system) and what the server looks it up by. */
export interface BenchKey {
  key: string;
  hash: string;
}

/**
 * The outbox's statements for one notice, as the change's transaction runs them: the
 * templates, the customer with their transactional consent, the branch, the panel, the points
 * rules (for the balance's worth), and the notice itself (skipped: the bench's customers have
 * not consented).
 */
async function rawNotice(
  client: pg.PoolClient,
  event: string,
  customerId: number,
  branch: { id: number } | { userId: number },
) {
  await client.query(`SELECT * FROM notice_templates`);
  const { rows } = await client.query<{ custname: string; mobileno: string }>(
    `SELECT c.id, c.custname, c.mobileno, a.balance,
            coalesce((SELECT cc.granted FROM customer_consents cc
                       WHERE cc.customer_id = c.id AND cc.purpose = 'transactional'
                       ORDER BY cc.id DESC LIMIT 1), false) AS consented
       FROM customers c JOIN points_accounts a ON a.customer_id = c.id
      WHERE c.id = ANY($1::int[])`,
    [`{${customerId}}`],
  );
  await client.query(
    'id' in branch
      ? `SELECT * FROM branches WHERE id IN ($1)`
      : `SELECT * FROM branches WHERE id IN (SELECT branch_id FROM users WHERE id = $1)`,
    ['id' in branch ? branch.id : branch.userId],
  );
  await client.query(`SELECT * FROM panel_config WHERE id = 1`);
  await client.query(
    `SELECT * FROM points_rules WHERE valid_from <= now() ORDER BY valid_from DESC, id DESC LIMIT 1`,
  );
  await client.query(
    `INSERT INTO notices (event, customer_id, branch_id, mobile, text, status, reason, dedupe_key)
     VALUES ($1, $2, NULL, $3, $4, 'skipped', 'The customer has not consented to WhatsApp notices.', NULL)
     ON CONFLICT DO NOTHING RETURNING id, status`,
    [event, customerId, rows[0]!.mobileno, `Dear ${rows[0]!.custname}, bench notice`],
  );
}

/**
 * Every request's invoice number is new (a sale posted twice is answered from storage): a
 * prefix per bench run and one counter across all the runs at 1, 8 and 32 connections.
 */
const RUN = Date.now().toString(36);
let invoices = 0;

/**
 * A counter's sale posted with an API key: a new invoice number every request, one gold line
 * of ₹25,000 (250 points), for one of 100 existing customers. Raw: the key's look-up, then the
 * sale's transaction statement for statement as the POS service runs it with no tiers set (the
 * rules, tier settings and repeat check; claim of the invoice number; the account locked with
 * the ledger row, lot and balance; the stored answer, audit row, the customer's notice).
 */
function posSale(samples: Samples, benchKey: BenchKey): Scenario {
  const { updateMobiles: mobiles, to: today } = samples;
  const amount = 25_000;
  return {
    name: 'posSale',
    apiKey: benchKey.key,
    call: (n) => ({
      method: 'POST',
      path: api(API_PATHS.posSales),
      body: {
        invoiceNo: `BENCH-${RUN}-${invoices++}`,
        invoiceDate: today,
        mobile: pick(mobiles, n),
        lines: [{ description: 'Gold chain 22K', category: 'gold', amount }],
      },
    }),
    raw: (client, n) => rawSale(client, n, samples, benchKey),
  };
}

/**
 * The same sale with three tiers set (from ₹1,00,000, ₹3,00,000 and ₹10,00,000 of 12 months'
 * spend, earning 110, 125 and 150 percent): the customer's tier and spend are read under the
 * account's lock, then posted. Raw: the same statements in the same order.
 */
function posSaleTiers(samples: Samples, key: BenchKey): Scenario {
  const plain = posSale(samples, key);
  const tiers = [
    { code: 'SILVER', name: 'Silver', minSpendPaise: 1_00_000_00, earnPercent: 110 },
    { code: 'GOLD', name: 'Gold', minSpendPaise: 3_00_000_00, earnPercent: 125 },
    { code: 'PLATINUM', name: 'Platinum', minSpendPaise: 10_00_000_00, earnPercent: 150 },
  ];
  return {
    ...plain,
    name: 'posSaleTiers',
    settings: {
      apply: `INSERT INTO tier_settings (valid_from, tiers, downgrade)
              VALUES (clock_timestamp(), '${JSON.stringify(tiers)}', 'anniversary')`,
      // The bench's data set has no tiers: the run's settings and the tiers it gave go.
      undo: `DELETE FROM tier_settings; DELETE FROM customer_tiers;`,
    },
    raw: (client, n) => rawSale(client, n, samples, key, { tiers: true }),
  };
}

/** A sale's statements through `pg`, as the POS service runs them, with or without tiers set. */
async function rawSale(
  client: pg.PoolClient,
  n: number,
  { updateMobiles: mobiles, to: today }: Pick<Samples, 'updateMobiles' | 'to'>,
  { hash }: BenchKey,
  { tiers = false } = {},
) {
  const amount = 25_000;
  const invoiceNo = `BENCHRAW-${RUN}-${invoices++}`;
  const { rows: keys } = await client.query<{ id: number; branch_id: number; code: string }>(
    `SELECT k.id, k.branch_id, b.code, k.last_used_at FROM api_keys k
       JOIN branches b ON b.id = k.branch_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hash],
  );
  const machine = keys[0]!;
  await client.query('BEGIN');
  // The rules, the tier settings and a repeat of the number, read together as the server does.
  await client.query(
    `SELECT (SELECT row_to_json(r) FROM (SELECT * FROM points_rules WHERE valid_from <= now()
              ORDER BY valid_from DESC, id DESC LIMIT 1) r) AS rules,
            (SELECT row_to_json(t) FROM (SELECT * FROM tier_settings WHERE valid_from <= now()
              ORDER BY valid_from DESC, id DESC LIMIT 1) t) AS tiers,
            (SELECT row_to_json(p) FROM (SELECT request_hash, response FROM pos_sales
              WHERE branch_code = $1 AND invoice_no = $2) p) AS posted`,
    [machine.code, invoiceNo],
  );
  const { rows: claimed } = await client.query<{ id: number }>(
    `INSERT INTO pos_sales (branch_code, invoice_no, request_hash, invoice_date,
                            sale_amount_paise, eligible_paise, excluded_categories, api_key_id)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
    [
      machine.code,
      invoiceNo,
      'x'.repeat(64),
      today,
      amount * 100,
      '["coin","bullion"]',
      machine.id,
    ],
  );
  const mobile = pick(mobiles, n);
  const points = amount / 100;
  const entryValues = [
    machine.branch_id,
    today,
    `Sale, invoice ${invoiceNo}`,
    amount * 100,
    points,
  ];
  let posted: { mrn: number; id: number };
  if (!tiers) {
    // The account locked, the ledger row, its lot and the balance: one statement.
    const { rows } = await client.query<{ mrn: number; id: number }>(
      `WITH account AS (
         SELECT a.customer_id AS id, a.balance
           FROM points_accounts a JOIN customers c ON c.id = a.customer_id
          WHERE c.mobileno = $1 FOR UPDATE OF a FOR KEY SHARE OF c
       ), entry AS (
         INSERT INTO points_entries (branch_id, customer_id, invdate, narration, sale_amount_paise, credit, debit, ts)
         SELECT $2, id, $3, $4, $5, $6, 0, 'S' FROM account RETURNING *
       ), lot AS (
         INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
         SELECT customer_id, mrn, invdate, $3::date + interval '24 months', credit, credit FROM entry
       ), credited AS (
         UPDATE points_accounts a SET balance = a.balance + $6 FROM account WHERE a.customer_id = account.id
       )
       SELECT entry.mrn, account.id FROM account, entry`,
      [mobile, ...entryValues],
    );
    posted = rows[0]!;
  } else {
    // The account locked first; then the tier and the 12 months' spend; then the posting.
    const { rows: locked } = await client.query<{ id: number }>(
      `SELECT a.customer_id AS id, c.custname, c.mobileno, a.balance
         FROM points_accounts a JOIN customers c ON c.id = a.customer_id
        WHERE c.mobileno = $1 FOR UPDATE OF a FOR KEY SHARE OF c`,
      [mobile],
    );
    const customerId = locked[0]!.id;
    await client.query(
      `SELECT (SELECT row_to_json(t) FROM customer_tiers t WHERE t.customer_id = $1) AS tier,
              coalesce(sum(s.eligible_paise - coalesce((
                SELECT sum(r.eligible_paise) FROM pos_returns r WHERE r.sale_id = s.id), 0)), 0) AS spend
         FROM pos_sales s
        WHERE s.customer_id = $1 AND s.invoice_date > $2::date - interval '12 months'
          AND s.invoice_date <= $2`,
      [customerId, today],
    );
    const { rows } = await client.query<{ mrn: number; id: number }>(
      `WITH entry AS (
         INSERT INTO points_entries (branch_id, customer_id, invdate, narration, sale_amount_paise, credit, debit, ts)
         VALUES ($2, $1, $3, $4, $5, $6, 0, 'S') RETURNING *
       ), lot AS (
         INSERT INTO points_lots (customer_id, entry_mrn, earned_on, expires_on, points, remaining)
         SELECT customer_id, mrn, invdate, $3::date + interval '24 months', credit, credit FROM entry
       ), credited AS (
         UPDATE points_accounts SET balance = balance + $6 WHERE customer_id = $1
       )
       SELECT entry.mrn, $1::int AS id FROM entry`,
      [customerId, ...entryValues],
    );
    posted = rows[0]!;
  }
  await client.query(
    `UPDATE pos_sales SET customer_id = $2, points = $3, entry_mrn = $4, response = $5 WHERE id = $1`,
    [claimed[0]!.id, posted.id, points, posted.mrn, { custid: posted.id, points }],
  );
  await client.query(
    `INSERT INTO audit_log (user_id, action, entity, entity_id, detail) VALUES (NULL, 'pos.sale', 'points_entry', $1, $2)`,
    [String(posted.mrn), { apiKeyId: machine.id, branch: machine.code, invoiceNo, points }],
  );
  await rawNotice(client, 'pointsEarned', posted.id, { id: machine.branch_id });
  await client.query('COMMIT');
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
  const found = `SELECT custname AS "CUSTNAME", coalesce(mobileno, '') AS "MOBILENO" FROM customers`;
  if (/^\d+$/.test(text)) {
    return client.query(`${found} WHERE mobileno LIKE $1 ORDER BY mobileno USING ~<~ LIMIT 20`, [
      `${text}%`,
    ]);
  }
  const starting = await client.query(
    `${found} WHERE lower(custname) LIKE $1 AND mobileno IS NOT NULL
      ORDER BY lower(custname) USING ~<~ LIMIT 20`,
    [`${text.toLowerCase()}%`],
  );
  if (starting.rowCount === 20 || text.length < 3) return starting;
  return client.query(`${found} WHERE custname ILIKE $1 AND mobileno IS NOT NULL LIMIT $2`, [
    `%${text}%`,
    40,
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
      // As the server finds the customer: their points account joined to who they are.
      const { rows } = await client.query<{ id: number }>(
        `SELECT a.customer_id AS id, c.custname, c.mobileno, a.balance
           FROM points_accounts a JOIN customers c ON c.id = a.customer_id
          WHERE c.mobileno = $1`,
        [pick(mobiles, n)],
      );
      const id = rows[0]!.id;
      await client.query(
        `SELECT coalesce(sum(credit - debit), 0)::bigint AS net, count(*)::int AS entries
           FROM points_entries WHERE customer_id = $1 AND invdate < $2`,
        [id, from],
      );
      await client.query(
        `SELECT mrn, invdate, narration, sale_amount_paise AS "saleAmountPaise", credit, debit,
                ts AS source
           FROM points_entries WHERE customer_id = $1 AND invdate BETWEEN $2 AND $3
          ORDER BY invdate, mrn`,
        [id, from, to],
      );
      await client.query('COMMIT');
    },
  };
}

/**
 * A credit of 10 points to one of 200 customers, each with its own Idempotency-Key. Raw: the
 * session's user check, the key's claim, the entry's transaction (balance, entry, audit, the
 * customer's notice) and storing the answer.
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
        `UPDATE points_accounts a SET balance = a.balance + 10
           FROM customers c
          WHERE c.id = a.customer_id AND c.mobileno = $1 AND a.balance + 10 >= 0
         RETURNING c.id, c.custname, c.mobileno, a.balance`,
        [form(n).MOBILENO],
      );
      const { rows: entry } = await client.query<{ mrn: number }>(
        `INSERT INTO points_entries (customer_id, invdate, narration, credit, debit, ts, created_by)
         VALUES ($1, $2, $3, 10, 0, 'M', $4) RETURNING *`,
        [rows[0]!.id, today, 'Benchmark credit', userId],
      );
      await client.query(
        `INSERT INTO audit_log (user_id, action, entity, entity_id, detail, mobile) VALUES ($1, 'points.credit', 'points_entry', $2, $3, $4)`,
        [
          userId,
          String(entry[0]!.mrn),
          { before: null, after: { invdate: today, credit: 10, debit: 0, balance: 0 } },
          form(n).MOBILENO,
        ],
      );
      await rawNotice(client, 'pointsAdjusted', rows[0]!.id, { userId });
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

/**
 * The summary's unpaged call (Print and CSV) over as much of a month as it answers (at most
 * LIMITS.summaryWholeMaxRows schemes). Raw: the count from the roll-up, then the rows.
 */
function schemeSummary({ wholeSummaries }: Samples): Scenario {
  return {
    name: 'schemeSummaryWhole',
    call: (n) => ({
      method: 'POST',
      path: api(API_PATHS.schemeSummary),
      body: { selected: 'All', formData: { mobileno: '', ...pick(wholeSummaries, n) } },
    }),
    async raw(client, n) {
      const { datefrom, dateto } = pick(wholeSummaries, n);
      await client.query(
        `SELECT coalesce(sum(schemes), 0)::int AS count FROM schemes_by_start
         WHERE status IN ('n', 'a', 'm') AND startdt BETWEEN $1 AND $2`,
        [datefrom, dateto],
      );
      return client.query(
        `SELECT s.id AS schemeid, c.custname, c.mobileno, s.startdt, s.amount, s.status AS matyn
         FROM schemes s JOIN customers c ON c.id = s.customer_id
         WHERE s.status IN ('n', 'a', 'm') AND s.startdt BETWEEN $1 AND $2
         ORDER BY s.startdt, s.id LIMIT $3`,
        [datefrom, dateto, LIMITS.summaryWholeMaxRows + 1],
      );
    },
  };
}

/**
 * The Scheme Summary screen's call: one page of 100 rows of a month (pages 1 to 5), with the
 * count and amount of the whole month. Raw: the two statements the server runs at once on two
 * connections (the page cut from the summary index, then its customers; the month's totals),
 * here one after the other on one.
 */
function summaryPage({ months }: Samples): Scenario {
  const pageSize = LIMITS.summaryPageSize;
  const pageOf = (n: number) => 1 + (Math.floor(n / months.length) % 5);
  return {
    name: 'summaryPage',
    call: (n) => ({
      method: 'POST',
      path: api(API_PATHS.schemeSummary),
      body: {
        selected: 'All',
        formData: { mobileno: '', ...pick(months, n) },
        page: pageOf(n),
        pageSize,
      },
    }),
    async raw(client, n) {
      const { datefrom, dateto } = pick(months, n);
      await client.query(
        `SELECT page.id AS schemeid, c.custname, coalesce(c.mobileno, '') AS mobileno,
                page.startdt, page.amount, page.status AS matyn
         FROM (SELECT id, customer_id, startdt, amount, status FROM schemes
               WHERE status IN ('n', 'a', 'm') AND startdt >= $1 AND startdt <= $2
               ORDER BY startdt, id LIMIT $3 OFFSET $4) page
         JOIN customers c ON c.id = page.customer_id
         ORDER BY page.startdt, page.id`,
        [datefrom, dateto, pageSize, (pageOf(n) - 1) * pageSize],
      );
      await client.query(
        `SELECT coalesce(sum(schemes), 0)::int AS count, coalesce(sum(amount), 0)::bigint AS total
           FROM schemes_by_start
          WHERE status IN ('n', 'a', 'm') AND startdt >= $1 AND startdt <= $2`,
        [datefrom, dateto],
      );
    },
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
                  aadhaar_last4, pan, a.balance AS points
           FROM customers c JOIN points_accounts a ON a.customer_id = c.id ORDER BY id`,
          [],
          { batchSize: 2000 },
        ),
      );
      for await (const _row of rows as AsyncIterable<unknown>) void _row;
    },
  };
}

/** audit.service `page`: one page of the newest changes and the capped count, at once. */
async function rawAuditPage(client: pg.PoolClient, where: string, values: unknown[]) {
  await Promise.all([
    client.query(
      `SELECT a.id, a.at, u.username, u.name, a.entity, a.entity_id, a.action, a.mobile, a.detail
       FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
       WHERE ${where}
       ORDER BY a.at DESC, a.id DESC
       LIMIT ${LIMITS.auditPageSize} OFFSET 0`,
      values,
    ),
    client.query(
      `SELECT count(*)::integer AS n FROM (
         SELECT 1 FROM audit_log a WHERE ${where} LIMIT ${LIMITS.auditCountCap + 1}
       ) matching`,
      values,
    ),
  ]);
}

/** The Audit screen as it opens: the newest 50 of every change, and how many (capped). */
function auditFirstPage(): Scenario {
  return {
    name: 'auditFirstPage',
    call: () => ({ method: 'GET', path: `${api(API_PATHS.audit)}?page=1` }),
    raw: (client) => rawAuditPage(client, 'TRUE', []),
  };
}

/** The Audit screen filtered by one customer's mobile number: their changes, newest first. */
function auditByMobile({ statementMobiles: mobiles }: Samples): Scenario {
  return {
    name: 'auditByMobile',
    call: (n) => ({
      method: 'GET',
      path: `${api(API_PATHS.audit)}?mobile=${pick(mobiles, n)}&page=1`,
    }),
    raw: (client, n) => rawAuditPage(client, 'a.mobile = $1', [pick(mobiles, n)]),
  };
}
