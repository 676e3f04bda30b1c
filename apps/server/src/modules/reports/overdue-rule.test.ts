import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, addDays, LIMITS } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * The overdue rule, walked one installment at a time here and compared with the report: every
 * start day of a month (the 29th to the 31st meeting shorter months), a few installments paid,
 * judged on days whose cutoff is mid-month, a month's last day, and 29 February.
 */

const TODAY = '2024-01-01';
let ctx: SignedIn;
const INSTALLMENTS = 11;

interface Scheme {
  id: number;
  startdt: string;
  paid: number;
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

beforeAll(async () => {
  ctx = await signedIn('owner', { clock: () => new Date(`${TODAY}T12:00:00+05:30`) });
  const [customer] = await ctx.sql<{ id: number }>(
    `INSERT INTO customers (mobileno, custname) VALUES ('9811100000', 'Rule Check') RETURNING id`,
  );
  for (const [n, startdt] of starts.entries()) {
    const paid = n % 4;
    // Written directly: the rule is about dates the counter could not have reached in order.
    const [row] = await ctx.sql<{ id: number }>(
      `INSERT INTO schemes (customer_id, startdt, matdt, amount, installments, status, paid)
       VALUES ($1, $2, '2030-01-01', 1000, $3, 'a', $4) RETURNING id`,
      [customer!.id, startdt, INSTALLMENTS, paid],
    );
    schemes.push({ id: row!.id, startdt, paid });
  }
});
afterAll(() => ctx.close());

/** The rule, installment by installment. */
function expectedOn(asOf: string) {
  const cutoff = addDays(asOf, -LIMITS.installmentGraceDays);
  return schemes.flatMap((scheme) => {
    const nextDue = addMonths(scheme.startdt, scheme.paid);
    if (nextDue > cutoff) return [];
    let due = 0;
    for (let k = 0; k < INSTALLMENTS; k++) if (addMonths(scheme.startdt, k) <= cutoff) due++;
    const daysOverdue = (Date.parse(asOf) - Date.parse(nextDue)) / 86_400_000;
    return [{ schemeid: scheme.id, monthsDue: due - scheme.paid, daysOverdue }];
  });
}

describe('the overdue rule', () => {
  it.each([
    ['2024-01-01', 'a mid-month cutoff'],
    ['2024-02-07', 'cutoff 31 January'],
    ['2024-03-07', 'cutoff 29 February'],
    ['2024-03-08', 'cutoff 1 March'],
    ['2024-05-07', 'cutoff 30 April'],
    ['2024-05-06', 'cutoff 29 April'],
    ['2024-07-20', 'a mid-month cutoff, later'],
  ])('agrees with the installments walked one by one on %s (%s)', async (asOf) => {
    const response = await ctx.post('/api/reports/overdue', { asOf, pageSize: 500 });
    expect(response.statusCode, response.body).toBe(200);
    const got = response
      .json<{ data: { schemeid: number; monthsDue: number; daysOverdue: number }[] }>()
      .data.map(({ schemeid, monthsDue, daysOverdue }) => ({ schemeid, monthsDue, daysOverdue }))
      .sort((a, b) => a.schemeid - b.schemeid);
    const expected = expectedOn(asOf);
    expect(expected.length).toBeGreaterThan(10);
    expect(got).toEqual(expected);
  });
});
