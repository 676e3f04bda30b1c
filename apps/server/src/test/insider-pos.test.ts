import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import pino from 'pino';
import {
  MESSAGES,
  POS_MESSAGES,
  posRedemptionRequest,
  posReturnRequest,
  posSaleRequest,
} from '@kanak/contract';
import {
  addUser,
  appOnDatabase,
  authed,
  createTestContext,
  login,
  pointsBalance,
  type TestContext,
} from '../../test/helpers.js';

/**
 * A counter's API key and a signed-in owner, tried as an insider would: replaying a cancelled
 * redemption, cancelling another till's redemption, reversing the stored document hashes,
 * rules that earn billions, a return before its sale, a mobile of zeros, and the request log.
 */

/** Today is 15 June 2025 in Kolkata. */
const now = new Date('2025-06-15T12:00:00+05:30');
let ctx: TestContext;
let owner: string;
let keyA: string;
let keyB: string;

const post = (url: string, payload: unknown, apiKey = keyA) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    headers: { 'x-api-key': apiKey },
  });
const ownerPost = (url: string, payload: unknown) =>
  ctx.app.inject(authed(owner, { method: 'POST', url, payload: payload as object }));

const line = (amount: number, category = 'gold') => ({ description: 'Ring', category, amount });

const balanceOf = async (mobile: string) => (await pointsBalance(ctx, mobile))!;
const count = async (table: string) =>
  (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
/** Every row of the tables a POS call writes, to show that a refusal wrote none. */
const footprint = async () => ({
  sales: await count('pos_sales'),
  returns: await count('pos_returns'),
  redemptions: await count('pos_redemptions'),
  ledger: await count('points_entries'),
  lots: await count('points_lots'),
  customers: await count('customers'),
  audit: await count('audit_log'),
});

/** A customer with `points` points (default rules: ₹100 a point), by a sale with key A. */
async function customerWithPoints(invoiceNo: string, mobile: string, points: number) {
  const response = await post('/api/pos/sales', {
    invoiceNo,
    invoiceDate: '2025-06-10',
    mobile,
    name: 'Meera Iyer',
    lines: [line(points * 100)],
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().data.points).toBe(points);
}

async function makeKey(label: string) {
  const response = await ownerPost('/api/settings/api-keys', { label, branch: 'MAIN' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { key: string } }>().data.key;
}

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  await addUser(ctx, 'owner1', 'Owner@19281');
  owner = await login(ctx, 'owner1', 'Owner@19281');
  // Two tills of the same branch.
  keyA = await makeKey('Till A');
  keyB = await makeKey('Till B');
});
afterAll(() => ctx.close());

describe('a cancelled POS redemption', () => {
  it('sent again is refused with 409 and takes nothing, whatever its contents', async () => {
    const mobile = '9811100001';
    await customerWithPoints('CX-SALE-1', mobile, 2000);
    const redemption = { invoiceNo: 'T-1', mobile, points: 1000 };
    const first = await post('/api/pos/redemptions', redemption);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ points: 1000, balance: 1000 });
    const cancelled = await post('/api/pos/redemptions/cancel', { invoiceNo: 'T-1' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await balanceOf(mobile)).toBe(2000);
    const before = await footprint();

    for (const again of [redemption, { ...redemption, points: 500 }]) {
      const response = await post('/api/pos/redemptions', again);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        message: POS_MESSAGES.redemptionCancelled,
      });
    }
    expect(POS_MESSAGES.redemptionCancelled).toBe('This redemption was cancelled.');
    expect(await balanceOf(mobile)).toBe(2000);
    expect(await footprint()).toEqual(before);
  });
});

describe("a counter's key", () => {
  it("cannot cancel another till's redemption, even in the same branch", async () => {
    const mobile = '9811100002';
    await customerWithPoints('CX-SALE-2', mobile, 1500);
    const made = await post('/api/pos/redemptions', { invoiceNo: 'T-2', mobile, points: 1000 });
    expect(made.statusCode, made.body).toBe(200);
    const before = await footprint();

    const other = await post('/api/pos/redemptions/cancel', { invoiceNo: 'T-2' }, keyB);
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json()).toEqual({
      success: false,
      message: POS_MESSAGES.redemptionOfOtherCounter,
    });
    expect(await balanceOf(mobile)).toBe(500);
    expect(await footprint()).toEqual(before);

    const own = await post('/api/pos/redemptions/cancel', { invoiceNo: 'T-2' }, keyA);
    expect(own.statusCode, own.body).toBe(200);
    expect(await balanceOf(mobile)).toBe(1500);
  });
});

