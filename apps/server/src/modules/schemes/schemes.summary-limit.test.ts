import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * The summary's unpaged call answers every row of its filter in one reply. Any staff member
 * may call it over any dates, so above LIMITS.summaryWholeMaxRows rows it is refused; the
 * pages still reach every row.
 */
const MOST = LIMITS.summaryWholeMaxRows;
let cashier: SignedIn;

beforeAll(async () => {
  cashier = await signedIn('cashier');
  // One more scheme than the limit, in March 2025 (a few a day), made in one statement; the
  // roll-up the count reads is kept by the schemes table's own triggers.
  await cashier.sql(
    `WITH c AS (
       INSERT INTO customers (mobileno, custname) VALUES ('9812345678', 'Summary Customer')
       RETURNING id
     )
     INSERT INTO schemes (customer_id, startdt, matdt, amount, installments, status)
     SELECT c.id, d, d + 364, 1000 + n % 7, 11, 'a'
       FROM c, generate_series(1, $1::int) AS n,
            LATERAL (SELECT DATE '2025-03-01' + (n % 31) AS d) AS day`,
    [MOST + 1],
  );
});
afterAll(() => cashier?.close());

const summary = (datefrom: string, dateto: string, paging: object = {}) =>
  cashier.post('/api/scheme/generate-summary', {
    selected: 'All',
    formData: { mobileno: '', datefrom, dateto },
    ...paging,
  });

describe('the unpaged scheme summary', () => {
  it(`refuses a cashier's call over every date when more than ${MOST} schemes match, with a 400 naming the way out`, async () => {
    for (const [from, to] of [
      ['1900-01-01', '2999-12-31'],
      ['2025-03-01', '2025-03-31'],
    ] as const) {
      const response = await summary(from, to);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        message: MESSAGES.summaryTooManyRows(MOST),
      });
      expect(response.body.length).toBeLessThan(300);
    }
    expect(MESSAGES.summaryTooManyRows(MOST)).toBe(
      'More than 10,000 schemes match. Narrow the dates or use the pages.',
    );
  });

  it('also refuses for one customer (counted off the index), and answers a narrower filter in full', async () => {
    const one = await cashier.post('/api/scheme/generate-summary', {
      selected: 'Active',
      formData: { mobileno: '9812345678', datefrom: '2025-01-01', dateto: '2025-12-31' },
    });
    expect(one.statusCode, one.body).toBe(400);
    expect(one.json().message).toBe(MESSAGES.summaryTooManyRows(MOST));

    // 1 March: the schemes numbered 31, 62, … (n % 31 = 0).
    const day = await summary('2025-03-01', '2025-03-01');
    expect(day.statusCode, day.body).toBe(200);
    const body = day.json<{ success: boolean; data: { startdt: string }[] }>();
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(Math.floor((MOST + 1) / 31));
    expect(new Set(body.data.map((row) => row.startdt))).toEqual(new Set(['2025-03-01']));
  });

  it('still pages through every matching scheme', async () => {
    const last = Math.ceil((MOST + 1) / LIMITS.summaryPageSizeMax);
    const response = await summary('2025-03-01', '2025-03-31', {
      page: last,
      pageSize: LIMITS.summaryPageSizeMax,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ count: number; data: unknown[] }>();
    expect(body.count).toBe(MOST + 1);
    expect(body.data).toHaveLength(MOST + 1 - (last - 1) * LIMITS.summaryPageSizeMax);
  });
});
