import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTING_MESSAGES,
  DATA_RIGHTS_MESSAGES,
  DEFAULT_ACCOUNTING_SETTINGS,
  MESSAGES,
  POS_MESSAGES,
  type TallyPushResult,
} from '@kanak/contract';
import { startFakeTally, type FakeTally } from '../../test/fake-tally.js';
import {
  authed,
  createTestContext,
  lateEntryReason,
  pointsBalance,
  staffSession,
  type TestContext,
} from '../../test/helpers.js';

/**
 * The replay store (`idempotency_keys`), tried as an insider would: a token that has ended
 * sends a change again with its Idempotency-Key and body to read back the secret it answered,
 * and whoever can read the database reads the stored answers.
 */

const noonOf = (isoDate: string) => new Date(`${isoDate}T12:00:00+05:30`);
let now = noonOf('2026-06-15');
let ctx: TestContext;
let owner: string;
let tally: FakeTally;

beforeAll(async () => {
  tally = await startFakeTally(Object.values(DEFAULT_ACCOUNTING_SETTINGS).filter(Boolean));
  ctx = await createTestContext({ TALLY_URL: tally.url }, () => now);
  owner = (await staffSession(ctx, 'ria', 'owner')).token;
});
afterAll(async () => {
  await ctx.close();
  await tally.close();
});

const send = (token: string, path: string, payload: object, key = randomUUID()) =>
  ctx.app.inject(
    authed(token, { method: 'POST', url: `/api${path}`, payload, idempotencyKey: key }),
  );

async function ok(response: Promise<{ statusCode: number; body: string; json(): unknown }>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json() as {
    message?: string;
    data: Record<string, unknown> & { key?: string; temporaryPassword?: string };
  };
}

/** Every stored column of every replay record, as one text each. */
const storedReplays = async () =>
  (await ctx.sql<{ row: string }>(`SELECT t::text AS row FROM idempotency_keys t`)).map(
    (r) => r.row,
  );

async function expectNotStored(...secrets: string[]) {
  const rows = await storedReplays();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows)
    for (const secret of secrets) expect(row.toLowerCase()).not.toContain(secret.toLowerCase());
}

describe('a replay needs a live session', () => {
  it('refuses a logged-out token sending an API key creation again: 401, no key', async () => {
    const { token } = await staffSession(ctx, 'owner-logout', 'owner');
    const key = randomUUID();
    const first = await ok(send(token, '/settings/api-keys', { label: 'Counter 1' }, key));
    expect(first.data.key).toMatch(/^kk_/);
    await ok(ctx.app.inject(authed(token, { method: 'POST', url: '/api/logout' })));

    const again = await send(token, '/settings/api-keys', { label: 'Counter 1' }, key);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
    expect(again.body).not.toContain(first.data.key);
  });

  it('refuses a disabled account sending a staff add again: 401, no password', async () => {
    const { token } = await staffSession(ctx, 'owner-disabled', 'owner');
    const key = randomUUID();
    const body = { username: 'newcashier1', name: 'New Cashier', role: 'cashier' };
    const first = await ok(send(token, '/staff/add', body, key));
    expect(first.data.temporaryPassword).toBeTruthy();
    await ok(send(owner, '/staff/disable', { username: 'owner-disabled' }));

    const again = await send(token, '/staff/add', body, key);
    expect(again.statusCode).toBe(401);
    expect(again.body).not.toContain(first.data.temporaryPassword);
  });

  it('refuses a token whose password was reset sending a reset again: 401, no password', async () => {
    const { token } = await staffSession(ctx, 'manager-reset', 'manager');
    await staffSession(ctx, 'cashier-reset', 'cashier');
    const key = randomUUID();
    const first = await ok(
      send(token, '/staff/reset-password', { username: 'cashier-reset' }, key),
    );
    expect(first.data.temporaryPassword).toBeTruthy();
    await ok(send(owner, '/staff/reset-password', { username: 'manager-reset' }));

    const again = await send(token, '/staff/reset-password', { username: 'cashier-reset' }, key);
    expect(again.statusCode).toBe(401);
    expect(again.body).not.toContain(first.data.temporaryPassword);
  });
});

