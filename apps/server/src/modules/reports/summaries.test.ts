import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { addDays, type Role } from '@kanak/contract';
import {
  authed,
  createTestContext,
  lateEntryReason,
  movableClock,
  pointsBalance,
  staffSession,
  type TestContext,
} from '../../../test/helpers.js';
import { expectSummariesAgree } from '../../../test/summaries.js';
import { expireDueLots } from '../points/index.js';

/**
 * The dashboard's daily totals and each scheme's installments paid are kept by triggers in
 * every change's own statement. Here a random mix of every kind of change, four at a time
 * from two branches' staff and counters, some refused, must leave them equal to the ledger,
 * the installments and the lots, recomputed from the rows themselves.
 */

const TODAY = '2026-03-10';
const clock = movableClock(TODAY);
const { enteredOn } = clock;
let ctx: TestContext;
const tokens: Record<string, string> = {};
const keys: string[] = [];
const customers: { id: number; mobileno: string; custname: string }[] = [];
const schemes: { id: number; startdt: string }[] = [];
const sales: { key: string; invoiceNo: string; amount: number; returned: number }[] = [];
const redemptions: { key: string; invoiceNo: string }[] = [];

/** A small seeded generator (mulberry32): the same sequence every run. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: T[]) => list[Math.floor(next() * list.length)]!,
  };
}
const rng = random(1928);

const call = (username: string, url: string, payload: object) =>
  ctx.app.inject(authed(tokens[username]!, { method: 'POST', url: `/api${url}`, payload }));
const pos = (key: string, url: string, payload: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/pos/${url}`,
    payload,
    headers: { 'x-api-key': key },
  });

async function staffMember(username: string, role: Role, branch: string) {
  tokens[username] = (await staffSession(ctx, username, role, branch)).token;
}

const balanceOf = async (customerId: number) => (await pointsBalance(ctx, customerId))!;

beforeAll(async () => {
  ctx = await createTestContext({}, clock.now);
  await staffMember('owner1', 'owner', 'MAIN');
  const branch = await call('owner1', '/branches', {
    code: 'PUNE',
    name: 'Pune showroom',
    address: '1 FC Road, Pune',
    phone: '+91 20 2345 6789',
  });
  expect(branch.statusCode, branch.body).toBe(200);
  await staffMember('mainCashier', 'cashier', 'MAIN');
  await staffMember('puneCashier', 'cashier', 'PUNE');
  await staffMember('mainManager', 'manager', 'MAIN');
  // Installments dated months back are the owner's to enter, with a reason.
  await staffMember('puneOwner', 'owner', 'PUNE');
  for (const branchCode of ['MAIN', 'PUNE']) {
    const made = await call('owner1', '/settings/api-keys', {
      label: `${branchCode} till`,
      branch: branchCode,
    });
    keys.push(made.json().data.key);
  }
  for (let n = 1; n <= 12; n++) {
    const mobileno = `97000000${String(n).padStart(2, '0')}`;
    const [row] = await ctx.sql<{ id: number }>(
      `INSERT INTO customers (mobileno, custname) VALUES ($1, $2) RETURNING id`,
      [mobileno, `Customer ${n}`],
    );
    customers.push({ id: row!.id, mobileno, custname: `Customer ${n}` });
  }
  for (const [n, customer] of customers.slice(0, 6).entries()) {
    const startdt = addDays(TODAY, -40 * (n + 1));
    const made = await enteredOn(startdt, () =>
      call(n % 2 ? 'puneCashier' : 'mainCashier', '/scheme/generate', {
        custid: customer.id,
        mobileno: customer.mobileno,
        custname: customer.custname,
        startdt,
        amount: 1000 * (n + 1),
      }),
    );
    const schemeid = made.json().data.schemeid as number;
    const activated = await enteredOn(startdt, () =>
      call('mainCashier', '/scheme/activate', { schemeid, date: startdt, mode: 'cash' }),
    );
    expect(activated.statusCode, activated.body).toBe(200);
    schemes.push({ id: schemeid, startdt });
  }
}, 60_000);
afterAll(() => ctx.close());

const cashier = () => rng.pick(['mainCashier', 'puneCashier']);
const pastDay = (days: number) => addDays(TODAY, -rng.int(0, days));
let invoices = 0;

/** One random change; it may be refused (a rule says no), never fail. */
async function randomChange(): Promise<LightMyRequestResponse | undefined> {
  const customer = rng.pick(customers);
  switch (rng.int(0, 8)) {
    case 0:
      return call(cashier(), '/customers/update-points', {
        formData: {
          MOBILENO: customer.mobileno,
          POINTS: rng.int(1, 500),
          INVDATE: pastDay(900),
          CASHCR: 'CR',
        },
      });
    case 1: {
      const balance = await balanceOf(customer.id);
      if (balance === 0) return undefined;
      return call(cashier(), '/customers/update-points', {
        formData: {
          MOBILENO: customer.mobileno,
          POINTS: rng.int(1, balance),
          INVDATE: pastDay(60),
          CASHCR: 'DB',
        },
      });
    }
    case 2: {
      const key = rng.pick(keys);
      const amount = rng.int(1_000, 100_000);
      const invoiceNo = `INV-${++invoices}`;
      sales.push({ key, invoiceNo, amount, returned: 0 });
      return pos(key, 'sales', {
        invoiceNo,
        invoiceDate: pastDay(800),
        mobile: customer.mobileno,
        lines: [{ description: 'Ring', category: 'gold', amount }],
      });
    }
    case 3: {
      const sale = sales.find((s) => s.returned < s.amount);
      if (!sale) return undefined;
      const amount = rng.int(1, sale.amount - sale.returned);
      sale.returned += amount;
      return pos(sale.key, 'returns', {
        returnNo: `RET-${++invoices}`,
        invoiceNo: sale.invoiceNo,
        returnDate: TODAY,
        lines: [{ description: 'Ring', category: 'gold', amount }],
      });
    }
    case 4: {
      const balance = await balanceOf(customer.id);
      if (balance < 100) return undefined;
      const key = rng.pick(keys);
      const invoiceNo = `RED-${++invoices}`;
      redemptions.push({ key, invoiceNo });
      return pos(key, 'redemptions', {
        invoiceNo,
        mobile: customer.mobileno,
        points: rng.int(100, balance),
      });
    }
    case 5: {
      const redemption = redemptions.shift();
      if (!redemption) return undefined;
      return pos(redemption.key, 'redemptions/cancel', { invoiceNo: redemption.invoiceNo });
    }
    case 6: {
      const [entry] = await ctx.sql<{ mrn: number }>(
        `SELECT mrn FROM points_entries WHERE ts = 'M' ORDER BY mrn DESC LIMIT 1 OFFSET $1`,
        [rng.int(0, 5)],
      );
      if (!entry) return undefined;
      return call('mainManager', '/customers/update-statement', {
        formData: {
          MRN: entry.mrn,
          MOBILENO: rng.pick(customers).mobileno,
          POINTS: rng.int(1, 300),
          INVDATE: pastDay(120),
          CASHCR: rng.pick(['CR', 'DB']),
          NARRATION: 'Corrected',
        },
      });
    }
    default: {
      const scheme = rng.pick(schemes);
      const date = addDays(scheme.startdt, rng.int(0, 300));
      // The branch's owner: a cashier dates an installment only a few days back.
      return call(cashier() === 'puneCashier' ? 'puneOwner' : 'owner1', '/scheme/add-installment', {
        schemeid: scheme.id,
        date,
        mode: rng.pick(['cash', 'upi', 'card', 'bank', 'cheque']),
        ...lateEntryReason(date, clock.now()),
      });
    }
  }
}

