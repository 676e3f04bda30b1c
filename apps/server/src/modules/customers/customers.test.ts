import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  CUSTOMER_EXPORT_COLUMNS,
  CUSTOMER_EXPORT_HEADERS,
  MESSAGES,
  passesVerhoeff,
  type CustomerFormInput,
  type CustomerRecord,
} from '@kanak/contract';
import { createFieldCipher } from '../../lib/crypto.js';
import { TEST_SECRETS, signedIn, type SignedIn } from '../../../test/helpers.js';

/** "Now" for the app: 15 June 2025, noon in Kolkata. Tests move it where they need to. */
let now = new Date('2025-06-15T12:00:00+05:30');
let ctx: SignedIn;
let staffId: number;

/** Every response body of this file, to prove no full Aadhaar number ever leaves the server. */
const bodies: string[] = [];

beforeAll(async () => {
  ctx = await signedIn('owner', { clock: () => now, username: 'kavya' });
  [{ id: staffId }] = (await ctx.sql<{ id: number }>(
    `SELECT id FROM users WHERE username = 'kavya'`,
  )) as [{ id: number }];
});
afterAll(() => ctx.close());

async function call(options: InjectOptions & { idempotencyKey?: string }) {
  const response = await ctx.inject(options);
  bodies.push(response.body);
  return response;
}

const save = (
  formData: Partial<CustomerFormInput> & Record<string, unknown>,
  idempotencyKey?: string,
) =>
  call({
    method: 'POST',
    url: '/api/customers/update-customer-data',
    payload: { formData },
    idempotencyKey,
  });
const getData = (mobileno: unknown) =>
  call({ method: 'POST', url: '/api/customers/get-customer-data', payload: { mobileno } });
const search = (text?: string) =>
  call({
    method: 'GET',
    url: '/api/customers/get-all-customers',
    ...(text === undefined ? {} : { query: { search: text } }),
  });
const exportJson = () => call({ method: 'GET', url: '/api/customers/download-customer-data' });
const exportCsv = () =>
  call({ method: 'GET', url: '/api/customers/download-customer-data?format=csv' });

const record = (response: LightMyRequestResponse) => response.json<{ data: CustomerRecord }>().data;
const names = (response: LightMyRequestResponse) =>
  response.json<{ data: { CUSTNAME: string }[] }>().data.map((row) => row.CUSTNAME);
const mobiles = (response: LightMyRequestResponse) =>
  response.json<{ data: { MOBILENO: string }[] }>().data.map((row) => row.MOBILENO);

/** The whole customers table and the audit log, to show a refused request changed nothing. */
async function snapshot() {
  const [row] = await ctx.sql(`
    SELECT (SELECT count(*)::int FROM customers) AS customers,
           (SELECT md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM customers c) AS digest,
           (SELECT count(*)::int FROM audit_log) AS audits`);
  return row;
}

async function storedAadhaar(custid: number) {
  const [row] = await ctx.sql<{ aadhaar_sealed: string | null; aadhaar_last4: string | null }>(
    `SELECT aadhaar_sealed, aadhaar_last4 FROM customers WHERE id = $1`,
    [custid],
  );
  return row!;
}

/** The 12-digit number with this 11-digit prefix that passes the Verhoeff check. */
function aadhaarFrom(prefix: string) {
  const digit = [...'0123456789'].find((d) => passesVerhoeff(prefix + d))!;
  return prefix + digit;
}

/** A minimal RFC 4180 reader: quoted cells, doubled quotes, CRLF line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) throw new Error('CSV does not end with CRLF');
  return rows;
}

/** The rows of a CSV answer, which must start with the UTF-8 byte-order mark (for Excel). */
function csvRows(response: LightMyRequestResponse): string[][] {
  expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(response.rawPayload.subarray(3).toString('utf8'));
}

const AADHAAR_1 = '234123412346';
const AADHAAR_2 = aadhaarFrom('49913456789');
const AADHAAR_3 = aadhaarFrom('71846230519');
const spaced = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