describe('a secret shown once is not shown again, nor kept', () => {
  it('answers a repeated API key creation 409 and makes no second key; the key is stored nowhere in the clear', async () => {
    const key = randomUUID();
    const first = await ok(send(owner, '/settings/api-keys', { label: 'Counter once' }, key));
    const again = await send(owner, '/settings/api-keys', { label: 'Counter once' }, key);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, message: POS_MESSAGES.apiKeyShownOnce });
    const keys = await ctx.sql(`SELECT id FROM api_keys WHERE label = 'Counter once'`);
    expect(keys).toHaveLength(1);
    await expectNotStored(first.data.key as string);
    // The key still opens the POS: nothing was changed by the repeat.
    const pos = await ctx.app.inject({
      method: 'GET',
      url: '/api/pos/customers/9876500000',
      headers: { 'x-api-key': first.data.key as string },
    });
    expect(pos.statusCode).not.toBe(401);
  });

  it('answers a repeated staff add and password reset 409, making no second password', async () => {
    const addKey = randomUUID();
    const body = { username: 'oncecashier', name: 'Once Cashier', role: 'cashier' };
    const added = await ok(send(owner, '/staff/add', body, addKey));
    const addedAgain = await send(owner, '/staff/add', body, addKey);
    expect(addedAgain.statusCode).toBe(409);
    expect(addedAgain.json().message).toBe(MESSAGES.staffAddedShownOnce);

    const resetKey = randomUUID();
    const reset = await ok(
      send(owner, '/staff/reset-password', { username: 'oncecashier' }, resetKey),
    );
    const resetAgain = await send(
      owner,
      '/staff/reset-password',
      { username: 'oncecashier' },
      resetKey,
    );
    expect(resetAgain.statusCode).toBe(409);
    expect(resetAgain.json().message).toBe(MESSAGES.staffPasswordResetShownOnce);
    expect(
      await ctx.sql(`SELECT id FROM audit_log WHERE action = 'staff.reset-password'
        AND entity_id = (SELECT id::text FROM users WHERE username = 'oncecashier')`),
    ).toHaveLength(1);
    // The reset's password is the one that works: the repeat made none.
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/verify',
      payload: { USERNAME: 'oncecashier', PASSWORD: reset.data.temporaryPassword },
      remoteAddress: '10.9.9.9',
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    await expectNotStored(
      added.data.temporaryPassword as string,
      reset.data.temporaryPassword as string,
    );
  });
});

