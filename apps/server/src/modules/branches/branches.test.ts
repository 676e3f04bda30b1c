import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES, type Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';

const TODAY = '2026-02-10';
/** The app's clock: moved to the day old schemes were entered at the counter, reset each test. */
let now = new Date(`${TODAY}T12:00:00+05:30`);
const setToday = (isoDate: string) => {
  now = new Date(`${isoDate}T12:00:00+05:30`);
};

let ctx: TestContext;
const tokens: Record<string, string> = {};

const MAIN = {
  code: 'MAIN',
  name: 'Main showroom',
  address: '12 Zaveri Bazaar, Mumbai 400002',
  phone: '+91 22 2342 1928',
};
const ANNA = {
  code: 'ANN',
  name: 'Anna Nagar',
  address: '5 2nd Avenue, Anna Nagar, Chennai 600040',
  phone: '+91 44 2626 1001',
};

/** An account in a branch, and a session of its own. */
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

async function ok(response: LightMyRequestResponse | Promise<LightMyRequestResponse>) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(200);
  return settled.json();
}

let nextMobile = 0;
async function newCustomer() {
  nextMobile++;
  const mobileno = `97${String(nextMobile).padStart(8, '0')}`;
  const custname = `Branch Customer ${nextMobile}`;
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
    [mobileno, custname],
  );
  return { id: row!.id, mobileno, custname };
}

/** A scheme started and activated by `username`; its id and the first receipt. */
async function activeScheme(username: string, startdt = '2025-03-01') {
  const customer = await newCustomer();
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
  const activated = await ok(
    call(username, '/scheme/activate', { schemeid, date: startdt, mode: 'cash' }),
  );
  return { schemeid, customer, receipt: activated.data.receiptNo as string };
}

beforeAll(async () => {
  ctx = await createTestContext({ INSTALLMENTS: '11', BONUS_PERCENT: '100' }, () => now);
  await staffMember('asha', 'owner');
  await ok(call('asha', '/branches', ANNA));
  await staffMember('mohan', 'manager');
  await staffMember('meena', 'manager', 'ANN');
  await staffMember('cash1', 'cashier');
  await staffMember('cash2', 'cashier', 'ANN');
});
afterAll(() => ctx.close());
beforeEach(() => setToday(TODAY));