describe('the daily totals and the schemes paid counts', () => {
  it('stay equal to the ledger, the installments and the lots after 200 random changes, four at a time', async () => {
    const answers: number[] = [];
    for (let batch = 0; batch < 50; batch++) {
      const settled = await Promise.all([
        randomChange(),
        randomChange(),
        randomChange(),
        randomChange(),
      ]);
      for (const response of settled) {
        if (!response) continue;
        answers.push(response.statusCode);
        expect(response.statusCode, response.body).toBeLessThan(500);
      }
    }
    // Points long past their expiry, for the expiry to write off.
    for (const customer of customers.slice(0, 3)) {
      const old = await call('puneCashier', '/customers/update-points', {
        formData: { MOBILENO: customer.mobileno, POINTS: 70, INVDATE: '2023-01-01', CASHCR: 'CR' },
      });
      expect(old.statusCode, old.body).toBe(200);
    }
    await expireDueLots({ db: ctx.database.db }, TODAY);
    // The mix did what it should: most changes were made, every kind of row exists.
    expect(answers.filter((status) => status === 200).length).toBeGreaterThan(100);
    const kinds = await ctx.sql<{ ts: string }>(
      `SELECT DISTINCT ts FROM points_entries ORDER BY ts`,
    );
    expect(kinds.map((row) => row.ts)).toEqual(['E', 'M', 'R', 'S', 'X']);
    const [edited] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::integer AS n FROM points_entry_history`,
    );
    expect(edited!.n).toBeGreaterThan(0);
    const [paid] = await ctx.sql<{ n: number }>(
      `SELECT count(*)::integer AS n FROM scheme_installments`,
    );
    expect(paid!.n).toBeGreaterThan(schemes.length);
    await expectSummariesAgree(ctx);
  }, 120_000);

  it('follow a scheme started, cancelled and closed, and the paged summary adds them up', async () => {
    const [matured, cancelled, started] = customers.slice(6, 9);
    const generate = async (customer: (typeof customers)[0], startdt: string, amount: number) => {
      const made = await call('mainCashier', '/scheme/generate', {
        custid: customer.id,
        mobileno: customer.mobileno,
        custname: customer.custname,
        startdt,
        amount,
      });
      expect(made.statusCode, made.body).toBe(200);
      return made.json().data.schemeid as number;
    };
    const old = addDays(TODAY, -400);
    const closing = await enteredOn(old, () => generate(matured!, old, 3000));
    const activated = await enteredOn(old, () =>
      call('mainCashier', '/scheme/activate', { schemeid: closing, date: old, mode: 'cash' }),
    );
    expect(activated.statusCode, activated.body).toBe(200);
    const closed = await call('mainManager', '/scheme/close', { schemeid: closing });
    expect(closed.statusCode, closed.body).toBe(200);
    const dropped = await generate(cancelled!, TODAY, 2000);
    const cancel = await call('mainManager', '/scheme/delete', { schemeid: dropped });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await generate(started!, TODAY, 5000);
    await expectSummariesAgree(ctx);

    const [all] = await ctx.sql<{ count: number; total: number }>(
      `SELECT count(*)::integer AS count, sum(amount)::integer AS total FROM schemes
        WHERE status IN ('n', 'a', 'm') AND startdt BETWEEN $1 AND $2`,
      [old, TODAY],
    );
    const summary = await call('owner1', '/scheme/generate-summary', {
      selected: 'All',
      formData: { mobileno: '', datefrom: old, dateto: TODAY },
      page: 1,
      pageSize: 5,
    });
    expect(summary.statusCode, summary.body).toBe(200);
    // The schemes of the setup, the closed one and the new one; not the cancelled one.
    expect(all!.count).toBe(schemes.length + 2);
    expect(summary.json()).toMatchObject({ count: all!.count, total: all!.total });
  });

  it('follow rows taken away too (as the benchmark takes back its own writes)', async () => {
    await ctx.sql(`DELETE FROM scheme_installments WHERE id IN (
                     SELECT max(id) FROM scheme_installments GROUP BY scheme_id)`);
    // The expiry's rows: nothing else points at them.
    const [removed] = await ctx.sql<{ n: number }>(
      `WITH gone AS (DELETE FROM points_entries WHERE ts = 'E' RETURNING 1) SELECT count(*)::integer AS n FROM gone`,
    );
    expect(removed!.n).toBeGreaterThan(0);
    await expectSummariesAgree(ctx);
  });
});