describe('answers about a customer are kept as ids and read afresh', () => {
  const person = {
    custname: 'Kamala Venkataraman',
    mobileno: '9812345670',
    email: 'kamala.v@example.in',
    address: '7 Lotus Lane',
    pan: 'KAMVE1234K',
    dob: '1975-08-09',
  };

  it('replays a profile save, a consent and a receipt with the same answers, storing no name, mobile, e-mail, address or PAN', async () => {
    const saveKey = randomUUID();
    const form = { formData: { ...person, city: 'Chennai', pincode: '600001' } };
    const saved = await send(owner, '/customers/update-customer-data', form, saveKey);
    expect(saved.statusCode, saved.body).toBe(200);
    const savedAgain = await send(owner, '/customers/update-customer-data', form, saveKey);
    expect(savedAgain.statusCode).toBe(200);
    expect(savedAgain.headers['idempotent-replayed']).toBe('true');
    expect(savedAgain.json()).toEqual(saved.json());
    const custid = saved.json().data.custid as number;
    expect(
      await ctx.sql(`SELECT id FROM customers WHERE mobileno = $1`, [person.mobileno]),
    ).toHaveLength(1);

    const consentKey = randomUUID();
    const consentBody = { custid, purpose: 'transactional', granted: true };
    const consent = await ok(send(owner, '/customers/consent', consentBody, consentKey));
    const consentAgain = await send(owner, '/customers/consent', consentBody, consentKey);
    expect(consentAgain.statusCode).toBe(200);
    expect(consentAgain.json()).toEqual(consent);
    expect(
      await ctx.sql(`SELECT id FROM customer_consents WHERE customer_id = $1`, [custid]),
    ).toHaveLength(1);

    const scheme = await ok(
      send(owner, '/scheme/generate', {
        custid,
        mobileno: person.mobileno,
        startdt: '2026-05-01',
        amount: 2000,
        ...lateEntryReason('2026-05-01', now),
      }),
    );
    const schemeid = scheme.data.schemeid as number;
    const activateKey = randomUUID();
    const payment = {
      schemeid,
      date: '2026-05-01',
      mode: 'cash',
      ...lateEntryReason('2026-05-01', now),
    };
    const receipt = await ok(send(owner, '/scheme/activate', payment, activateKey));
    expect(receipt.data).toMatchObject({ custname: person.custname, mobileno: person.mobileno });
    const receiptAgain = await send(owner, '/scheme/activate', payment, activateKey);
    expect(receiptAgain.statusCode).toBe(200);
    expect(receiptAgain.json()).toEqual(receipt);
    expect(
      await ctx.sql(`SELECT id FROM scheme_installments WHERE scheme_id = $1`, [schemeid]),
    ).toHaveLength(1);

    await expectNotStored(
      person.custname,
      'Kamala',
      person.mobileno,
      person.email,
      person.address,
      person.pan,
      person.dob,
    );
  });
});

describe("Tally's answer to a push is kept as its counts", () => {
  const person = { custname: 'Ravi Shankar Iyer', mobileno: '9812300045' };

  it("shows Tally's refusal quoting the narration once; a repeat gets the counts and sends nothing", async () => {
    const saved = await ok(send(owner, '/customers/update-customer-data', { formData: person }));
    const custid = saved.data.custid as number;
    const scheme = await ok(
      send(owner, '/scheme/generate', {
        custid,
        ...person,
        startdt: '2026-06-01',
        amount: 1500,
        ...lateEntryReason('2026-06-01', now),
      }),
    );
    await ok(
      send(owner, '/scheme/activate', {
        schemeid: scheme.data.schemeid,
        date: '2026-06-01',
        mode: 'upi',
        ...lateEntryReason('2026-06-01', now),
      }),
    );
    // Tally's LINEERROR quotes the voucher it refused, narration and all.
    tally.refuse = (voucher) =>
      voucher.type === 'Receipt' ? `Period is locked: ${voucher.narration}` : undefined;

    const key = randomUUID();
    const range = { from: '2026-06-01', to: '2026-06-30' };
    const first = await ok(send(owner, '/accounting/tally-push', range, key));
    const result = first.data as unknown as TallyPushResult;
    expect(result.errors).toBeGreaterThan(0);
    expect(result.lineErrors.join('\n')).toContain(person.custname);
    const sent = tally.requests.length;

    const again = await send(owner, '/accounting/tally-push', range, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const counts = { ...(first.data as unknown as TallyPushResult), lineErrors: [] };
    expect(again.json()).toEqual({
      success: true,
      message: ACCOUNTING_MESSAGES.pushedAgain(counts),
      data: counts,
    });
    expect(tally.requests).toHaveLength(sent);
    await expectNotStored(person.custname, 'Ravi Shankar', person.mobileno);
    tally.refuse = undefined;
  });
});

describe('a refusal is kept whole, so it names no customer', () => {
  it('keeps a correction refused for spent points without either mobile number, and replays it', async () => {
    const giver = { custname: 'Lakshmi Narayanan', mobileno: '9845012345' };
    const holder = { custname: 'Arun Prakash', mobileno: '9845067890' };
    for (const formData of [giver, holder])
      await ok(send(owner, '/customers/update-customer-data', { formData }));
    const points = (POINTS: number, CASHCR: 'CR' | 'DB') =>
      ok(
        send(owner, '/customers/update-points', {
          formData: { MOBILENO: giver.mobileno, POINTS, CASHCR, INVDATE: '2026-06-01' },
        }),
      );
    await points(100, 'CR');
    await points(80, 'DB');
    const [credit] = await ctx.sql<{ mrn: string }>(
      `SELECT mrn FROM points_entries
        WHERE credit = 100 AND customer_id = (SELECT id FROM customers WHERE mobileno = $1)`,
      [giver.mobileno],
    );
    // The credit, already spent, moved to another customer: the giver would be left at -80.
    const move = {
      formData: {
        MRN: Number(credit!.mrn),
        MOBILENO: holder.mobileno,
        POINTS: 100,
        CASHCR: 'CR',
        INVDATE: '2026-06-01',
      },
    };
    const key = randomUUID();
    const refused = await send(owner, '/customers/update-statement', move, key);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      message: MESSAGES.balanceWouldGoNegative(true),
    });
    const again = await send(owner, '/customers/update-statement', move, key);
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(refused.json());
    await expectNotStored(giver.mobileno, holder.mobileno);
  });
});

