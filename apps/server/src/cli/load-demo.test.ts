import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.js';
import { connectDatabase, type Database } from '../db/client.js';
import { checkLedger } from '../modules/points/points.ledger-check.js';
import { loadDemoData, loadDemoSchemes } from './load-demo.js';

/**
 * The demo and benchmark loader puts schemes in by slices, each one transaction: a load of
 * millions never holds every installment at once, and one stopped midway leaves whole schemes
 * (each with its installments and receipt numbers) that a rerun continues from.
 */
const TODAY = '2026-11-25';
let database: TestDatabase;
let loading: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  loading = connectDatabase(database.url, { max: 2 });
  await loadDemoData(loading, { customers: 25, entriesPerCustomer: 8, today: TODAY });
});
afterAll(async () => {
  await loading?.close();
  await database?.drop();
});

/** Schemes whose paid count differs from their installments, and the receipts' shape. */
async function books() {
  const [row] = await database.sql<{
    schemes: number;
    unmatched: number;
    receipts: number;
    lowest: number | null;
    highest: number | null;
    counter: number | null;
  }>(
    `SELECT (SELECT count(*)::int FROM schemes) AS schemes,
            (SELECT count(*)::int FROM schemes s
              WHERE s.paid <> (SELECT count(*) FROM scheme_installments i WHERE i.scheme_id = s.id)
            ) AS unmatched,
            count(*)::int AS receipts, min(receipt_no)::int AS lowest, max(receipt_no)::int AS highest,
            (SELECT max(last_no)::int FROM receipt_counter) AS counter
       FROM scheme_installments`,
  );
  return row!;
}

describe('loading demo ledgers', () => {
  // The ledgers go through the points ledger's bulk path, its books kept as by every change.
  it('leaves every customer’s balance, ledger sum and open lots agreeing', async () => {
    const connection = connectDatabase(database.url, { max: 1 });
    try {
      const books = await checkLedger(connection.db);
      expect(books.shown).toEqual([]);
      expect(books).toMatchObject({ customers: 25, differing: 0 });
      expect(books.points).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
  });
});

describe('loading demo schemes', () => {
  it('stopped midway keeps its whole slices, and a rerun goes on from them', async () => {
    // Thirty schemes for twenty-five customers: the third slice of ten meets a customer that
    // does not exist and fails whole.
    await expect(
      loadDemoSchemes(loading.pool, {
        firstCustomer: 0,
        count: 30,
        installments: 11,
        today: TODAY,
        schemeSlice: 10,
      }),
    ).rejects.toThrow(/foreign key/);
    const stopped = await books();
    expect(stopped).toMatchObject({ schemes: 20, unmatched: 0, lowest: 1 });
    expect(stopped.highest).toBe(stopped.receipts);
    expect(stopped.counter).toBe(stopped.receipts);

    await loadDemoSchemes(loading.pool, {
      firstCustomer: 20,
      count: 5,
      installments: 11,
      today: TODAY,
      schemeSlice: 2,
    });
    const done = await books();
    expect(done).toMatchObject({ schemes: 25, unmatched: 0, lowest: 1 });
    expect(done.highest).toBe(done.receipts);
    expect(done.counter).toBe(done.receipts);
    expect(done.receipts).toBeGreaterThan(stopped.receipts);
  });
});
