import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_HIDDEN,
  CSV_BOM,
  LIMITS,
  MESSAGES,
  isValidAadhaar,
  type AuditEntry,
} from '@kanak/contract';
import {
  addUser,
  authed,
  createTestContext,
  login,
  type TestContext,
} from '../../../test/helpers.js';

let ctx: TestContext;
let owner: string;
let manager: string;
let cashier: string;

/** A 12-digit number that passes the Aadhaar checksum, starting with these 11 digits. */
const aadhaarFrom = (first11: string) =>
  [...'0123456789'].map((d) => first11 + d).find(isValidAadhaar)!;
const AADHAAR_1 = aadhaarFrom('23412341234');
const AADHAAR_2 = aadhaarFrom('56785678567');
const PAN_1 = 'ABCDE1234F';
const PAN_2 = 'PQRSX9876Z';
const PANEL_TOKEN = 'panel-secret-token-77';
const NEW_PASSWORD = 'Fresh@2026x';

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx, 'asha', 'Asha@1928x', 'owner');
  await addUser(ctx, 'mohan', 'Mohan@1928x', 'manager');
  await addUser(ctx, 'ravi', 'Ravi@1928xx', 'cashier');
  owner = await login(ctx, 'asha', 'Asha@1928x');
  manager = await login(ctx, 'mohan', 'Mohan@1928x');
  cashier = await login(ctx, 'ravi', 'Ravi@1928xx');
});
afterAll(() => ctx.close());