describe('branches', () => {
  it('starts with the first branch, MAIN, carrying SHOP_ADDRESS and SHOP_PHONE', async () => {
    const body = await ok(call('asha', '/branches'));
    expect(body.data).toEqual([MAIN, ANNA]);
  });

  it('adds a branch, and updates it by its code, each with an audit row', async () => {
    const added = await ok(
      call('asha', '/branches', {
        code: 'TNR',
        name: 'T Nagar',
        address: '1 Usman Rd',
        phone: '1',
      }),
    );
    expect(added).toEqual({
      success: true,
      message: MESSAGES.branchSaved('TNR'),
      data: { code: 'TNR', name: 'T Nagar', address: '1 Usman Rd', phone: '1' },
    });
    await ok(
      call('asha', '/branches', {
        code: 'TNR',
        name: 'T Nagar showroom',
        address: '1 Usman Road, Chennai 600017',
        phone: '+91 44 2434 0000',
      }),
    );
    const rows = await ctx.sql(
      `SELECT code, name, address, phone FROM branches WHERE code = 'TNR'`,
    );
    expect(rows).toEqual([
      {
        code: 'TNR',
        name: 'T Nagar showroom',
        address: '1 Usman Road, Chennai 600017',
        phone: '+91 44 2434 0000',
      },
    ]);
    const audits = await ctx.sql<{ action: string; detail: Record<string, unknown> }>(
      `SELECT action, detail FROM audit_log WHERE entity = 'branch' AND entity_id = 'TNR' ORDER BY id`,
    );
    expect(audits.map((row) => row.action)).toEqual(['branch.add', 'branch.update']);
    expect(audits[1]!.detail).toMatchObject({
      before: { name: 'T Nagar' },
      after: { name: 'T Nagar showroom' },
    });
  });

  it.each([
    [
      { code: 'a', name: 'X', address: 'Y', phone: '1' },
      'Branch code must be 2 to 6 capital letters (A to Z).',
    ],
    [
      { code: 'ABCDEFG', name: 'X', address: 'Y', phone: '1' },
      'Branch code must be 2 to 6 capital letters (A to Z).',
    ],
    [
      { code: 'AB1', name: 'X', address: 'Y', phone: '1' },
      'Branch code must be 2 to 6 capital letters (A to Z).',
    ],
    [{ code: 'ABC', name: ' ', address: 'Y', phone: '1' }, 'Branch name is required.'],
    [{ code: 'ABC', name: 'X', address: '', phone: '1' }, 'Address is required.'],
    [{ code: 'ABC', name: 'X', address: 'Y' }, 'Phone is required.'],
  ])('refuses %j with 400 and saves nothing', async (payload, message) => {
    const before = await ctx.sql(`SELECT count(*)::int AS n FROM branches`);
    const response = await call('asha', '/branches', payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
    expect(await ctx.sql(`SELECT count(*)::int AS n FROM branches`)).toEqual(before);
  });

  it('keeps branches with the owner: a manager and a cashier are refused', async () => {
    for (const who of ['mohan', 'cash1']) {
      expect((await call(who, '/branches')).statusCode).toBe(403);
      const refused = await call(who, '/branches', { ...ANNA, name: 'Taken over' });
      expect(refused.statusCode).toBe(403);
    }
    expect(await ctx.sql(`SELECT name FROM branches WHERE code = 'ANN'`)).toEqual([
      { name: ANNA.name },
    ]);
  });

  it('tells each staff member their branch: GET /api/me', async () => {
    expect((await ok(call('cash2', '/me'))).data.branch).toEqual(ANNA);
    expect((await ok(call('cash1', '/me'))).data.branch).toEqual(MAIN);
  });
});

describe('what staff record belongs to their branch', () => {
  it('records the branch on the ledger row, the scheme, its installments and the audit rows', async () => {
    const customer = await newCustomer();
    const credited = await call('cash2', '/customers/update-points', {
      formData: {
        CUSTNAME: customer.custname,
        MOBILENO: customer.mobileno,
        POINTS: '50',
        NARRATION: 'Anna Nagar sale',
        INVDATE: TODAY,
        CASHCR: 'CR',
      },
    });
    expect(credited.statusCode, credited.body).toBe(200);
    setToday('2025-03-01');
    const { schemeid, receipt } = await activeScheme('cash2');
    setToday(TODAY);
    expect(receipt).toMatch(/^ANN-\d{6}$/);

    const branchOf = async (sql: string, values: unknown[]) =>
      (
        await ctx.sql<{ code: string }>(
          `SELECT b.code FROM (${sql}) r JOIN branches b ON b.id = r.branch_id`,
          values,
        )
      ).map((row) => row.code);
    expect(
      await branchOf(`SELECT branch_id FROM points_entries WHERE customer_id = $1`, [customer.id]),
    ).toEqual(['ANN']);
    expect(await branchOf(`SELECT branch_id FROM schemes WHERE id = $1`, [schemeid])).toEqual([
      'ANN',
    ]);
    expect(
      await branchOf(`SELECT branch_id FROM scheme_installments WHERE scheme_id = $1`, [schemeid]),
    ).toEqual(['ANN']);
    expect(
      await branchOf(`SELECT branch_id FROM audit_log WHERE entity = 'scheme' AND entity_id = $1`, [
        String(schemeid),
      ]),
    ).toEqual(['ANN', 'ANN', 'ANN']);

    // The receipt prints Anna Nagar's address, on the statement's reprint too.
    const statement = await ok(call('cash2', '/scheme/generate-statement', { schemeid }));
    expect(statement.data[0]).toMatchObject({ receiptNo: receipt, branch: ANNA });
  });

  it('numbers receipts without gaps or repeats per branch when two branches take installments at once', async () => {
    const perBranch = 12;
    // Started on 1 Mar 2025 and paid on 1 Apr 2025, each entered that day.
    setToday('2025-03-01');
    const schemes = {
      cash1: await Promise.all(
        Array.from({ length: perBranch }, () => activeScheme('cash1', '2025-03-01')),
      ),
      cash2: await Promise.all(
        Array.from({ length: perBranch }, () => activeScheme('cash2', '2025-03-01')),
      ),
    };
    // Every scheme's next installment, both counters at once, in parallel.
    setToday('2025-04-01');
    const answers = await Promise.all(
      (['cash1', 'cash2'] as const).flatMap((who) =>
        schemes[who].map(({ schemeid }) =>
          call(who, '/scheme/add-installment', { schemeid, date: '2025-04-01', mode: 'upi' }),
        ),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);

    const runs = await ctx.sql<{ code: string; numbers: string[]; receipts: string[] }>(
      `SELECT b.code, array_agg(i.receipt_no::text ORDER BY i.receipt_no) AS numbers,
              array_agg(i.receipt ORDER BY i.receipt_no) AS receipts
         FROM scheme_installments i JOIN branches b ON b.id = i.branch_id
        GROUP BY b.code ORDER BY b.code`,
    );
    for (const run of runs) {
      const numbers = run.numbers.map(Number);
      expect(numbers, run.code).toEqual(numbers.map((_, i) => i + 1));
      expect(run.receipts).toEqual(numbers.map((n) => `${run.code}-${String(n).padStart(6, '0')}`));
    }
    expect(runs.map((run) => run.code)).toEqual(['ANN', 'MAIN']);
    const counters = await ctx.sql<{ code: string; last_no: string }>(
      `SELECT b.code, c.last_no::text FROM receipt_counter c JOIN branches b ON b.id = c.branch_id ORDER BY b.code`,
    );
    expect(counters).toEqual(runs.map((run) => ({ code: run.code, last_no: run.numbers.at(-1) })));
  });
});

describe('a manager manages the cashiers of their own branch only', () => {
  it('lists, adds, updates, disables and resets only their branch’s cashiers', async () => {
    const listed = (await ok(call('meena', '/staff'))).data as {
      username: string;
      branch: string;
    }[];
    expect(listed.map((account) => account.username).sort()).toEqual(['cash2', 'meena']);
    expect(listed.every((account) => account.branch === 'ANN')).toBe(true);

    // Added without a branch: the manager's own.
    await ok(
      call('meena', '/staff/add', { username: 'anncash', name: 'Ann Cash', role: 'cashier' }),
    );
    expect(
      await ctx.sql(
        `SELECT b.code FROM users u JOIN branches b ON b.id = u.branch_id WHERE u.username = 'anncash'`,
      ),
    ).toEqual([{ code: 'ANN' }]);

    const refusals = [
      call('meena', '/staff/add', {
        username: 'maincash',
        name: 'X',
        role: 'cashier',
        branch: 'MAIN',
      }),
      call('meena', '/staff/update', { username: 'cash1', name: 'Renamed' }),
      call('meena', '/staff/update', { username: 'cash2', branch: 'MAIN' }),
      call('meena', '/staff/disable', { username: 'cash1' }),
      call('meena', '/staff/reset-password', { username: 'cash1' }),
      call('mohan', '/staff/disable', { username: 'cash2' }),
    ];
    for (const refused of await Promise.all(refusals)) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toBe(MESSAGES.notAllowed);
    }
    expect(await ctx.sql(`SELECT 1 FROM users WHERE username = 'maincash'`)).toEqual([]);
    expect(
      await ctx.sql(
        `SELECT u.name, b.code, u.disabled_at IS NULL AS active FROM users u
           JOIN branches b ON b.id = u.branch_id WHERE u.username IN ('cash1', 'cash2') ORDER BY u.username`,
      ),
    ).toEqual([
      { name: '', code: 'MAIN', active: true },
      { name: '', code: 'ANN', active: true },
    ]);

    await ok(call('meena', '/staff/update', { username: 'anncash', name: 'Ann Cashier' }));
    await ok(call('meena', '/staff/reset-password', { username: 'anncash' }));
    await ok(call('meena', '/staff/disable', { username: 'anncash' }));
  });

  it('lets the owner move an account to another branch, refusing an unknown code', async () => {
    await ok(
      call('asha', '/staff/add', {
        username: 'floater',
        name: 'Floater',
        role: 'cashier',
        branch: 'ANN',
      }),
    );
    await ok(call('asha', '/staff/update', { username: 'floater', branch: 'MAIN' }));
    const unknown = await call('asha', '/staff/update', { username: 'floater', branch: 'ZZZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(MESSAGES.noSuchBranch('ZZZ'));
    expect(
      (await ok(call('asha', '/staff'))).data.find(
        (account: { username: string }) => account.username === 'floater',
      ),
    ).toMatchObject({ branch: 'MAIN' });
  });
});

describe('the paper a branch prints receipts on', () => {
  it('keeps what the owner chose, tells the branch’s staff, and refuses any other', async () => {
    const bad = await call('asha', '/branches', { ...ANNA, receiptPaper: 'thermal' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Receipt paper must be A4 or an 80 mm roll.');
    await ok(call('asha', '/branches', { ...ANNA, receiptPaper: '80mm' }));
    // Saved again without it, the branch keeps its paper.
    await ok(call('asha', '/branches', ANNA));
    const roll = { ...ANNA, receiptPaper: '80mm' };
    expect((await ok(call('cash2', '/me'))).data.branch).toEqual(roll);
    expect((await ok(call('asha', '/branches'))).data).toContainEqual(roll);
    await ok(call('asha', '/branches', { ...ANNA, receiptPaper: 'a4' }));
    expect((await ok(call('cash2', '/me'))).data.branch).toEqual(ANNA);
  });
});