describe('export with no customers', () => {
  it('answers the CSV export with 404 "No data found to export"', async () => {
    const response = await exportCsv();
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.noExportData });
  });

  it('answers the JSON export with an empty list', async () => {
    const response = await exportJson();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: [] });
  });
});

describe('POST /api/customers/update-customer-data: create and update', () => {
  let custid: number;

  it('creates a customer when there is no custid, with an audit row', async () => {
    const response = await save({
      custid: '',
      mobileno: '9870000001',
      custname: '  Priya Sharma ',
      email: 'priya@example.in',
      address: '12 MG Road',
      city: 'Pune',
      pincode: '411001',
      state: 'Maharashtra',
      dob: '1990-05-17',
      doa: '',
      aadhaar: '',
      pan: 'abcde1234f',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: MESSAGES.customerSaved });
    custid = body.data.custid;
    expect(body.data).toEqual({
      custid: expect.any(Number),
      mobileno: '9870000001',
      custname: 'Priya Sharma',
      email: 'priya@example.in',
      address: '12 MG Road',
      city: 'Pune',
      pincode: '411001',
      state: 'Maharashtra',
      dob: '1990-05-17',
      doa: '',
      aadhaar: '',
      pan: 'ABCDE1234F',
      points: 0,
      pointsValue: 0,
      pointsExpiringIn30Days: 0,
      // Enrolled by staff: no consent until it is recorded.
      consents: { transactional: false, marketing: false },
      consentHistory: [],
    });
    const [row] = await ctx.sql(
      `SELECT pan, doa, created_by, updated_by FROM customers WHERE id = $1`,
      [custid],
    );
    expect(row).toEqual({ pan: 'ABCDE1234F', doa: null, created_by: staffId, updated_by: staffId });
    const audits = await ctx.sql(
      `SELECT user_id, action, entity, entity_id FROM audit_log WHERE entity = 'customer' AND entity_id = $1`,
      [String(custid)],
    );
    expect(audits).toEqual([
      {
        user_id: staffId,
        action: 'customer.create',
        entity: 'customer',
        entity_id: String(custid),
      },
    ]);
  });

  it('accepts a missing custid and a null custid as "create"', async () => {
    const a = await save({ mobileno: '9870000002', custname: 'Anil Rao' });
    const b = await save({ custid: null, mobileno: '9870000003', custname: 'Bina Rao' });
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(record(a).custid).not.toBe(record(b).custid);
    expect(record(a)).toMatchObject({ email: '', dob: '', doa: '', aadhaar: '', pan: '' });
  });

  it('updates the customer with that custid and audits the changed fields', async () => {
    const auditsBefore = await ctx.sql(`SELECT id FROM audit_log`);
    const response = await save({
      custid: String(custid),
      mobileno: '9870000001',
      custname: 'Priya S. Sharma',
      email: 'priya@example.in',
      address: '12 MG Road',
      city: 'Mumbai',
      pincode: '400001',
      state: 'Maharashtra',
      dob: '1990-05-17',
      doa: '2015-02-14',
      pan: 'ABCDE1234F',
    });
    expect(response.statusCode).toBe(200);
    expect(record(response)).toMatchObject({
      custid,
      custname: 'Priya S. Sharma',
      city: 'Mumbai',
      pincode: '400001',
      doa: '2015-02-14',
    });
    expect(record(await getData('9870000001'))).toEqual(record(response));
    expect(
      await ctx.sql(`SELECT count(*)::int AS n FROM customers WHERE mobileno = '9870000001'`),
    ).toEqual([{ n: 1 }]);
    const audits = await ctx.sql<{
      action: string;
      detail: { after: Record<string, unknown> };
      user_id: number;
    }>(`SELECT action, detail, user_id FROM audit_log WHERE id > $1`, [
      Math.max(0, ...auditsBefore.map((a) => Number(a.id))),
    ]);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.action).toBe('customer.update');
    expect(audits[0]!.user_id).toBe(staffId);
    expect(Object.keys(audits[0]!.detail.after).sort()).toEqual([
      'city',
      'custname',
      'doa',
      'pincode',
    ]);
  });

  it('lets a customer change to a free mobile number', async () => {
    const created = record(await save({ mobileno: '9870000004', custname: 'Chetan' }));
    const response = await save({
      custid: created.custid,
      mobileno: '9870000005',
      custname: 'Chetan',
    });
    expect(response.statusCode).toBe(200);
    expect((await getData('9870000004')).statusCode).toBe(404);
    expect(record(await getData('9870000005')).custid).toBe(created.custid);
  });

  it('stores the dates "" and 1900-01-01 as NULL and returns them as ""', async () => {
    const response = await save({
      mobileno: '9870000006',
      custname: 'Sentinel Dates',
      dob: '1900-01-01',
      doa: '',
    });
    expect(response.statusCode).toBe(200);
    expect(record(response)).toMatchObject({ dob: '', doa: '' });
    const { custid: id } = record(response);
    expect(await ctx.sql(`SELECT dob, doa FROM customers WHERE id = $1`, [id])).toEqual([
      { dob: null, doa: null },
    ]);
    // A real date, then the sentinel again: the date is cleared.
    await save({
      custid: id,
      mobileno: '9870000006',
      custname: 'Sentinel Dates',
      dob: '1985-01-01',
      doa: '2010-12-12',
    });
    await save({
      custid: id,
      mobileno: '9870000006',
      custname: 'Sentinel Dates',
      dob: '',
      doa: '1900-01-01',
    });
    expect(await ctx.sql(`SELECT dob, doa FROM customers WHERE id = $1`, [id])).toEqual([
      { dob: null, doa: null },
    ]);
    expect(record(await getData('9870000006'))).toMatchObject({ dob: '', doa: '' });
  });

  it('accepts a Date of Birth of today in the store time zone', async () => {
    now = new Date('2025-06-15T20:00:00Z'); // 16 June, 01:30 in Kolkata
    try {
      const response = await save({
        mobileno: '9870000007',
        custname: 'Born Today',
        dob: '2025-06-16',
      });
      expect(response.statusCode).toBe(200);
      expect(record(response).dob).toBe('2025-06-16');
    } finally {
      now = new Date('2025-06-15T12:00:00+05:30');
    }
  });

  it('honours the Idempotency-Key: the same save twice creates one customer', async () => {
    const key = 'customer-save-key-0001';
    const form = { mobileno: '9870000008', custname: 'Twice Sent' };
    const first = await save(form, key);
    const second = await save(form, key);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(await ctx.sql(`SELECT id FROM customers WHERE mobileno = '9870000008'`)).toHaveLength(1);
    expect(
      await ctx.sql(
        `SELECT id FROM audit_log WHERE action = 'customer.create' AND entity_id = $1`,
        [String(record(first).custid)],
      ),
    ).toHaveLength(1);
  });
});