const post = async (token: string, url: string, payload: object) => {
  const response = await ctx.app.inject(
    authed(token, { method: 'POST', url: `/api${url}`, payload }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return response;
};
const audit = (token: string, query: Record<string, string> = {}) =>
  ctx.app.inject(authed(token, { method: 'GET', url: '/api/audit', query }));
const entries = async (query: Record<string, string> = {}) => {
  const response = await audit(owner, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: AuditEntry[]; total: number; totalCapped: boolean }>();
};

describe('the audit trail', () => {
  let secrets: string[];

  beforeAll(async () => {
    const form = { custid: null, mobileno: '9800011111', custname: 'Lakshmi Iyer' };
    const created = await post(owner, '/customers/update-customer-data', {
      formData: { ...form, aadhaar: AADHAAR_1, pan: PAN_1 },
    });
    const custid = created.json().data.custid as number;
    await post(manager, '/customers/update-customer-data', {
      formData: { ...form, custid, city: 'Madurai', aadhaar: AADHAAR_2, pan: PAN_2 },
    });
    await post(cashier, '/customers/update-points', {
      formData: { MOBILENO: form.mobileno, POINTS: 120, INVDATE: '2026-01-05', CASHCR: 'CR' },
    });
    await post(owner, '/scheme/update-pan', { custid, pan: 'LMNOP4321Q' });
    await post(owner, '/social/panel-setup', {
      formData: { instanceid: 'instance-9', token: PANEL_TOKEN, panel: 2, phone: '9876543210' },
    });
    const added = await post(owner, '/staff/add', {
      username: 'priya',
      name: 'Priya Raman',
      role: 'cashier',
    });
    const reset = await post(owner, '/staff/reset-password', { username: 'priya' });
    const changed = await post(manager, '/user/update-current-user', {
      username: 'mohan',
      oldpassword: 'Mohan@1928x',
      newpassword: NEW_PASSWORD,
    });
    manager = changed.json().accessToken as string;
    const hashes = await ctx.sql<{ password_hash: string }>(`SELECT password_hash FROM users`);
    const sealed = await ctx.sql<{ aadhaar_sealed: string }>(
      `SELECT aadhaar_sealed FROM customers WHERE aadhaar_sealed IS NOT NULL`,
    );
    secrets = [
      AADHAAR_1,
      AADHAAR_2,
      AADHAAR_1.slice(0, 8),
      PAN_1,
      PAN_2,
      'LMNOP4321Q',
      PANEL_TOKEN,
      NEW_PASSWORD,
      'Mohan@1928x',
      added.json().data.temporaryPassword,
      reset.json().data.temporaryPassword,
      owner,
      manager,
      ...hashes.map((row) => row.password_hash),
      ...sealed.map((row) => row.aadhaar_sealed),
    ];
  });

  it('shows every change with who made it, what it was and the values before and after, newest first', async () => {
    const { data, total, totalCapped } = await entries();
    expect(totalCapped).toBe(false);
    expect(total).toBe(data.length);
    expect(data.map((entry) => entry.action)).toEqual([
      'user.password',
      'staff.reset-password',
      'staff.add',
      'panel.create',
      'customer.pan',
      'points.credit',
      'customer.update',
      'customer.create',
      // The accounts made for this test by the users module.
      'user.add',
      'user.add',
      'user.add',
    ]);
    const update = data.find((entry) => entry.action === 'customer.update')!;
    expect(update).toMatchObject({
      username: 'mohan',
      name: 'mohan',
      branch: 'MAIN',
      entity: 'customer',
      mobile: '9800011111',
      before: { city: '', aadhaar: AUDIT_HIDDEN, pan: AUDIT_HIDDEN },
      after: { city: 'Madurai', aadhaar: AUDIT_HIDDEN, pan: AUDIT_HIDDEN },
    });
    expect(new Date(update.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const credit = data.find((entry) => entry.action === 'points.credit')!;
    expect(credit).toMatchObject({
      username: 'ravi',
      entity: 'points_entry',
      mobile: '9800011111',
      after: { credit: 120, debit: 0, balance: 120 },
    });
  });

  it('never shows an Aadhaar number, a PAN, a password, its hash, a token or a key', async () => {
    const json = (await audit(owner)).body;
    const csv = (await audit(owner, { format: 'csv' })).body;
    const stored = JSON.stringify(await ctx.sql(`SELECT * FROM audit_log`));
    for (const secret of secrets) {
      expect(json).not.toContain(secret);
      expect(csv).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  it('hides secrets when reading too, whoever wrote the row', async () => {
    await ctx.sql(
      `INSERT INTO audit_log (action, entity, entity_id, detail) VALUES ('legacy.edit', 'user', '1', $1)`,
      [
        JSON.stringify({
          from: { password_hash: 'scrypt$abc', aadhaar: AADHAAR_1 },
          to: { apiKey: 'key-123456', note: `PAN ${PAN_1}`, name: 'Asha' },
        }),
      ],
    );
    const { data } = await entries({ entity: 'user' });
    const legacy = data.find((entry) => entry.action === 'legacy.edit')!;
    expect(legacy.before).toEqual({ password_hash: AUDIT_HIDDEN, aadhaar: AUDIT_HIDDEN });
    expect(legacy.after).toEqual({ apiKey: AUDIT_HIDDEN, note: AUDIT_HIDDEN, name: 'Asha' });
    await ctx.sql(`DELETE FROM audit_log WHERE action = 'legacy.edit'`);
  });

  it('filters by staff member, entity, customer mobile and store dates', async () => {
    const byManager = await entries({ user: 'MOHAN' });
    expect(byManager.data.map((entry) => entry.action)).toEqual([
      'user.password',
      'customer.update',
    ]);
    expect(byManager.total).toBe(2);
    expect((await entries({ entity: 'panel_config' })).data).toHaveLength(1);
    const customer = await entries({ mobile: '9800011111' });
    expect(customer.data.map((entry) => entry.action).sort()).toEqual(
      ['customer.create', 'customer.pan', 'customer.update', 'points.credit'].sort(),
    );
    expect((await entries({ user: 'nobody' })).total).toBe(0);
    expect((await entries({ from: '2020-01-01', to: '2020-12-31' })).total).toBe(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    expect((await entries({ from: today, to: today })).total).toBe(11);
    // Empty filters mean "any".
    expect((await entries({ user: '', entity: '', mobile: '', from: '', to: '' })).total).toBe(11);
  });

  it('pages by the contract page size and counts up to its cap', async () => {
    await ctx.sql(
      `INSERT INTO audit_log (action, entity, entity_id, at)
       SELECT 'bulk.note', 'branch', g::text, now() - interval '1 day' - g * interval '1 second'
       FROM generate_series(1, $1::integer) g`,
      [LIMITS.auditCountCap + 5],
    );
    const first = await entries({ entity: 'branch' });
    expect(first).toMatchObject({ total: LIMITS.auditCountCap, totalCapped: true });
    expect(first.data).toHaveLength(LIMITS.auditPageSize);
    expect(first.data[0]!.entityId).toBe('1');
    const second = await entries({ entity: 'branch', page: '2' });
    expect(second.data[0]!.entityId).toBe(String(LIMITS.auditPageSize + 1));
    const all = await entries();
    expect(all.data[0]!.action).toBe('user.password');
    await ctx.sql(`DELETE FROM audit_log WHERE action = 'bulk.note'`);
  });

  it('downloads the filtered list as CSV with the UTF-8 byte-order mark', async () => {
    const response = await audit(manager, { mobile: '9800011111', format: 'csv' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/audit_log_\d{4}-\d{2}-\d{2}\.csv/);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      `${CSV_BOM}When,Username,Name,Branch,Entity,Entity ID,Action,Mobile,Before,After`,
    );
    expect(lines).toHaveLength(5);
    expect(response.body).toContain('City: Madurai');
  });

  it('is for owners and managers; bad filters are a clear 400', async () => {
    const refused = await audit(cashier);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.notAllowed);
    for (const [query, message] of [
      [{ entity: 'password' }, /Record type must be one of/],
      [{ mobile: '98000' }, /Mobile no. must be 10 digits/],
      [{ from: '31/12/2025' }, /The from date must be a real date/],
      [{ from: '2026-02-01', to: '2026-01-01' }, /The from date must not be after the to date/],
      [{ page: '0' }, /The page must be a whole number/],
      [{ page: String(LIMITS.auditMaxPages + 1) }, /narrow the filters/],
    ] as const) {
      const response = await audit(owner, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });
});