describe('the stored fingerprints of POS documents', () => {
  /** The old fingerprint: SHA-256 of the parsed document, as an attacker would recompute it. */
  const sha256Of = (value: unknown) =>
    createHash('sha256').update(JSON.stringify(value)).digest('hex');

  it('are keyed: trying mobile numbers against a database dump finds none', async () => {
    const mobile = '9811100003';
    const saleBody = {
      invoiceNo: 'HX-1',
      invoiceDate: '2025-06-11',
      mobile,
      name: 'Kavya Nair',
      lines: [line(300_000)],
    };
    const saleAnswer = await post('/api/pos/sales', saleBody);
    expect(saleAnswer.statusCode, saleAnswer.body).toBe(200);
    const redemptionBody = { invoiceNo: 'HX-2', mobile, points: 1000 };
    const redeemed = await post('/api/pos/redemptions', redemptionBody);
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const returnBody = {
      returnNo: 'HX-R1',
      invoiceNo: 'HX-1',
      returnDate: '2025-06-12',
      lines: [line(10_000)],
    };
    const returned = await post('/api/pos/returns', returnBody);
    expect(returned.statusCode, returned.body).toBe(200);

    const [sale] = await ctx.sql<{ h: string }>(
      `SELECT request_hash AS h FROM pos_sales WHERE invoice_no = 'HX-1'`,
    );
    const [redemption] = await ctx.sql<{ h: string }>(
      `SELECT request_hash AS h FROM pos_redemptions WHERE invoice_no = 'HX-2'`,
    );
    const [ret] = await ctx.sql<{ h: string }>(
      `SELECT request_hash AS h FROM pos_returns WHERE return_no = 'HX-R1'`,
    );
    // The attack: every candidate number put into the document, hashed, compared.
    const candidates = [mobile, '9811100000', '9811100004'];
    const saleGuesses = candidates.map((m) =>
      sha256Of(posSaleRequest.parse({ ...saleBody, mobile: m })),
    );
    const redemptionGuesses = candidates.map((m) =>
      sha256Of(posRedemptionRequest.parse({ ...redemptionBody, mobile: m })),
    );
    expect(sale!.h).toMatch(/^[0-9a-f]{64}$/);
    expect(saleGuesses).not.toContain(sale!.h);
    expect(redemptionGuesses).not.toContain(redemption!.h);
    expect(sha256Of(posReturnRequest.parse(returnBody))).not.toBe(ret!.h);
    for (const stored of [sale!.h, redemption!.h, ret!.h]) {
      expect(stored).not.toBe(createHash('sha256').update(mobile).digest('hex'));
    }

    // Still a fingerprint: the same document answers its first answer, other contents 409.
    const before = await footprint();
    const again = await post('/api/pos/sales', saleBody);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(saleAnswer.json().data);
    const redeemedAgain = await post('/api/pos/redemptions', redemptionBody);
    expect(redeemedAgain.json().data).toEqual(redeemed.json().data);
    const returnedAgain = await post('/api/pos/returns', returnBody);
    expect(returnedAgain.json().data).toEqual(returned.json().data);
    const clashes = [
      ['/api/pos/sales', { ...saleBody, mobile: '9811100004' }, POS_MESSAGES.invoiceConflict],
      [
        '/api/pos/redemptions',
        { ...redemptionBody, points: 1001 },
        POS_MESSAGES.redemptionConflict,
      ],
      ['/api/pos/returns', { ...returnBody, lines: [line(10_001)] }, POS_MESSAGES.returnConflict],
    ] as const;
    for (const [url, body, message] of clashes) {
      const clash = await post(url, body);
      expect(clash.statusCode, clash.body).toBe(409);
      expect(clash.json().message).toBe(message);
    }
    expect(await footprint()).toEqual(before);
  });
});

