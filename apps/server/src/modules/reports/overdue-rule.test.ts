import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, addDays, DEFAULT_GRACE_DAYS } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * The overdue rule, walked one installment at a time here and compared with the report: every
 * start day of a month (the 29th to the 31st meeting shorter months), a few installments paid,
 * on the standard scheme and on plans of other graces (none, 3 and 15 days), judged on days
 * whose cutoff is mid-month, a month's last day, and 29 February.
 */

const TODAY = '2024-01-01';
let ctx: SignedIn;
const INSTALLMENTS = 11;

interface Scheme {
  id: number;
  startdt: string;
  paid: number;
  graceDays: number;
}
const schemes: Scheme[] = [];

const starts = [
  ...Array.from({ length: 31 }, (_, day) => `2023-01-${String(day + 1).padStart(2, '0')}`),
  '2023-02-28',
  '2023-03-30',
  '2023-03-31',
  '2023-05-31',
  '2023-08-29',
];

/** The standard scheme (no plan) and a plan of each other grace. */
const GRACES = [DEFAULT_GRACE_DAYS, 0, 3, 15];
const planIds = new Map<number, number | null>([[DEFAULT_GRACE_DAYS, null]]);

/** Written directly: the rule is about dates the counter could not have reached in order. */
async function addScheme(customerId: number, startdt: string, paid: number, graceDays: number) {
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO schemes (customer_id, startdt, matdt, amount, installments, status, paid, plan_id)
     VALUES ($1, $2, '2030-01-01', 1000, $3, 'a', $4, $5) RETURNING id`,
    [customerId, startdt, INSTALLMENTS, paid, planIds.get(graceDays)],
  );
  const scheme = { id: row!.id, startdt, paid, graceDays };
  schemes.push(scheme);
  return scheme;
}

/** Each grace's scheme started on 22 December 2023: its first installment 10 days past due. */
const tenDaysPastDue = new Map<number, Scheme>();

beforeAll(async () => {
  ctx = await signedIn('owner', { clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
  for (const graceDays of GRACES.filter((grace) => grace !== DEFAULT_GRACE_DAYS)) {
    const code = `G${graceDays}`;
    const saved = await ctx.post('/api/scheme-plans', {
      code,
      name: `Grace ${graceDays}`,
      kind: 'value',
      installments: INSTALLMENTS,
      minAmount: 1,
      bonusPercent: 100,
      graceDays,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [plan] = await ctx.sql<{ id: number }>(`SELECT id FROM scheme_plans WHERE code = $1`, [
      code,
    ]);
    planIds.set(graceDays, plan!.id);
  }
  const [customer] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ('9811100000', 'Rule Check') RETURNING id`,
  );
  for (const [g, graceDays] of GRACES.entries()) {
    for (const [n, startdt] of starts.entries())
      await addScheme(customer!.id, startdt, (n + g) % 4, graceDays);
    tenDaysPastDue.set(graceDays, await addScheme(customer!.id, '2023-12-22', 0, graceDays));
  }
});
afterAll(() => ctx.close());

/** The rule, installment by installment, each scheme with its own grace. */
function expectedOn(asOf: string) {
  return schemes.flatMap((scheme) => {
    const cutoff = addDays(asOf, -scheme.graceDays);
    const nextDue = addMonths(scheme.startdt, scheme.paid);
    if (nextDue > cutoff) return [];
    let due = 0;
    for (let k = 0; k < INSTALLMENTS; k++) if (addMonths(scheme.startdt, k) <= cutoff) due++;
    const daysOverdue = (Date.parse(asOf) - Date.parse(nextDue)) / 86_400_000;
    return [{ schemeid: scheme.id, monthsDue: due - scheme.paid, daysOverdue }];
  });
}

const overdueOn = async (asOf: string) => {
  const response = await ctx.post('/api/reports/overdue', { asOf, pageSize: 500 });
  expect(response.statusCode, response.body).toBe(200);
  return response
    .json<{ data: { schemeid: number; monthsDue: number; daysOverdue: number }[] }>()
    .data.map(({ schemeid, monthsDue, daysOverdue }) => ({ schemeid, monthsDue, daysOverdue }));
};

describe('the overdue rule', () => {
  it("judges each scheme by its plan's grace, the standard scheme by the default", async () => {
    // On 1 January, 10 days after the installment due on 22 December.
    const listed = new Set((await overdueOn(TODAY)).map((row) => row.schemeid));
    const overdue = (graceDays: number) => listed.has(tenDaysPastDue.get(graceDays)!.id);
    expect(overdue(15)).toBe(false);
    expect(overdue(DEFAULT_GRACE_DAYS)).toBe(true);
    expect(overdue(3)).toBe(true);
    expect(overdue(0)).toBe(true);
    // Overdue from the 15th day after it fell due: 6 January.
    const on6January = await overdueOn('2024-01-06');
    expect(on6January).toContainEqual({
      schemeid: tenDaysPastDue.get(15)!.id,
      monthsDue: 1,
      daysOverdue: 15,
    });
    expect((await overdueOn('2024-01-05')).map((row) => row.schemeid)).not.toContain(
      tenDaysPastDue.get(15)!.id,
    );
  });

  it.each([
    ['2024-01-01', 'a mid-month cutoff'],
    ['2024-02-07', 'cutoff 31 January'],
    ['2024-03-07', 'cutoff 29 February'],
    ['2024-03-08', 'cutoff 1 March'],
    ['2024-05-07', 'cutoff 30 April'],
    ['2024-05-06', 'cutoff 29 April'],
    ['2024-07-20', 'a mid-month cutoff, later'],
    ['2024-02-29', 'cutoff 29 February with no grace'],
    ['2024-03-15', 'cutoff 29 February after 15 days'],
    ['2024-05-03', 'cutoff 30 April after 3 days'],
  ])('agrees with the installments walked one by one on %s (%s)', async (asOf) => {
    const got = (await overdueOn(asOf)).sort((a, b) => a.schemeid - b.schemeid);
    const expected = expectedOn(asOf);
    expect(expected.length).toBeGreaterThan(10);
    expect(got).toEqual(expected);
  });
});