describe('update-customer-data: every refusal is a 4xx with its message and changes nothing', () => {
  const valid = { mobileno: '9123400001', custname: 'Valid Person' };
  let other: CustomerRecord;
  beforeAll(async () => {
    other = record(await save({ mobileno: '9123400002', custname: 'Someone Else' }));
  });

  const longText = (n: number) => 'a'.repeat(n);
  const cases: [string, Record<string, unknown>, number, string][] = [
    ['missing mobile', { custname: 'X' }, 400, MESSAGES.enterMobile],
    ['empty mobile', { ...valid, mobileno: '' }, 400, MESSAGES.enterMobile],
    ['blank mobile', { ...valid, mobileno: '   ' }, 400, MESSAGES.enterMobile],
    ['9-digit mobile', { ...valid, mobileno: '912340000' }, 400, MESSAGES.mobileLength],
    ['11-digit mobile', { ...valid, mobileno: '91234000011' }, 400, MESSAGES.mobileLength],
    ['mobile with letters', { ...valid, mobileno: '91234abcde' }, 400, MESSAGES.mobileLength],
    ['mobile with +91', { ...valid, mobileno: '+919123400' }, 400, MESSAGES.mobileLength],
    ['missing name', { mobileno: valid.mobileno }, 400, MESSAGES.enterName],
    ['empty name', { ...valid, custname: '' }, 400, MESSAGES.enterName],
    ['blank name', { ...valid, custname: '    ' }, 400, MESSAGES.enterName],
    [
      'name over 100',
      { ...valid, custname: longText(101) },
      400,
      'Name must be at most 100 characters.',
    ],
    [
      'bad email',
      { ...valid, email: 'priya.example.in' },
      400,
      'Email must be a valid email address, or empty.',
    ],
    [
      'email without domain',
      { ...valid, email: 'priya@' },
      400,
      'Email must be a valid email address, or empty.',
    ],
    ['5-digit pincode', { ...valid, pincode: '41100' }, 400, 'Pincode must be 6 digits, or empty.'],
    [
      'pincode with a letter',
      { ...valid, pincode: '41100A' },
      400,
      'Pincode must be 6 digits, or empty.',
    ],
    ['DOB tomorrow', { ...valid, dob: '2025-06-16' }, 400, MESSAGES.dobInFuture],
    ['DOB next year', { ...valid, dob: '2026-01-01' }, 400, MESSAGES.dobInFuture],
    [
      'impossible DOB',
      { ...valid, dob: '2025-02-30' },
      400,
      'Date of Birth must be a real date in YYYY-MM-DD format.',
    ],
    [
      'DOB as DD/MM/YYYY',
      { ...valid, dob: '17/05/1990' },
      400,
      'Date of Birth must be a real date in YYYY-MM-DD format.',
    ],
    [
      'impossible anniversary',
      { ...valid, doa: '2023-13-01' },
      400,
      'Anniversary Date must be a real date in YYYY-MM-DD format.',
    ],
    [
      'PAN with 5 digits',
      { ...valid, pan: 'ABCDE12345' },
      400,
      'PAN must be 5 letters, 4 digits and a letter (like ABCDE1234F), or empty.',
    ],
    [
      'PAN too short',
      { ...valid, pan: 'ABCD1234F' },
      400,
      'PAN must be 5 letters, 4 digits and a letter (like ABCDE1234F), or empty.',
    ],
    ['11-digit Aadhaar', { ...valid, aadhaar: '23412341234' }, 400, MESSAGES.aadhaarDigits],
    ['13-digit Aadhaar', { ...valid, aadhaar: '2341234123467' }, 400, MESSAGES.aadhaarDigits],
    [
      'Aadhaar failing Verhoeff',
      { ...valid, aadhaar: '234123412345' },
      400,
      MESSAGES.aadhaarInvalid,
    ],
    [
      'Aadhaar with a transposition',
      { ...valid, aadhaar: '234123412364' },
      400,
      MESSAGES.aadhaarInvalid,
    ],
    ['Aadhaar with letters', { ...valid, aadhaar: '2341ABCD2346' }, 400, MESSAGES.aadhaarDigits],
    [
      'masked Aadhaar for a new customer',
      { ...valid, aadhaar: 'XXXXXXXX2346' },
      400,
      MESSAGES.aadhaarDigits,
    ],
    ['duplicate mobile on create', { ...valid, mobileno: '9123400002' }, 409, MESSAGES.mobileTaken],
    ['unknown custid', { ...valid, custid: 987654 }, 404, MESSAGES.customerNotFound],
    [
      'custid beyond any id',
      { ...valid, custid: 99_999_999_999 },
      400,
      'Choose the customer again: the customer number sent is not valid.',
    ],
    [
      'custid that is not a number',
      { ...valid, custid: 'abc' },
      400,
      'Choose the customer again: the customer number sent is not valid.',
    ],
    [
      'negative custid',
      { ...valid, custid: -3 },
      400,
      'Choose the customer again: the customer number sent is not valid.',
    ],
  ];

  it.each(cases)('%s', async (_label, formData, status, message) => {
    const before = await snapshot();
    const response = await save(formData);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ success: false, message });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to move a customer onto another customer’s mobile (409), changing nothing', async () => {
    const mine = record(await save({ mobileno: '9123400003', custname: 'Mine' }));
    const before = await snapshot();
    const response = await save({
      custid: mine.custid,
      mobileno: other.mobileno,
      custname: 'Mine',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.mobileTaken });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a body without formData', async () => {
    const before = await snapshot();
    const response = await call({
      method: 'POST',
      url: '/api/customers/update-customer-data',
      payload: valid,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  it('needs a token and an Idempotency-Key', async () => {
    const before = await snapshot();
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/customers/update-customer-data',
      headers: { 'idempotency-key': 'anonymous-key-0001' },
      payload: { formData: valid },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ success: false, message: MESSAGES.sessionExpired });
    const keyless = await ctx.app.inject({
      method: 'POST',
      url: '/api/customers/update-customer-data',
      headers: { authorization: `Bearer ${ctx.token}` },
      payload: { formData: valid },
    });
    expect(keyless.statusCode).toBe(400);
    expect(keyless.json().message).toBe(MESSAGES.idempotencyKeyRequired);
    expect(await snapshot()).toEqual(before);
  });

  it('accepts the valid form used above (so the refusals were about their one field)', async () => {
    const response = await save({ ...valid, pincode: '', email: '', pan: '', aadhaar: '' });
    expect(response.statusCode).toBe(200);
  });
});

