import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES, type Role } from '@kanak/contract';
import { authed, createTestContext, staffSession, type TestContext } from '../../test/helpers.js';

/**
 * The manager of the Anna Nagar branch (ANN) trying the Main showroom's (MAIN) rows on every
 * route a manager may call: MAIN's audit trail and delivery log are not listed, and MAIN's
 * ledger entries and schemes cannot be corrected, cancelled or closed. The owner runs every
 * branch; customers belong to the whole chain.
 */
const TODAY = '2026-02-10';
const noonOf = (isoDate: string) => new Date(`${isoDate}T12:00:00+05:30`);
let now = noonOf(TODAY);

let ctx: TestContext;
const tokens: Record<string, string> = {};

async function staffMember(username: string, role: Role, branch?: string) {
  const { user, token } = await staffSession(ctx, username, role, branch);
  tokens[username] = token;
  return user;
}

const call = (username: string, path: string, payload?: object) =>
  ctx.app.inject(
    authed(
      tokens[username]!,
      payload
        ? { method: 'POST', url: `/api${path}`, payload }
        : { method: 'GET', url: `/api${path}` },
    ),
  );

async function ok(response: Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json();
}

const notAllowed = { success: false, message: MESSAGES.notAllowed };

let nextMobile = 0;
/** A customer saved by `username` (so the save is in the audit trail with their branch). */
async function customerOf(username: string) {
  nextMobile++;
  const mobileno = `96${String(nextMobile).padStart(8, '0')}`;
  const custname = `Chain Customer ${nextMobile}`;
  await ok(call(username, '/customers/update-customer-data', { formData: { mobileno, custname } }));
  const [row] = await ctx.sql<{ id: number }>(`SELECT id FROM customers WHERE mobileno = $1`, [
    mobileno,
  ]);
  return { id: row!.id, mobileno, custname };
}

/** A manual ledger entry recorded by `username`: its entry number. */
async function manualEntry(username: string, narration: string) {
  const customer = await customerOf(username);
  await ok(
    call(username, '/customers/update-points', {
      formData: {
        CUSTNAME: customer.custname,
        MOBILENO: customer.mobileno,
        POINTS: '50',
        NARRATION: narration,
        INVDATE: TODAY,
        CASHCR: 'CR',
      },
    }),
  );
  const [row] = await ctx.sql<{ mrn: number }>(
    `SELECT mrn FROM points_entries WHERE narration = $1`,
    [narration],
  );
  return { mrn: Number(row!.mrn), customer };
}

/** A scheme started by `username`, past its maturity; activated unless `inactive`. */
async function schemeOf(username: string, { inactive = false } = {}) {
  const customer = await customerOf(username);
  const startdt = '2025-01-05';
  // Entered at the counter the day it started (a cashier dates only a few days back).
  now = noonOf(startdt);
  try {
    const generated = await ok(
      call(username, '/scheme/generate', {
        custid: customer.id,
        mobileno: customer.mobileno,
        custname: customer.custname,
        startdt,
        amount: 1000,
      }),
    );
    const schemeid = generated.data.schemeid as number;
    if (!inactive)
      await ok(call(username, '/scheme/activate', { schemeid, date: startdt, mode: 'cash' }));
    return schemeid;
  } finally {
    now = noonOf(TODAY);
  }
}

/** A notice that failed to go, made at a branch. */
async function failedNotice(branch: string, text: string) {
  const customer = await customerOf('owner');
  const [row] = await ctx.sql<{ id: string }>(
    `INSERT INTO notices (event, customer_id, branch_id, mobile, text, status, attempts, reason)
     SELECT 'pointsAdjusted', $1, id, $2, $3, 'failed', 5, 'provider down'
       FROM branches WHERE code = $4 RETURNING id`,
    [customer.id, customer.mobileno, text, branch],
  );
  return Number(row!.id);
}

const statusOf = async (schemeid: number) =>
  (await ctx.sql<{ status: string }>(`SELECT status FROM schemes WHERE id = $1`, [schemeid]))[0]!
    .status;