describe('erasure leaves nothing of the customer in free text', () => {
  const person = {
    custname: 'Meenakshi Sundaram',
    mobileno: '9876512345',
    email: 'meenakshi.s@example.in',
  };

  it('replaces their narrations and the audit trail’s copies of them, keeping amounts and dates; no table names them after', async () => {
    const saved = await ok(
      send(owner, '/customers/update-customer-data', {
        formData: { ...person, address: '3 Temple Road', pan: 'MEESU1234M' },
      }),
    );
    const custid = saved.data.custid as number;
    await ok(
      send(owner, '/customers/consent', { custid, purpose: 'transactional', granted: true }),
    );
    const credit = (NARRATION: string, POINTS: number) =>
      ok(
        send(owner, '/customers/update-points', {
          formData: {
            MOBILENO: person.mobileno,
            POINTS,
            CASHCR: 'CR',
            INVDATE: '2026-06-01',
            NARRATION,
          },
        }),
      );
    await credit(`Welcome bonus for ${person.custname}`, 500);
    await credit('Gift for Meenakshi, call 98765 12345', 40);
    await credit(`Mailed ${person.email}`, 7);
    await credit('', 3);
    // A staff edit of a ledger row, kept in its history with both sides' narrations.
    const [edited] = await ctx.sql<{ mrn: string }>(
      `SELECT mrn FROM points_entries WHERE customer_id = $1 AND credit = 40`,
      [custid],
    );
    await ok(
      send(owner, '/customers/update-statement', {
        formData: {
          MRN: Number(edited!.mrn),
          MOBILENO: person.mobileno,
          POINTS: 45,
          CASHCR: 'CR',
          INVDATE: '2026-06-02',
          NARRATION: `Corrected gift for ${person.custname}`,
        },
      }),
    );
    // A scheme paid and closed, one installment noted with their name; each payment entered on
    // its day, the closing today.
    now = noonOf('2025-01-01');
    const scheme = await ok(
      send(owner, '/scheme/generate', {
        custid,
        mobileno: person.mobileno,
        startdt: '2025-01-01',
        amount: 1000,
      }),
    );
    const schemeid = scheme.data.schemeid as number;
    await ok(send(owner, '/scheme/activate', { schemeid, date: '2025-01-01', mode: 'cash' }));
    now = noonOf('2025-02-01');
    await ok(
      send(owner, '/scheme/add-installment', {
        schemeid,
        date: '2025-02-01',
        mode: 'upi',
        narration: `Paid by ${person.custname}'s son`,
      }),
    );
    now = noonOf('2026-06-15');
    await ok(send(owner, '/scheme/close', { schemeid }));
    // Before: the name is in the ledger, its history, the installments, the audit trail, the notices.
    const before = await tablesNaming(person.custname);
    expect(before).toEqual(
      expect.arrayContaining([
        'audit_log',
        'notices',
        'points_entries',
        'points_entry_history',
        'scheme_installments',
      ]),
    );

    const erase = await ok(send(owner, '/customers/erase', { custid }));
    expect(erase.message).toBe(DATA_RIGHTS_MESSAGES.customerErased);

    for (const word of [person.custname, 'Meenakshi', person.mobileno, '98765 12345', person.email])
      expect(await tablesNaming(word), word).toEqual([]);
    // Amounts, dates and codes stay; Kanak's own default narration stays.
    const ledger = await ctx.sql(
      `SELECT invdate::text, credit, debit, ts, narration FROM points_entries WHERE customer_id = $1 ORDER BY mrn`,
      [custid],
    );
    expect(ledger).toEqual([
      { invdate: '2026-06-01', credit: 500, debit: 0, ts: 'M', narration: '(erased)' },
      { invdate: '2026-06-02', credit: 45, debit: 0, ts: 'M', narration: '(erased)' },
      { invdate: '2026-06-01', credit: 7, debit: 0, ts: 'M', narration: '(erased)' },
      { invdate: '2026-06-01', credit: 3, debit: 0, ts: 'M', narration: 'Points allocated' },
    ]);
    expect(await pointsBalance(ctx, custid)).toBe(555);
    const audit = await ctx.sql<{
      detail: { after?: { credit?: number; invdate?: string; narration?: string } };
    }>(`SELECT detail FROM audit_log WHERE action = 'points.credit' ORDER BY id`);
    expect(audit.map((row) => row.detail.after)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ credit: 500, invdate: '2026-06-01', narration: '(erased)' }),
      ]),
    );
    const [installment] = await ctx.sql(
      `SELECT paid_on::text, amount, narration FROM scheme_installments WHERE scheme_id = $1 AND narration <> ''`,
      [schemeid],
    );
    expect(installment).toEqual({ paid_on: '2025-02-01', amount: 1000, narration: '(erased)' });
  });
});

