import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { AuditEntry } from '@kanak/contract';
import {
  addUser,
  authed,
  createTestContext,
  login,
  type TestContext,
} from '../../../test/helpers.js';

let ctx: TestContext;
let owner: string;

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  ctx.app.inject(
    authed(owner, {
      method,
      url,
      ...(payload ? { payload: payload as InjectOptions['payload'] } : {}),
    }),
  );

beforeAll(async () => {
  ctx = await createTestContext();
  await addUser(ctx, 'asha', 'Asha@1928x', 'owner');
  owner = await login(ctx, 'asha', 'Asha@1928x');
  const branch = await call('POST', '/api/branches', {
    code: 'PUNE',
    name: 'Pune showroom',
    address: '1 Main Road, Pune',
    phone: '+91 20 2345 6789',
  });
  expect(branch.statusCode, branch.body).toBe(200);
  const made = await call('POST', '/api/settings/api-keys', { label: 'Till 2', branch: 'PUNE' });
  expect(made.statusCode, made.body).toBe(200);
  const sale = await ctx.app.inject({
    method: 'POST',
    url: '/api/pos/sales',
    headers: { 'x-api-key': made.json().data.key },
    payload: {
      invoiceNo: 'INV-7',
      invoiceDate: '2026-01-05',
      mobile: '9800022222',
      name: 'Meena Pillai',
      lines: [{ description: 'Ring', category: 'gold', amount: 25000 }],
    },
  });
  expect(sale.statusCode, sale.body).toBe(200);
  const credit = await call('POST', '/api/customers/update-points', {
    formData: { MOBILENO: '9800022222', POINTS: 75, INVDATE: '2026-01-06', CASHCR: 'CR' },
  });
  expect(credit.statusCode, credit.body).toBe(200);
});
afterAll(() => ctx.close());

describe('the Audit Trail in a manager’s words', () => {
  it('names the counter and its branch as who and where of a counter’s posting', async () => {
    const page = await call('GET', '/api/audit?mobile=&entity=points_entry');
    expect(page.statusCode, page.body).toBe(200);
    const rows = page.json<{ data: AuditEntry[] }>().data;
    const sale = rows.find((row) => row.action === 'pos.sale');
    expect(sale).toMatchObject({ name: 'Counter: Till 2', branch: 'PUNE', username: null });
  });

  it('writes the CSV in words: the action, the counter, its branch and labelled fields', async () => {
    const csv = (await call('GET', '/api/audit?format=csv')).body;
    const lines = csv.trimEnd().split('\r\n');
    const sale = lines.find((line) => line.includes('Sale at the counter'));
    expect(sale).toContain(',Counter: Till 2,PUNE,Points entry,');
    const credit = lines.find((line) => line.includes('Points credited'));
    expect(credit).toContain('Date: 2026-01-06');
    expect(credit).toContain('Credit: 75');
    expect(csv).not.toMatch(/points\.credit|pos\.sale|invdate/);
  });
});