describe('Aadhaar', () => {
  let custid: number;
  const mobileno = '9000000001';

  it('accepts a valid number typed with spaces, stores it encrypted and shows XXXXXXXX + last 4', async () => {
    const response = await save({
      mobileno,
      custname: 'Aadhaar Holder',
      aadhaar: spaced(AADHAAR_1),
    });
    expect(response.statusCode).toBe(200);
    custid = record(response).custid;
    expect(record(response).aadhaar).toBe('XXXXXXXX2346');
    const stored = await storedAadhaar(custid);
    expect(stored.aadhaar_last4).toBe('2346');
    expect(stored.aadhaar_sealed).not.toContain(AADHAAR_1);
    expect(stored.aadhaar_sealed).not.toContain('2341');
    expect(createFieldCipher(TEST_SECRETS.dataKey).decrypt(stored.aadhaar_sealed!)).toBe(AADHAAR_1);
    expect(record(await getData(mobileno)).aadhaar).toBe('XXXXXXXX2346');
  });

  it('keeps the stored number when the masked value is saved back', async () => {
    const before = await storedAadhaar(custid);
    const current = record(await getData(mobileno));
    const response = await save({ ...current, city: 'Nagpur' });
    expect(response.statusCode).toBe(200);
    expect(record(response)).toMatchObject({ aadhaar: 'XXXXXXXX2346', city: 'Nagpur' });
    expect(await storedAadhaar(custid)).toEqual(before);
    const [audit] = await ctx.sql<{ detail: { after: Record<string, unknown> } }>(
      `SELECT detail FROM audit_log WHERE action = 'customer.update' AND entity_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(custid)],
    );
    expect(Object.keys(audit!.detail.after)).toEqual(['city']);
  });

  it('refuses a masked value whose last 4 digits are not the stored ones', async () => {
    const before = await snapshot();
    const response = await save({
      custid,
      mobileno,
      custname: 'Aadhaar Holder',
      aadhaar: 'XXXXXXXX9999',
    });
    expect(response.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('replaces the stored number when a new one is typed', async () => {
    const before = await storedAadhaar(custid);
    const current = record(await getData(mobileno));
    const response = await save({ ...current, aadhaar: AADHAAR_2 });
    expect(response.statusCode).toBe(200);
    expect(record(response).aadhaar).toBe(`XXXXXXXX${AADHAAR_2.slice(-4)}`);
    const after = await storedAadhaar(custid);
    expect(after.aadhaar_sealed).not.toBe(before.aadhaar_sealed);
    expect(after.aadhaar_last4).toBe(AADHAAR_2.slice(-4));
    expect(createFieldCipher(TEST_SECRETS.dataKey).decrypt(after.aadhaar_sealed!)).toBe(AADHAAR_2);
    const [audit] = await ctx.sql<{ detail: { after: Record<string, unknown> } }>(
      `SELECT detail FROM audit_log WHERE action = 'customer.update' AND entity_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(custid)],
    );
    expect(audit!.detail.after).toEqual({ aadhaar: '(hidden)' });
  });

  it('re-seals the same number typed again (a fresh IV, same digits)', async () => {
    const before = await storedAadhaar(custid);
    await save({ custid, mobileno, custname: 'Aadhaar Holder', aadhaar: AADHAAR_2 });
    const after = await storedAadhaar(custid);
    expect(after.aadhaar_last4).toBe(before.aadhaar_last4);
    expect(createFieldCipher(TEST_SECRETS.dataKey).decrypt(after.aadhaar_sealed!)).toBe(AADHAAR_2);
  });

  it('clears the number when the field is emptied', async () => {
    const response = await save({ custid, mobileno, custname: 'Aadhaar Holder', aadhaar: '' });
    expect(response.statusCode).toBe(200);
    expect(record(response).aadhaar).toBe('');
    expect(await storedAadhaar(custid)).toEqual({ aadhaar_sealed: null, aadhaar_last4: null });
    // With nothing stored, a masked value is meaningless.
    const masked = await save({
      custid,
      mobileno,
      custname: 'Aadhaar Holder',
      aadhaar: 'XXXXXXXX2346',
    });
    expect(masked.statusCode).toBe(400);
  });

  it('keeps the full number out of the audit log', async () => {
    await save({ mobileno: '9000000002', custname: 'Third Aadhaar', aadhaar: AADHAAR_3 });
    const rows = await ctx.sql<{ text: string }>(
      `SELECT coalesce(detail::text, '') AS text FROM audit_log`,
    );
    for (const { text } of rows) {
      for (const number of [AADHAAR_1, AADHAAR_2, AADHAAR_3]) expect(text).not.toContain(number);
    }
  });
});

