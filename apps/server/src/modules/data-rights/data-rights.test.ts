import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  DATA_RIGHTS_MESSAGES,
  ERASED_CUSTOMER_NAME,
  MESSAGES,
  PRIVACY_NOTICE_VERSION,
  type CustomerDataExport,
  type CustomerProfile,
} from '@kanak/contract';
import {
  addUser,
  authed,
  createTestContext,
  login,
  type TestContext,
} from '../../../test/helpers.js';

/** Customers' data rights: consent per purpose, a copy of everything held, erasure. */

/** "Now": 15 June 2026, noon in Kolkata. */
/** The app's clock; a scheme of last year is entered on its own day, then the clock comes back. */
let now = new Date('2026-06-15T12:00:00+05:30');
const TODAY = '2026-06-15';
let ctx: TestContext;
const tokens = {} as Record<'owner' | 'manager' | 'cashier', string>;

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  await addUser(ctx, 'ria', 'Owner@1928x', 'owner');
  await addUser(ctx, 'mohan', 'Manager@1928x', 'manager');
  await addUser(ctx, 'kiran', 'Cashier@1928x', 'cashier');
  tokens.owner = await login(ctx, 'ria', 'Owner@1928x');
  tokens.manager = await login(ctx, 'mohan', 'Manager@1928x');
  tokens.cashier = await login(ctx, 'kiran', 'Cashier@1928x');
});
afterAll(() => ctx.close());

type Who = keyof typeof tokens;
const call = (who: Who, options: InjectOptions & { idempotencyKey?: string }) =>
  ctx.app.inject(authed(tokens[who], options));
const post = (who: Who, path: string, payload: unknown, idempotencyKey?: string) =>
  call(who, { method: 'POST', url: `/api/${path}`, payload: payload as object, idempotencyKey });

async function ok(response: LightMyRequestResponse | Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json();
}

function refused(response: LightMyRequestResponse, status: number, message?: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().success).toBe(false);
  if (message !== undefined) expect(response.json().message).toBe(message);
}

let mobileSerial = 9000000000;
/** A customer with every personal field filled, enrolled by the cashier. */
async function enrol(mobileno = String(++mobileSerial)) {
  const body = await ok(
    post('cashier', 'customers/update-customer-data', {
      formData: {
        mobileno,
        custname: 'Lakshmi Narayanan',
        email: 'lakshmi@example.in',
        address: '12 Temple Street',
        city: 'Madurai',
        pincode: '625001',
        state: 'Tamil Nadu',
        dob: '1980-03-04',
        doa: '2005-05-06',
        aadhaar: '2345 6789 0124',
        pan: 'ABCDE1234F',
      },
    }),
  );
  return body.data as CustomerProfile;
}

const consent = (who: Who, custid: unknown, purpose: unknown, granted: unknown) =>
  post(who, 'customers/consent', { custid, purpose, granted });
const profile = async (mobileno: string) =>
  (await ok(post('cashier', 'customers/get-customer-data', { mobileno }))).data as CustomerProfile;
const dataExport = (who: Who, custid: unknown) =>
  call(who, { method: 'GET', url: `/api/customers/data-export?custid=${String(custid)}` });
const erase = (who: Who, custid: unknown, idempotencyKey?: string) =>
  post(who, 'customers/erase', { custid }, idempotencyKey);
const credit = (who: Who, mobileno: string, points: number, CASHCR = 'CR') =>
  post(who, 'customers/update-points', {
    formData: { MOBILENO: mobileno, POINTS: points, INVDATE: TODAY, CASHCR, NARRATION: '' },
  });

async function startScheme(customer: CustomerProfile, startdt = TODAY) {
  const body = await ok(
    post('cashier', 'scheme/generate', {
      custid: customer.custid,
      mobileno: customer.mobileno,
      custname: customer.custname,
      startdt,
      amount: 2000,
    }),
  );
  return body.data.schemeid as number;
}

