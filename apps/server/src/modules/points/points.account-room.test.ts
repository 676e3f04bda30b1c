import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { addToBalances } from './points.ledger.js';

/**
 * A customer's balance changes with every sale, return, redemption and expiry; the expiry alone
 * changes a million balances in a night. Each change must fit beside the old row on its page (a
 * HOT update), or it writes an entry into the points accounts' index as well.
 */
let database: TestDatabase;
let kanak: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  kanak = connectDatabase(database.url, { max: 1 });
  // Rows of one size, as a load of customers fills pages (their accounts opened with them):
  // each page as full as it may be. An account is small: some 220 to a page.
  await database.sql(
    `INSERT INTO customers (mobileno, custname, city)
     SELECT (8100000000 + g)::text, 'Room Customer ' || (1000 + g), 'Chennai'
       FROM generate_series(1, 2000) g`,
  );
});
afterAll(async () => {
  await kanak?.close();
  await database?.drop();
});

describe('a balance change', () => {
  it('stays on the row’s page, on every page a load of customers filled', async () => {
    const counted = await kanak.db.transaction(async (tx) => {
      // One customer of each page but the last (which a load leaves with room either way).
      const picked = await tx.execute<{ id: number }>(sql`
        WITH placed AS (
          SELECT a.customer_id AS id, (a.ctid::text::point)[0]::int AS page
            FROM points_accounts a JOIN customers c ON c.id = a.customer_id
           WHERE c.custname LIKE 'Room Customer %'
        )
        SELECT DISTINCT ON (page) id FROM placed
         WHERE page < (SELECT max(page) FROM placed)
         ORDER BY page, id`);
      const ids = picked.rows.map((row) => row.id);
      await addToBalances(tx, new Map(ids.map((id) => [id, 5])));
      // This transaction's own counts, before any statistics are flushed.
      const stats = await tx.execute<{ updated: number; hot: number }>(sql`
        SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot
          FROM pg_stat_xact_user_tables WHERE relname = 'points_accounts'`);
      const balances = await tx.execute<{ total: number }>(sql`
        SELECT sum(balance)::int AS total FROM points_accounts WHERE customer_id = ANY(${`{${ids.join(',')}}`}::int[])`);
      return { pages: ids.length, ...stats.rows[0]!, total: balances.rows[0]!.total };
    });
    expect(counted.pages).toBeGreaterThanOrEqual(5);
    expect(counted.total).toBe(counted.pages * 5);
    expect(counted).toMatchObject({ updated: counted.pages, hot: counted.pages });
  });
});