describe('GET /api/customers/get-all-customers?search=', () => {
  beforeAll(async () => {
    const people: [string, string][] = [
      ['9876543210', 'Mahesh Patil'],
      ['9123498765', 'RAMESH'],
      ['9876512345', 'Esha Gupta'],
      ['9988776655', 'Anita Desai'],
      ['9811111111', 'Rakesh Jain'],
      ['9822222222', 'Kiran Rao'],
      ['9833333333', '50% Off Traders'],
      ['9844444444', '5000 Gold House'],
      ['9855555555', 'A_B Jewellers'],
      ['9866666666', 'AxB Jewellers'],
    ];
    for (const [mobileno, custname] of people) {
      expect((await save({ mobileno, custname })).statusCode).toBe(200);
    }
    await ctx.sql(
      `INSERT INTO customers (mobileno, custname)
       SELECT '97000000' || lpad(n::text, 2, '0'), 'Kumar ' || n FROM generate_series(1, 25) AS n`,
    );
  });

  it('finds mobile numbers starting with the digits, not containing them', async () => {
    const response = await search('98765');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: [
        { CUSTNAME: 'Esha Gupta', MOBILENO: '9876512345' },
        { CUSTNAME: 'Mahesh Patil', MOBILENO: '9876543210' },
      ],
    });
    expect(mobiles(await search('9876543210'))).toEqual(['9876543210']);
    expect(mobiles(await search('12345'))).toEqual([]);
  });

  it('finds names containing the text, whatever the case', async () => {
    const found = names(await search('esh'));
    expect(found).toEqual(
      expect.arrayContaining(['Mahesh Patil', 'RAMESH', 'Esha Gupta', 'Rakesh Jain']),
    );
    expect(found).not.toContain('Anita Desai');
    expect(names(await search('ESH'))).toEqual(expect.arrayContaining(found));
    expect(names(await search('patil'))).toEqual(['Mahesh Patil']);
    expect(names(await search('  Patil  '))).toEqual(['Mahesh Patil']);
  });

  it('puts the best match first', async () => {
    expect(names(await search('ramesh'))[0]).toBe('RAMESH');
  });

  it('takes 1 or 2 letters as the start of the name', async () => {
    expect(names(await search('ra')).sort()).toEqual(['RAMESH', 'Rakesh Jain']);
    expect(names(await search('R')).sort()).toEqual(['RAMESH', 'Rakesh Jain']);
    expect(names(await search('ki'))).toEqual(['Kiran Rao']);
  });

  it('returns at most 20', async () => {
    expect(names(await search('kumar'))).toHaveLength(20);
    expect(names(await search('ku'))).toHaveLength(20);
    expect(mobiles(await search('97'))).toHaveLength(20);
    expect(mobiles(await search('97'))).toEqual(
      Array.from({ length: 20 }, (_, i) => `97000000${String(i + 1).padStart(2, '0')}`),
    );
  });

  it('treats % and _ as letters, not wildcards', async () => {
    expect(names(await search('50%'))).toEqual(['50% Off Traders']);
    expect(names(await search('a_b'))).toEqual(['A_B Jewellers']);
    expect(names(await search('%'))).toEqual([]);
    expect(names(await search('_'))).toEqual([]);
    expect(names(await search('%%%'))).toEqual([]);
    expect(names(await search('\\'))).toEqual([]);
  });

  it('answers an empty or missing search with no data', async () => {
    for (const text of ['', '   ', undefined]) {
      const response = await search(text);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, data: [] });
    }
  });

  it('refuses a search text over 100 characters', async () => {
    expect((await search('x'.repeat(101))).statusCode).toBe(400);
  });
});