const ledgerOf = (custid: number) =>
  ctx.sql<{ credit: number; debit: number }>(
    `SELECT credit, debit FROM points_entries WHERE customer_id = $1 ORDER BY mrn`,
    [custid],
  );
const customerRow = async (custid: number) =>
  (
    await ctx.sql<Record<string, unknown>>(
      `SELECT c.*, a.balance AS points_balance
         FROM customers c JOIN points_accounts a ON a.customer_id = c.id WHERE c.id = $1`,
      [custid],
    )
  )[0]!;

describe('consent per purpose', () => {
  it('starts with neither purpose for a customer enrolled by staff', async () => {
    const customer = await enrol();
    expect(customer.consents).toEqual({ transactional: false, marketing: false });
    expect(customer.consentHistory).toEqual([]);
    expect((await profile(customer.mobileno)).consents).toEqual({
      transactional: false,
      marketing: false,
    });
  });

  it('keeps every grant and withdrawal with who, when, how and the notice version; the latest decides', async () => {
    const customer = await enrol();
    const granted = await ok(consent('cashier', customer.custid, 'transactional', true));
    expect(granted.message).toBe(DATA_RIGHTS_MESSAGES.consentRecorded('transactional', true));
    expect(granted.data.consents).toEqual({ transactional: true, marketing: false });
    await ok(consent('cashier', customer.custid, 'marketing', true));
    const withdrawn = await ok(consent('manager', customer.custid, 'marketing', false));
    expect(withdrawn.data.consents).toEqual({ transactional: true, marketing: false });

    const read = await profile(customer.mobileno);
    expect(read.consents).toEqual({ transactional: true, marketing: false });
    expect(
      read.consentHistory.map(({ purpose, granted, recordedBy, method, noticeVersion }) => ({
        purpose,
        granted,
        recordedBy,
        method,
        noticeVersion,
      })),
    ).toEqual([
      {
        purpose: 'marketing',
        granted: false,
        recordedBy: 'mohan',
        method: 'staff',
        noticeVersion: PRIVACY_NOTICE_VERSION,
      },
      {
        purpose: 'marketing',
        granted: true,
        recordedBy: 'kiran',
        method: 'staff',
        noticeVersion: PRIVACY_NOTICE_VERSION,
      },
      {
        purpose: 'transactional',
        granted: true,
        recordedBy: 'kiran',
        method: 'staff',
        noticeVersion: PRIVACY_NOTICE_VERSION,
      },
    ]);
    for (const event of read.consentHistory)
      expect(Date.parse(event.recordedAt)).toBeGreaterThan(Date.now() - 60_000);
    const audits = await ctx.sql<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity = 'customer' AND entity_id = $1 AND action LIKE 'consent.%' ORDER BY id`,
      [String(customer.custid)],
    );
    expect(audits.map((row) => row.action)).toEqual([
      'consent.grant',
      'consent.grant',
      'consent.withdraw',
    ]);
  });

  it('refuses an unknown purpose or customer, changing nothing', async () => {
    const customer = await enrol();
    refused(await consent('cashier', customer.custid, 'promotions', true), 400);
    refused(await consent('cashier', customer.custid, 'marketing', 'yes'), 400);
    refused(await consent('cashier', 0, 'marketing', true), 400);
    refused(
      await consent('cashier', 2_000_000_000, 'marketing', true),
      404,
      MESSAGES.customerNotFound,
    );
    expect((await profile(customer.mobileno)).consentHistory).toEqual([]);
  });

  it('records a repeated request (same Idempotency-Key) once', async () => {
    const customer = await enrol();
    const key = crypto.randomUUID();
    const payload = { custid: customer.custid, purpose: 'marketing', granted: true };
    await ok(post('cashier', 'customers/consent', payload, key));
    await ok(post('cashier', 'customers/consent', payload, key));
    expect((await profile(customer.mobileno)).consentHistory).toHaveLength(1);
  });
});

describe('GET /api/customers/data-export', () => {
  it('holds everything about one customer: profile, consents, ledger, schemes with installments, notices', async () => {
    const customer = await enrol();
    await ok(consent('cashier', customer.custid, 'transactional', true));
    await ok(credit('cashier', customer.mobileno, 500));
    await ok(credit('cashier', customer.mobileno, 120, 'DB'));
    const schemeid = await startScheme(customer);
    await ok(
      post('cashier', 'scheme/activate', {
        schemeid,
        date: TODAY,
        mode: 'upi',
        reference: 'UPI-7',
      }),
    );
    const other = await enrol();
    await ok(credit('cashier', other.mobileno, 999));

    const response = await dataExport('manager', customer.custid);
    expect(response.headers['cache-control']).toBe('no-store');
    const data = (await ok(response)).data as CustomerDataExport;
    expect(data.profile).toMatchObject({
      custid: customer.custid,
      mobileno: customer.mobileno,
      custname: 'Lakshmi Narayanan',
      city: 'Madurai',
      aadhaar: 'XXXXXXXX0124',
      pan: 'ABCDE1234F',
      points: 380,
      erasedAt: null,
    });
    expect(response.body).not.toContain('234567890124');
    expect(data.consents).toEqual({ transactional: true, marketing: false });
    expect(data.consentHistory).toHaveLength(1);
    expect(data.pointsLedger.map((row) => [row.credit, row.debit])).toEqual([
      [500, 0],
      [0, 120],
    ]);
    expect(data.schemes).toHaveLength(1);
    expect(data.schemes[0]).toMatchObject({ schemeId: schemeid, status: 'a', amount: 2000 });
    expect(data.schemes[0]!.installments).toEqual([
      expect.objectContaining({ paidOn: TODAY, amount: 2000, mode: 'upi', reference: 'UPI-7' }),
    ]);
    expect(data.noticesSent).toEqual([]);
    expect(data.noticeVersion).toBe(PRIVACY_NOTICE_VERSION);
  });

  it('is for managers and the owner; a cashier is refused', async () => {
    const customer = await enrol();
    await ok(dataExport('owner', customer.custid));
    refused(await dataExport('cashier', customer.custid), 403, MESSAGES.notAllowed);
  });

  it('refuses a bad or unknown customer id', async () => {
    refused(await dataExport('manager', 'abc'), 400);
    refused(await dataExport('manager', '-3'), 400);
    refused(await call('manager', { method: 'GET', url: '/api/customers/data-export' }), 400);
    refused(await dataExport('manager', 2_000_000_000), 404, MESSAGES.customerNotFound);
  });
});

describe('POST /api/customers/erase', () => {
  it('removes the personal data, keeps the ledger and its balance, and frees the mobile number', async () => {
    const customer = await enrol();
    await ok(consent('cashier', customer.custid, 'transactional', true));
    await ok(consent('cashier', customer.custid, 'marketing', true));
    await ok(credit('cashier', customer.mobileno, 700));
    await ok(credit('cashier', customer.mobileno, 200, 'DB'));
    const ledgerBefore = await ledgerOf(customer.custid);

    const body = await ok(erase('owner', customer.custid));
    expect(body.message).toBe(DATA_RIGHTS_MESSAGES.customerErased);
    expect(body.data).toMatchObject({ custid: customer.custid, alreadyErased: false });

    const row = await customerRow(customer.custid);
    expect(row).toMatchObject({
      mobileno: null,
      custname: ERASED_CUSTOMER_NAME,
      email: '',
      address: '',
      city: '',
      pincode: '',
      state: '',
      dob: null,
      doa: null,
      aadhaar_sealed: null,
      aadhaar_last4: null,
      pan: '',
      points_balance: 500,
    });
    expect(row.erased_at).not.toBeNull();
    // Ledger intact, still summing to the balance.
    expect(await ledgerOf(customer.custid)).toEqual(ledgerBefore);
    const [sum] = await ctx.sql<{ total: string }>(
      `SELECT sum(credit - debit)::text AS total FROM points_entries WHERE customer_id = $1`,
      [customer.custid],
    );
    expect(sum!.total).toBe('500');
    // Consent withdrawn, by erasure.
    const exported = (await ok(dataExport('owner', customer.custid))).data as CustomerDataExport;
    expect(exported.consents).toEqual({ transactional: false, marketing: false });
    expect(exported.consentHistory.slice(0, 2).map((event) => event.method)).toEqual([
      'erasure',
      'erasure',
    ]);
    expect(exported.profile.custname).toBe(ERASED_CUSTOMER_NAME);
    expect(exported.profile.mobileno).toBe('');
    // Nobody finds the customer by the old number or name any more.
    refused(
      await post('cashier', 'customers/get-customer-data', { mobileno: customer.mobileno }),
      404,
    );
    refused(await credit('cashier', customer.mobileno, 10), 404, MESSAGES.customerNotFound);
    const search = await ok(
      call('cashier', { method: 'GET', url: '/api/customers/get-all-customers?search=Erased' }),
    );
    expect(search.data).toEqual([]);
    refused(await consent('cashier', customer.custid, 'marketing', true), 409);
    // Export All no longer lists them, in either form.
    const all = await ok(
      call('manager', { method: 'GET', url: '/api/customers/download-customer-data' }),
    );
    expect(all.data.map((row: { custid: number }) => row.custid)).not.toContain(customer.custid);
    const csv = await call('manager', {
      method: 'GET',
      url: '/api/customers/download-customer-data?format=csv',
    });
    expect(csv.body).not.toContain(ERASED_CUSTOMER_NAME);
    refused(
      await post('cashier', 'scheme/update-pan', { custid: customer.custid, pan: 'ABCDE1234F' }),
      404,
    );
    refused(
      await post('cashier', 'scheme/generate', {
        custid: customer.custid,
        mobileno: customer.mobileno,
        custname: 'Lakshmi Narayanan',
        startdt: TODAY,
        amount: 2000,
      }),
      400,
    );
    expect((await customerRow(customer.custid)).pan).toBe('');

    // The freed mobile enrols again, as a new customer with nothing of the old one.
    const again = await enrol(customer.mobileno);
    expect(again.custid).not.toBe(customer.custid);
    expect(again.points).toBe(0);
    expect(again.consents).toEqual({ transactional: false, marketing: false });
    expect(await ledgerOf(customer.custid)).toEqual(ledgerBefore);
  });

  it('writes audit rows that name what was removed but hold none of it', async () => {
    const customer = await enrol();
    await ok(erase('owner', customer.custid));
    const audits = await ctx.sql<{ action: string; detail: unknown }>(
      `SELECT action, detail, mobile FROM audit_log WHERE entity = 'customer' AND entity_id = $1 ORDER BY id`,
      [String(customer.custid)],
    );
    expect(audits.map((row) => row.action)).toEqual(['customer.create', 'customer.erase']);
    const filedByMobile = await ctx.sql(`SELECT id FROM audit_log WHERE mobile = $1`, [
      customer.mobileno,
    ]);
    expect(filedByMobile).toEqual([]);
    const text = JSON.stringify(audits);
    for (const personal of [
      customer.mobileno,
      'Lakshmi',
      'lakshmi@example.in',
      'Temple',
      'Madurai',
      '625001',
      '1980-03-04',
      '0124',
      'ABCDE1234F',
    ])
      expect(text).not.toContain(personal);
    expect(audits[1]!.detail).toMatchObject({
      removed: expect.arrayContaining(['mobileno', 'pan']),
    });
  });

  it('is refused with the reason while a scheme is active or not yet started; allowed once it is closed', async () => {
    const customer = await enrol();
    now = new Date('2025-05-01T12:00:00+05:30');
    const schemeid = await startScheme(customer, '2025-05-01');
    const before = await customerRow(customer.custid);
    refused(
      await erase('owner', customer.custid),
      409,
      DATA_RIGHTS_MESSAGES.eraseInactiveScheme(schemeid),
    );
    await ok(post('cashier', 'scheme/activate', { schemeid, date: '2025-05-01', mode: 'cash' }));
    now = new Date(`${TODAY}T12:00:00+05:30`);
    refused(
      await erase('owner', customer.custid),
      409,
      DATA_RIGHTS_MESSAGES.eraseActiveScheme(schemeid),
    );
    expect(await customerRow(customer.custid)).toEqual({
      ...before,
      updated_at: expect.any(Date),
    });
    expect((await customerRow(customer.custid)).mobileno).toBe(customer.mobileno);
    // Matured: the manager closes it; the scheme and its receipt stay after the erasure.
    await ok(post('manager', 'scheme/close', { schemeid }));
    await ok(erase('owner', customer.custid));
    const [scheme] = await ctx.sql<{ status: string; customer_id: number; receipts: number }>(
      `SELECT s.status, s.customer_id,
              (SELECT count(*)::int FROM scheme_installments i WHERE i.scheme_id = s.id) AS receipts
         FROM schemes s WHERE s.id = $1`,
      [schemeid],
    );
    expect(scheme).toEqual({ status: 'm', customer_id: customer.custid, receipts: 1 });
    const statement = await ok(post('cashier', 'scheme/generate-statement', { schemeid }));
    expect(statement.custname).toBe(ERASED_CUSTOMER_NAME);
    expect(statement.mobileno).toBe('');
  });

  it("clears their name and number from other customers' narrations, references and audit rows, and leaves the rest", async () => {
    const named = async (custname: string, mobileno: string) =>
      (
        await ok(
          post('cashier', 'customers/update-customer-data', {
            formData: { mobileno, custname, email: '', pincode: '', dob: '', doa: '', pan: '' },
          }),
        )
      ).data as CustomerProfile;
    const ravi = await named('Ravi Kumar', '9812345678');
    const meera = await named('Meera Iyer', '9812300001');
    const typed = async (narration: string) => {
      const body = await ok(
        post('cashier', 'customers/update-points', {
          formData: {
            MOBILENO: meera.mobileno,
            POINTS: 10,
            INVDATE: TODAY,
            CASHCR: 'CR',
            NARRATION: narration,
          },
        }),
      );
      const [row] = await ctx.sql<{ mrn: number }>(
        `SELECT mrn::int AS mrn FROM points_entries WHERE customer_id = $1 AND narration = $2`,
        [meera.custid, narration],
      );
      expect(body.success).toBe(true);
      return row!.mrn;
    };
    const narrations = {
      referred: 'Referred by Ravi Kumar, 98123 45678',
      call: 'Call +91-98123-45678 for pickup',
      shouted: 'RAVI  KUMAR paid',
      plain: 'Gift 09812345678 / 919812345678',
      // Not them: another number, a longer word, a longer number, and a name inside a word.
      others: 'Ravikumar jewels 9812345679, Ravi Kumaran, invoice 19812345678, Ravi',
    };
    const mrns = Object.fromEntries(
      await Promise.all(
        Object.entries(narrations).map(async ([key, text]) => [key, await typed(text)] as const),
      ),
    ) as Record<keyof typeof narrations, number>;
    // An entry edited to name him: the edit history keeps both sides.
    const edited = await typed('Festival gift');
    await ok(
      post('manager', 'customers/update-statement', {
        formData: {
          MRN: edited,
          MOBILENO: meera.mobileno,
          POINTS: 10,
          INVDATE: TODAY,
          CASHCR: 'CR',
          NARRATION: 'Festival gift from Ravi Kumar',
        },
      }),
    );
    // Meera's scheme: an installment paid by his UPI id, and one whose narration names him.
    const { schemeid } = (
      await ok(
        post('owner', 'scheme/generate', {
          custid: meera.custid,
          mobileno: meera.mobileno,
          custname: meera.custname,
          startdt: '2026-06-10',
          amount: 2000,
        }),
      )
    ).data as { schemeid: number };
    await ok(
      post('cashier', 'scheme/activate', {
        schemeid,
        date: '2026-06-10',
        mode: 'upi',
        reference: '9812345678@ybl',
      }),
    );
    await ok(
      post('cashier', 'scheme/add-installment', {
        schemeid,
        date: TODAY,
        mode: 'cash',
        narration: 'Paid by ravi kumar for Meera',
        advance: true,
      }),
    );

    await ok(erase('owner', ravi.custid));

    const narrationOf = async (mrn: number) =>
      (
        await ctx.sql<{ narration: string }>(
          'SELECT narration FROM points_entries WHERE mrn = $1',
          [mrn],
        )
      )[0]!.narration;
    expect(await narrationOf(mrns.referred)).toBe('Referred by (erased), (erased)');
    expect(await narrationOf(mrns.call)).toBe('Call (erased) for pickup');
    expect(await narrationOf(mrns.shouted)).toBe('(erased) paid');
    expect(await narrationOf(mrns.plain)).toBe('Gift (erased) / (erased)');
    expect(await narrationOf(mrns.others)).toBe(narrations.others);
    expect(await narrationOf(edited)).toBe('Festival gift from (erased)');
    const history = await ctx.sql<{ before: string; after: string }>(
      `SELECT before ->> 'narration' AS before, after ->> 'narration' AS after
         FROM points_entry_history WHERE mrn = $1`,
      [edited],
    );
    expect(history).toEqual([{ before: 'Festival gift', after: 'Festival gift from (erased)' }]);
    expect(
      await ctx.sql(
        'SELECT mode, reference, narration FROM scheme_installments WHERE scheme_id = $1 ORDER BY id',
        [schemeid],
      ),
    ).toEqual([
      { mode: 'upi', reference: '(erased)@ybl', narration: '' },
      { mode: 'cash', reference: '', narration: 'Paid by (erased) for Meera' },
    ]);
    // The audit rows of Meera's entries and scheme no longer hold his name or number.
    const audits = JSON.stringify(
      await ctx.sql(
        `SELECT detail FROM audit_log
          WHERE (entity = 'points_entry' AND entity_id = ANY($1)) OR (entity = 'scheme' AND entity_id = $2)`,
        [[...Object.values(mrns), edited].map(String), String(schemeid)],
      ),
    );
    for (const mention of [
      'Ravi Kumar,',
      'RAVI  KUMAR',
      '98123 45678',
      '98123-45678',
      '9812345678@',
      'from Ravi Kumar',
    ])
      expect(audits).not.toContain(mention);
    expect(audits).toContain('Ravikumar jewels 9812345679');
    // Meera herself is untouched.
    expect((await customerRow(meera.custid)).custname).toBe('Meera Iyer');
    // The erasure's audit row counts the rows, and names nobody.
    const [audit] = await ctx.sql<{ detail: { namedInOtherRows: number } }>(
      `SELECT detail FROM audit_log WHERE action = 'customer.erase' AND entity_id = $1`,
      [String(ravi.custid)],
    );
    // 5 ledger rows, 1 history record, 2 installments, and the audit rows of 3 credits and an
    // edit that held the narration (the fourth credit's showed "(hidden)" already; the
    // installments' audit rows hold no narration).
    expect(audit!.detail.namedInOtherRows).toBe(5 + 1 + 2 + 4);
    expect(JSON.stringify(audit!.detail)).not.toMatch(/Ravi|98123/);
  });

  it('leaves everyday words alone when the erased customer is named by one of them', async () => {
    const gold = (
      await ok(
        post('cashier', 'customers/update-customer-data', {
          formData: { mobileno: '9812399999', custname: 'Gold', email: '', pan: '' },
        }),
      )
    ).data as CustomerProfile;
    const other = await enrol();
    await ok(
      post('cashier', 'customers/update-points', {
        formData: {
          MOBILENO: other.mobileno,
          POINTS: 5,
          INVDATE: TODAY,
          CASHCR: 'CR',
          NARRATION: 'Gold coin offer, ask Gold at 98123 99999',
        },
      }),
    );
    await ok(erase('owner', gold.custid));
    const [row] = await ctx.sql<{ narration: string }>(
      `SELECT narration FROM points_entries WHERE customer_id = $1 AND ts = 'M'`,
      [other.custid],
    );
    // The number goes; "Gold" stays, as it is also the trade's word.
    expect(row!.narration).toBe('Gold coin offer, ask Gold at (erased)');
  });

  it('is idempotent: erasing an erased customer changes nothing', async () => {
    const customer = await enrol();
    const first = await ok(erase('owner', customer.custid));
    const row = await customerRow(customer.custid);
    const second = await ok(erase('owner', customer.custid));
    expect(second.message).toBe(DATA_RIGHTS_MESSAGES.customerAlreadyErased);
    expect(second.data).toEqual({ ...first.data, alreadyErased: true });
    expect(await customerRow(customer.custid)).toEqual(row);
    const [{ n }] = (await ctx.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'customer.erase' AND entity_id = $1`,
      [String(customer.custid)],
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('is for the owner only', async () => {
    const customer = await enrol();
    refused(await erase('manager', customer.custid), 403, MESSAGES.notAllowed);
    refused(await erase('cashier', customer.custid), 403, MESSAGES.notAllowed);
    refused(await erase('owner', 0), 400);
    refused(await erase('owner', 'seven'), 400);
    refused(await erase('owner', 2_000_000_000), 404, MESSAGES.customerNotFound);
    expect((await customerRow(customer.custid)).erased_at).toBeNull();
  });

  it('stays consistent when an erasure and points entries for the same customer arrive together', async () => {
    for (let round = 0; round < 5; round++) {
      const customer = await enrol();
      await ok(credit('cashier', customer.mobileno, 100));
      const results = await Promise.all([
        credit('cashier', customer.mobileno, 50),
        erase('owner', customer.custid),
        credit('manager', customer.mobileno, 30, 'DB'),
        post('cashier', 'customers/update-customer-data', {
          formData: { custid: customer.custid, mobileno: customer.mobileno, custname: 'Renamed' },
        }),
      ]);
      expect(results[1]!.statusCode, results[1]!.body).toBe(200);
      for (const index of [0, 2, 3]) expect([200, 404]).toContain(results[index]!.statusCode);
      const row = await customerRow(customer.custid);
      expect(row.custname).toBe(ERASED_CUSTOMER_NAME);
      expect(row.mobileno).toBeNull();
      const [sum] = await ctx.sql<{ total: string }>(
        `SELECT coalesce(sum(credit - debit), 0)::text AS total FROM points_entries WHERE customer_id = $1`,
        [customer.custid],
      );
      expect(String(row.points_balance)).toBe(sum!.total);
    }
  });

  it('leaves a points entry that waited for the erasure finding no customer by that number', async () => {
    const customer = await enrol();
    await ok(credit('cashier', customer.mobileno, 100));
    const lockWaits = async () =>
      (
        await ctx.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      )[0]!.n;
    const until = async (waits: number) => {
      for (let tries = 0; (await lockWaits()) < waits; tries++) {
        if (tries > 200) throw new Error(`waited in vain for ${waits} lock waits`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    // The customers row held elsewhere: the erasure, holding the points account, waits for it;
    // the entry, typed by the number before the erasure, waits for the account.
    const holder = await ctx.database.pool.connect();
    let erasing: Promise<LightMyRequestResponse>;
    let crediting: Promise<LightMyRequestResponse>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customer.custid]);
      erasing = erase('owner', customer.custid);
      await until(1);
      crediting = credit('cashier', customer.mobileno, 50);
      await until(2);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect((await erasing).statusCode).toBe(200);
    refused(await crediting, 404, MESSAGES.customerNotFound);
    expect((await customerRow(customer.custid)).points_balance).toBe(100);
    expect((await ledgerOf(customer.custid)).map((entry) => entry.credit)).toEqual([100]);
  });
});