beforeAll(async () => {
  ctx = await createTestContext({ INSTALLMENTS: '11', BONUS_PERCENT: '100' }, () => now);
  await staffMember('owner', 'owner');
  await ok(
    call('owner', '/branches', {
      code: 'ANN',
      name: 'Anna Nagar',
      address: '5 2nd Avenue, Anna Nagar, Chennai 600040',
      phone: '+91 44 2626 1001',
    }),
  );
  await staffMember('mainManager', 'manager');
  await staffMember('mainCashier', 'cashier');
  await staffMember('annManager', 'manager', 'ANN');
  await staffMember('annCashier', 'cashier', 'ANN');
});
afterAll(() => ctx.close());

describe('a manager is limited to their branch', () => {
  it('lists only their branch’s audit trail, as JSON and as CSV; the owner sees every branch', async () => {
    await customerOf('mainCashier');
    const annCustomer = await customerOf('annCashier');
    const annTrail = await ok(call('annManager', '/audit'));
    expect(annTrail.data.length).toBeGreaterThan(0);
    expect(annTrail.data.map((row: { branch: string }) => row.branch)).toEqual(
      annTrail.data.map(() => 'ANN'),
    );
    expect(annTrail.total).toBe(annTrail.data.length);
    expect(annTrail.data.map((row: { mobile: string }) => row.mobile)).toContain(
      annCustomer.mobileno,
    );
    // Asking for a MAIN account's changes, or a MAIN customer's, finds nothing.
    expect((await ok(call('annManager', '/audit?user=mainCashier'))).data).toEqual([]);
    const csv = await call('annManager', '/audit?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain('MAIN');
    expect(csv.body).toContain('ANN');

    const everything = await ok(call('owner', '/audit'));
    const branches = new Set(everything.data.map((row: { branch: string }) => row.branch));
    // And the command line's (staff accounts made there name no branch).
    expect(branches).toEqual(new Set(['MAIN', 'ANN', null]));
    // MAIN's own manager sees MAIN's, not ANN's.
    const mainTrail = await ok(call('mainManager', '/audit'));
    expect(new Set(mainTrail.data.map((row: { branch: string }) => row.branch))).toEqual(
      new Set(['MAIN']),
    );
  });

  it('lists only their branch’s delivery log, and cannot resend another branch’s notice', async () => {
    const mainNotice = await failedNotice('MAIN', 'Main showroom notice');
    const annNotice = await failedNotice('ANN', 'Anna Nagar notice');
    const log = await ok(call('annManager', '/notices'));
    expect(log.data.map((row: { id: number }) => row.id)).toEqual([annNotice]);
    expect(log.total).toBe(1);
    expect((await ok(call('annManager', '/notices?status=failed'))).data).toHaveLength(1);

    const resend = await call('annManager', '/notices/resend', { id: mainNotice });
    expect(resend.statusCode).toBe(403);
    expect(resend.json()).toEqual(notAllowed);
    const [unchanged] = await ctx.sql(`SELECT status, attempts FROM notices WHERE id = $1`, [
      mainNotice,
    ]);
    expect(unchanged).toEqual({ status: 'failed', attempts: 5 });

    await ok(call('annManager', '/notices/resend', { id: annNotice }));
    const owners = await ok(call('owner', '/notices'));
    expect(owners.data.map((row: { id: number }) => row.id).sort()).toEqual(
      [mainNotice, annNotice].sort(),
    );
    await ok(call('owner', '/notices/resend', { id: mainNotice }));
  });

  it('cannot correct another branch’s ledger entry, even moving it to a customer of their own', async () => {
    const main = await manualEntry('mainCashier', 'Main showroom credit');
    const annCustomer = await customerOf('annCashier');
    const correct = (username: string, mrn: number, mobile: string, points: string) =>
      call(username, '/customers/update-statement', {
        formData: {
          MRN: mrn,
          CUSTNAME: '',
          MOBILENO: mobile,
          POINTS: points,
          NARRATION: 'Corrected',
          INVDATE: TODAY,
          CASHCR: 'CR',
        },
      });
    for (const mobile of [main.customer.mobileno, annCustomer.mobileno]) {
      const refused = await correct('annManager', main.mrn, mobile, '9000');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(notAllowed);
    }
    const [entry] = await ctx.sql(
      `SELECT credit, narration, customer_id FROM points_entries WHERE mrn = $1`,
      [main.mrn],
    );
    expect(entry).toEqual({
      credit: 50,
      narration: 'Main showroom credit',
      customer_id: main.customer.id,
    });
    expect(await ctx.sql(`SELECT 1 FROM points_entry_history WHERE mrn = $1`, [main.mrn])).toEqual(
      [],
    );

    // Their own branch's entry, and the owner on any branch's, are corrected as before.
    const ann = await manualEntry('annCashier', 'Anna Nagar credit');
    await ok(correct('annManager', ann.mrn, ann.customer.mobileno, '60'));
    await ok(correct('owner', main.mrn, main.customer.mobileno, '55'));
  });

  it('cannot close or cancel another branch’s scheme', async () => {
    const active = await schemeOf('mainCashier');
    const inactive = await schemeOf('mainCashier', { inactive: true });
    const close = await call('annManager', '/scheme/close', { schemeid: active });
    expect(close.statusCode).toBe(403);
    expect(close.json()).toEqual(notAllowed);
    const cancel = await call('annManager', '/scheme/delete', { schemeid: inactive });
    expect(cancel.statusCode).toBe(403);
    expect(cancel.json()).toEqual(notAllowed);
    expect(await statusOf(active)).toBe('a');
    expect(await statusOf(inactive)).toBe('n');

    // Their own branch's schemes, and the owner on any branch's, as before.
    const annActive = await schemeOf('annCashier');
    const annInactive = await schemeOf('annCashier', { inactive: true });
    await ok(call('annManager', '/scheme/close', { schemeid: annActive }));
    await ok(call('annManager', '/scheme/delete', { schemeid: annInactive }));
    await ok(call('mainManager', '/scheme/close', { schemeid: active }));
    await ok(call('owner', '/scheme/delete', { schemeid: inactive }));
    expect(await statusOf(active)).toBe('m');
    expect(await statusOf(inactive)).toBe('x');
  });

  it('lists their branch’s counter postings on their audit trail, not another branch’s', async () => {
    const keyOf = async (label: string, branch: string) =>
      (await ok(call('owner', '/settings/api-keys', { label, branch }))).data.key as string;
    const sale = (apiKey: string, invoiceNo: string, mobile: string) =>
      ok(
        ctx.app.inject({
          method: 'POST',
          url: '/api/pos/sales',
          headers: { 'x-api-key': apiKey },
          payload: {
            invoiceNo,
            invoiceDate: TODAY,
            mobile,
            name: 'Counter Customer',
            lines: [{ description: 'Ring', category: 'gold', amount: 50_000 }],
          },
        }),
      );
    await sale(await keyOf('Anna Nagar till', 'ANN'), 'ANN-1', '9712300001');
    await sale(await keyOf('Main till', 'MAIN'), 'MAIN-1', '9712300002');
    const postings = async (username: string) =>
      (await ok(call(username, '/audit?entity=points_entry'))).data
        .filter((row: { action: string }) => row.action === 'pos.sale')
        .map((row: { branch: string; name: string }) => [row.branch, row.name]);
    expect(await postings('annManager')).toEqual([
      ['ANN', expect.stringContaining('Anna Nagar till')],
    ]);
    expect(await postings('mainManager')).toEqual([['MAIN', expect.stringContaining('Main till')]]);
    expect(await postings('owner')).toHaveLength(2);
  });

  it('files a counter posting recorded without a branch under the branch it names, on upgrade', async () => {
    await ctx.sql(
      `INSERT INTO audit_log (user_id, branch_id, action, entity, entity_id, detail)
       VALUES (NULL, NULL, 'pos.return', 'points_entry', '999001',
               '{"apiKeyId": 1, "counter": "Old till", "branch": "ANN"}')`,
    );
    const returns = async () =>
      (await ok(call('annManager', '/audit?entity=points_entry'))).data.filter(
        (row: { action: string }) => row.action === 'pos.return',
      );
    expect(await returns()).toEqual([]);
    const migration = await readFile(
      new URL('../../drizzle/0026_counter_audit_branches.sql', import.meta.url),
      'utf8',
    );
    await ctx.sql(migration);
    expect(await returns()).toEqual([
      expect.objectContaining({ branch: 'ANN', entityId: '999001' }),
    ]);
  });
});