describe('the upgrade that empties answers kept the old way', () => {
  it('leaves no key or profile in the store, and a retry of such a change is told to check, never redone', async () => {
    const { token } = await staffSession(ctx, 'owner-upgrade', 'owner');
    const key = randomUUID();
    const body = { label: 'Counter 9' };
    const first = await ok(send(token, '/settings/api-keys', body, key));
    // As the old code kept it: the whole answer, the new key in it.
    await ctx.sql(
      `UPDATE idempotency_keys SET response_body = $1, status_code = 200
        WHERE key = $2`,
      [JSON.stringify(first), key],
    );
    const migration = await readFile(
      new URL('../../drizzle/0025_replay_store_emptied.sql', import.meta.url),
      'utf8',
    );
    await ctx.sql(migration);

    expect((await storedReplays()).join('\n')).not.toContain(first.data.key!);
    const keys = await ctx.sql(`SELECT count(*)::int AS n FROM api_keys`);
    const again = await send(token, '/settings/api-keys', body, key);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toEqual({ success: false, message: MESSAGES.idempotencyInterrupted });
    expect(await ctx.sql(`SELECT count(*)::int AS n FROM api_keys`)).toEqual(keys);
  });
});

/** The tables (any schema but PostgreSQL's own) with a row whose text holds `word`, any case. */
async function tablesNaming(word: string): Promise<string[]> {
  const tables = await ctx.sql<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
      ORDER BY 2`,
  );
  const naming: string[] = [];
  for (const { schema, name } of tables) {
    const [hit] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${schema}"."${name}" t WHERE strpos(lower(t::text), lower($1)) > 0`,
      [word],
    );
    if (hit!.n > 0) naming.push(name);
  }
  return naming;
}
