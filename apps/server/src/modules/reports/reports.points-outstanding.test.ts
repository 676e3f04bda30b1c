import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { expireDueLots } from '../points/index.js';

/**
 * The dashboard's points outstanding and the Points Liability report's total are one figure:
 * the owner reads one on the dashboard and opens the other to see who holds them. Points go
 * in and out every way the shop has, at two branches; then both screens must say the same,
 * for the chain and for each branch, even where a customer's balance was written apart from
 * the lots (as an old demo load did).
 */

const TODAY = '2026-03-10';
const now = new Date(`${TODAY}T12:00:00+05:30`);
let ctx: TestContext;
const tokens: Record<string, string> = {};
const keys: Record<string, string> = {};
const customers: { id: number; mobileno: string }[] = [];

const as = (username: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject(authed(tokens[username]!, { method, url: `/api${url}`, payload }));
const pos = (branch: string, url: string, payload: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/pos/${url}`,
    payload,
    headers: { 'x-api-key': keys[branch]! },
  });
async function staffMember(username: string, role: Role, branch: string) {
  tokens[username] = (await staffSession(ctx, username, role, branch)).token;
}
const points = (
  username: string,
  mobileno: string,
  POINTS: number,
  CASHCR: 'CR' | 'DB',
  INVDATE = TODAY,
) =>
  as(username, 'POST', '/customers/update-points', {
    formData: { MOBILENO: mobileno, POINTS, INVDATE, CASHCR },
  });

async function bothFigures(branch = '') {
  const dashboard = await as('owner1', 'GET', `/dashboard${branch ? `?branch=${branch}` : ''}`);
  expect(dashboard.statusCode, dashboard.body).toBe(200);
  const liability = await as('owner1', 'POST', '/reports/points-liability', { branch });
  expect(liability.statusCode, liability.body).toBe(200);
  return {
    dashboard: dashboard.json().data.points.outstanding as number,
    liability: liability.json().totals.points as number,
  };
}

beforeAll(async () => {
  ctx = await createTestContext({}, () => now);
  await staffMember('owner1', 'owner', 'MAIN');
  const branch = await as('owner1', 'POST', '/branches', {
    code: 'PUNE',
    name: 'Pune showroom',
    address: '1 FC Road, Pune',
    phone: '+91 20 2345 6789',
  });
  expect(branch.statusCode, branch.body).toBe(200);
  await staffMember('mainCashier', 'cashier', 'MAIN');
  await staffMember('puneCashier', 'cashier', 'PUNE');
  for (const code of ['MAIN', 'PUNE']) {
    const made = await as('owner1', 'POST', '/settings/api-keys', {
      label: `${code} till`,
      branch: code,
    });
    expect(made.statusCode, made.body).toBe(200);
    keys[code] = made.json().data.key;
  }
  for (let n = 1; n <= 4; n++) {
    const mobileno = `96000000${String(n).padStart(2, '0')}`;
    const [row] = await ctx.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
      [mobileno, `Customer ${n}`],
    );
    customers.push({ id: row!.id, mobileno });
  }
}, 60_000);
afterAll(() => ctx.close());

describe("the dashboard's points outstanding and the Points Liability total", () => {
  it('agree, chain and per branch, after credits, deductions, sales, returns, redemptions and the expiry', async () => {
    const [a, b, c, d] = customers as [
      (typeof customers)[0],
      (typeof customers)[0],
      (typeof customers)[0],
      (typeof customers)[0],
    ];
    const answers = [
      await points('mainCashier', a.mobileno, 500, 'CR'),
      await points('puneCashier', a.mobileno, 300, 'CR'),
      await points('puneCashier', b.mobileno, 800, 'CR'),
      await points('mainCashier', b.mobileno, 120, 'DB'),
      // Long past their expiry, for the expiry to write off.
      await points('puneCashier', d.mobileno, 90, 'CR', '2023-01-01'),
      await pos('MAIN', 'sales', {
        invoiceNo: 'INV-1',
        invoiceDate: TODAY,
        mobile: c.mobileno,
        lines: [{ description: 'Ring', category: 'gold', amount: 250_000 }],
      }),
      await pos('PUNE', 'sales', {
        invoiceNo: 'INV-2',
        invoiceDate: TODAY,
        mobile: b.mobileno,
        lines: [{ description: 'Chain', category: 'gold', amount: 120_000 }],
      }),
      await pos('MAIN', 'returns', {
        returnNo: 'RET-1',
        invoiceNo: 'INV-1',
        returnDate: TODAY,
        lines: [{ description: 'Ring', category: 'gold', amount: 50_000 }],
      }),
      await pos('PUNE', 'redemptions', { invoiceNo: 'RED-1', mobile: a.mobileno, points: 400 }),
    ];
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    await expireDueLots({ db: ctx.database.db }, TODAY);

    const chain = await bothFigures();
    expect(chain.dashboard).toBeGreaterThan(0);
    expect(chain.liability).toBe(chain.dashboard);
    const main = await bothFigures('MAIN');
    const pune = await bothFigures('PUNE');
    expect(main.liability).toBe(main.dashboard);
    expect(pune.liability).toBe(pune.dashboard);
    expect(main.dashboard + pune.dashboard).toBe(chain.dashboard);
  });

  it('still agree where a balance was written apart from its lots, as an old demo load did', async () => {
    await ctx.sql(`UPDATE points_accounts SET balance = balance + 2500000 WHERE customer_id = $1`, [
      customers[2]!.id,
    ]);
    for (const branch of ['', 'MAIN', 'PUNE']) {
      const figures = await bothFigures(branch);
      expect(figures.liability, branch || 'chain').toBe(figures.dashboard);
    }
  });
});