describe('POST /api/customers/get-customer-data', () => {
  it('returns the spec fields for a known mobile', async () => {
    const response = await getData('9870000001');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, data: { mobileno: '9870000001' } });
    expect(Object.keys(record(response)).sort()).toEqual(
      [
        ...CUSTOMER_EXPORT_COLUMNS,
        'consents',
        'consentHistory',
        'pointsValue',
        'pointsExpiringIn30Days',
      ].sort(),
    );
  });

  it('answers an unknown mobile with 404 "Customer not found."', async () => {
    const response = await getData('9999999999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.customerNotFound });
  });

  it('refuses a mobile that is not 10 digits', async () => {
    const response = await getData('12345');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: MESSAGES.mobileLength });
  });
});

describe('GET /api/customers/download-customer-data', () => {
  const tricky: [string, string][] = [
    ['9555500001', '=HYPERLINK("#top","Click")'],
    ['9555500002', '+91 Trading'],
    ['9555500003', '@SUM(A1:A9)'],
    ['9555500004', '-5 Discount'],
    ['9555500005', 'Shah, "Ram" Kumar'],
  ];
  beforeAll(async () => {
    for (const [mobileno, custname] of tricky) {
      expect(
        (await save({ mobileno, custname: 'Tricky', address: 'Line 1\nLine 2, Town' })).statusCode,
      ).toBe(200);
      // Written as stored before names were checked: a web address is refused as a name now.
      await ctx.sql(`UPDATE customers SET custname = $1 WHERE mobileno = $2`, [custname, mobileno]);
    }
    // A name with a web address is withheld as a whole; any other field keeps its formula.
    await ctx.sql(`UPDATE customers SET city = $1 WHERE mobileno = '9555500001'`, [
      '=HYPERLINK("http://evil.example","Click")',
    ]);
    await save({ mobileno: '9555500006', custname: 'Export Aadhaar', aadhaar: spaced(AADHAAR_3) });
  });

  it('exports every customer as JSON with Aadhaar masked', async () => {
    const response = await exportJson();
    expect(response.statusCode).toBe(200);
    const body = response.json<{ success: boolean; data: CustomerRecord[] }>();
    expect(body.success).toBe(true);
    const [{ n }] = (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM customers`)) as [
      { n: number },
    ];
    expect(body.data).toHaveLength(n);
    expect(Object.keys(body.data[0]!).sort()).toEqual([...CUSTOMER_EXPORT_COLUMNS].sort());
    const holder = body.data.find((c) => c.mobileno === '9555500006')!;
    expect(holder.aadhaar).toBe(`XXXXXXXX${AADHAAR_3.slice(-4)}`);
    expect(body.data.find((c) => c.mobileno === '9870000001')).toMatchObject({
      custname: 'Priya S. Sharma',
      pan: 'ABCDE1234F',
      doa: '2015-02-14',
    });
  });

  it('exports CSV as customer_list.csv with a header row and one row per customer', async () => {
    const response = await exportCsv();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="customer_list.csv"',
    );
    const rows = csvRows(response);
    expect(rows[0]).toEqual(CUSTOMER_EXPORT_COLUMNS.map((c) => CUSTOMER_EXPORT_HEADERS[c]));
    const [{ n }] = (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM customers`)) as [
      { n: number },
    ];
    expect(rows).toHaveLength(n + 1);
    const column = (name: (typeof CUSTOMER_EXPORT_COLUMNS)[number]) =>
      CUSTOMER_EXPORT_COLUMNS.indexOf(name);
    const byMobile = new Map(rows.slice(1).map((row) => [row[column('mobileno')], row]));
    const priya = byMobile.get('9870000001')!;
    expect(priya[column('custname')]).toBe('Priya S. Sharma');
    expect(priya[column('dob')]).toBe('1990-05-17');
    expect(priya[column('pan')]).toBe('ABCDE1234F');
    expect(byMobile.get('9000000001')![column('dob')]).toBe('');
    expect(byMobile.get('9555500006')![column('aadhaar')]).toBe(`XXXXXXXX${AADHAAR_3.slice(-4)}`);
  });

  it('neutralises formula-like cells with a leading apostrophe and quotes commas, quotes and newlines', async () => {
    const response = await exportCsv();
    const column = (name: (typeof CUSTOMER_EXPORT_COLUMNS)[number]) =>
      CUSTOMER_EXPORT_COLUMNS.indexOf(name);
    const rows = new Map(csvRows(response).map((row) => [row[column('mobileno')], row]));
    expect(rows.get('9555500001')![column('custname')]).toBe(`'=HYPERLINK("#top","Click")`);
    expect(rows.get('9555500001')![column('city')]).toBe(
      `'=HYPERLINK("http://evil.example","Click")`,
    );
    expect(rows.get('9555500002')![column('custname')]).toBe(`'+91 Trading`);
    expect(rows.get('9555500003')![column('custname')]).toBe(`'@SUM(A1:A9)`);
    expect(rows.get('9555500004')![column('custname')]).toBe(`'-5 Discount`);
    expect(rows.get('9555500005')![column('custname')]).toBe('Shah, "Ram" Kumar');
    expect(rows.get('9555500005')![column('address')]).toBe('Line 1\nLine 2, Town');
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(response.body).toContain(`"Shah, ""Ram"" Kumar"`);
    // No raw cell starts with a formula character.
    for (const row of rows.values()) {
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('streams thousands of customers completely', async () => {
    await ctx.sql(
      `INSERT INTO customers (mobileno, custname, city)
       SELECT '96' || lpad(n::text, 8, '0'), 'Bulk ' || n, '=cmd' FROM generate_series(1, 2500) AS n`,
    );
    const rows = csvRows(await exportCsv());
    const [{ n }] = (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM customers`)) as [
      { n: number },
    ];
    expect(rows).toHaveLength(n + 1);
    const mobilesInCsv = new Set(rows.slice(1).map((row) => row[1]));
    expect(mobilesInCsv.size).toBe(n);
    expect(rows.at(-1)![CUSTOMER_EXPORT_COLUMNS.indexOf('city')]).toBe(`'=cmd`);
  });

  it('needs a token', async () => {
    for (const url of [
      '/api/customers/download-customer-data',
      '/api/customers/download-customer-data?format=csv',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('the full Aadhaar number never leaves the server', () => {
  it('appears in no response body of this file, JSON or CSV', async () => {
    await exportJson();
    await exportCsv();
    expect(bodies.length).toBeGreaterThan(50);
    for (const body of bodies) {
      for (const number of [AADHAAR_1, AADHAAR_2, AADHAAR_3]) {
        expect(body).not.toContain(number);
        expect(body).not.toContain(spaced(number));
      }
    }
  });

  it('nor in the stored idempotent responses', async () => {
    const rows = await ctx.sql<{ body: string }>(
      `SELECT coalesce(response_body, '') AS body FROM idempotency_keys`,
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const { body } of rows) {
      for (const number of [AADHAAR_1, AADHAAR_2, AADHAAR_3]) expect(body).not.toContain(number);
    }
  });
});