describe('the upgrade to keyed fingerprints', () => {
  it('empties the unkeyed hashes already stored; such a document sent again is 409', async () => {
    const body = {
      invoiceNo: 'OLD-1',
      invoiceDate: '2025-06-01',
      mobile: '9811100010',
      name: 'Old Sale',
      lines: [line(100)],
    };
    const unkeyed = createHash('sha256')
      .update(JSON.stringify(posSaleRequest.parse(body)))
      .digest('hex');
    await ctx.sql(
      `INSERT INTO pos_sales (branch_code, invoice_no, request_hash, invoice_date,
                              sale_amount_paise, eligible_paise, excluded_categories)
       VALUES ('MAIN', 'OLD-1', $1, '2025-06-01', 10000, 10000, '[]')`,
      [unkeyed],
    );
    const migration = await readFile(
      new URL('../../drizzle/0023_pos_keyed_document_hashes.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) await ctx.sql(statement);
    expect(await ctx.sql(`SELECT request_hash FROM pos_sales WHERE invoice_no = 'OLD-1'`)).toEqual([
      { request_hash: '' },
    ]);
    const again = await post('/api/pos/sales', body);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toBe(POS_MESSAGES.invoiceConflict);
  });
});

describe('points rules of a paisa a point', () => {
  it('refuse a sale of 3 × ₹1,00,00,000 with a clear 409, writing nothing', async () => {
    const rules = {
      rupeesPerPoint: 0.01,
      excludedCategories: [],
      pointValue: 1,
      minRedeemPoints: 0,
      expiryMonths: 0,
    };
    const saved = await ownerPost('/api/settings/points', rules);
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const before = await footprint();
      const attack = await post('/api/pos/sales', {
        invoiceNo: 'BIG-1',
        invoiceDate: '2025-06-15',
        mobile: '9811100005',
        name: 'Big Buyer',
        lines: [line(1_00_00_000), line(1_00_00_000), line(1_00_00_000)],
      });
      expect(attack.statusCode, attack.body).toBe(409);
      expect(attack.json()).toEqual({
        success: false,
        message: POS_MESSAGES.tooManyPointsForOneSale(3_000_000_000),
      });
      expect(await footprint()).toEqual(before);

      // The most one sale may give is still given.
      const most = await post('/api/pos/sales', {
        invoiceNo: 'BIG-2',
        invoiceDate: '2025-06-15',
        mobile: '9811100005',
        name: 'Big Buyer',
        lines: [line(99_999.99)],
      });
      expect(most.statusCode, most.body).toBe(200);
      expect(most.json().data.points).toBe(9_999_999);
    } finally {
      const restored = await ownerPost('/api/settings/points', {
        rupeesPerPoint: 100,
        excludedCategories: ['coin', 'bullion'],
        pointValue: 1,
        minRedeemPoints: 100,
        expiryMonths: 24,
      });
      expect(restored.statusCode, restored.body).toBe(200);
    }
  });
});

describe('a return dated before its invoice', () => {
  it('is refused with 400, taking no points', async () => {
    const mobile = '9811100006';
    await customerWithPoints('RB-1', mobile, 500);
    const before = await footprint();
    const response = await post('/api/pos/returns', {
      returnNo: 'RB-R1',
      invoiceNo: 'RB-1',
      returnDate: '2025-06-09',
      lines: [line(10_000)],
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      message: POS_MESSAGES.returnBeforeInvoice('2025-06-10'),
    });
    expect(await footprint()).toEqual(before);
    expect(await balanceOf(mobile)).toBe(500);

    // The same day as the invoice is a return.
    const sameDay = await post('/api/pos/returns', {
      returnNo: 'RB-R2',
      invoiceNo: 'RB-1',
      returnDate: '2025-06-10',
      lines: [line(10_000)],
    });
    expect(sameDay.statusCode, sameDay.body).toBe(200);
  });
});

describe('a mobile number that is not an Indian mobile', () => {
  const notMobiles = ['0000000000', '1234567890', '5999999999'];

  it('is refused at the counter, 400, nothing written', async () => {
    await customerWithPoints('NM-1', '9811100007', 500);
    const before = await footprint();
    for (const mobile of notMobiles) {
      const sale = await post('/api/pos/sales', {
        invoiceNo: `NM-${mobile}`,
        invoiceDate: '2025-06-15',
        mobile,
        name: 'Nobody',
        lines: [line(1000)],
      });
      expect(sale.statusCode, sale.body).toBe(400);
      expect(sale.json().message).toBe(MESSAGES.mobileNotIndian);
      const redemption = await post('/api/pos/redemptions', {
        invoiceNo: `NMR-${mobile}`,
        mobile,
        points: 100,
      });
      expect(redemption.statusCode, redemption.body).toBe(400);
      expect(redemption.json().message).toBe(MESSAGES.mobileNotIndian);
      const lookup = await ctx.app.inject({
        method: 'GET',
        url: `/api/pos/customers/${mobile}`,
        headers: { 'x-api-key': keyA },
      });
      expect(lookup.statusCode, lookup.body).toBe(400);
      expect(lookup.json().message).toBe(
        'Mobile no. must be 10 digits starting with 6, 7, 8 or 9.',
      );
    }
    expect(await footprint()).toEqual(before);
  });

  it('is refused by the staff screens that save or act on a customer', async () => {
    const before = await footprint();
    for (const mobile of notMobiles) {
      const saved = await ownerPost('/api/customers/update-customer-data', {
        formData: { custid: null, mobileno: mobile, custname: 'Nobody' },
      });
      expect(saved.statusCode, saved.body).toBe(400);
      expect(saved.json().message).toBe(MESSAGES.mobileNotIndian);
      const credited = await ownerPost('/api/customers/update-points', {
        formData: { MOBILENO: mobile, POINTS: 10, INVDATE: '2025-06-15', CASHCR: 'CR' },
      });
      expect(credited.statusCode, credited.body).toBe(400);
      expect(credited.json().message).toBe(MESSAGES.mobileNotIndian);
    }
    expect(await footprint()).toEqual(before);
  });

  it('already on file can still be found by it and corrected; search by digits still works', async () => {
    const [legacy] = await ctx.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ('0123456789', 'Old Record') RETURNING id`,
    );
    const found = await ownerPost('/api/customers/get-customer-data', { mobileno: '0123456789' });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data).toMatchObject({ custid: legacy!.id, custname: 'Old Record' });
    const corrected = await ownerPost('/api/customers/update-customer-data', {
      formData: { custid: legacy!.id, mobileno: '9811100099', custname: 'Old Record' },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const search = await ctx.app.inject(
      authed(owner, { method: 'GET', url: '/api/customers/get-all-customers?search=981110009' }),
    );
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().data).toEqual([{ CUSTNAME: 'Old Record', MOBILENO: '9811100099' }]);
  });
});

describe('the request log', () => {
  it("names a counter's lookup by its route, never by the customer's mobile number", async () => {
    const mobile = '9811100008';
    await customerWithPoints('LOG-1', mobile, 300);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await appOnDatabase(ctx.database, {}, () => now, pino({ level: 'trace' }, sink));
    try {
      const lookup = await app.inject({
        method: 'GET',
        url: `/api/pos/customers/${mobile}`,
        headers: { 'x-api-key': keyA },
      });
      expect(lookup.statusCode, lookup.body).toBe(200);
      // Refused and misspelt lookups too: a bad key, a wrong address, a query string.
      const refused = await app.inject({
        method: 'GET',
        url: `/api/pos/customers/${mobile}`,
        headers: { 'x-api-key': `kk_${'x'.repeat(43)}` },
      });
      expect(refused.statusCode).toBe(401);
      const misspelt = await app.inject({
        method: 'GET',
        url: `/api/pos/customer/${mobile}?${mobile}=${mobile}`,
        headers: { 'x-api-key': keyA },
      });
      expect(misspelt.statusCode).toBe(404);
      const wrongType = await app.inject({
        method: 'POST',
        url: `/api/pos/customer/${mobile}`,
        headers: { 'x-api-key': keyA, 'content-type': 'text/plain' },
        payload: mobile,
      });
      expect(wrongType.statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await app.close();
    }
    const log = lines.join('');
    expect(log).toContain('/api/pos/customers/:mobile');
    expect(log).not.toContain(mobile);
    expect(log).not.toContain(mobile.slice(2));
  });
});
