import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { customersRepo } from './customers.repo.js';

/**
 * A customer's balance changes with every sale, return, redemption and expiry; the expiry alone
 * changes a million balances in a night. Each change must fit beside the old row on its page (a
 * HOT update), or it writes an entry into every customers index, the trigram GIN among them.
 */
let database: TestDatabase;
let kanak: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  kanak = connectDatabase(database.url, { max: 1 });
  // Rows of one size, as a load of customers fills pages: each page as full as it may be.
  await database.sql(
    `INSERT INTO customers (mobileno, custname, city)
     SELECT (8100000000 + g)::text, 'Room Customer ' || (1000 + g), 'Chennai'
       FROM generate_series(1, 600) g`,
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
          SELECT id, (ctid::text::point)[0]::int AS page FROM customers
           WHERE custname LIKE 'Room Customer %'
        )
        SELECT DISTINCT ON (page) id FROM placed
         WHERE page < (SELECT max(page) FROM placed)
         ORDER BY page, id`);
      const ids = picked.rows.map((row) => row.id);
      await customersRepo.addToBalances(tx, new Map(ids.map((id) => [id, 5])));
      // This transaction's own counts, before any statistics are flushed.
      const stats = await tx.execute<{ updated: number; hot: number }>(sql`
        SELECT n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot
          FROM pg_stat_xact_user_tables WHERE relname = 'customers'`);
      const balances = await tx.execute<{ total: number }>(sql`
        SELECT sum(points_balance)::int AS total FROM customers WHERE id = ANY(${`{${ids.join(',')}}`}::int[])`);
      return { pages: ids.length, ...stats.rows[0]!, total: balances.rows[0]!.total };
    });
    expect(counted.pages).toBeGreaterThanOrEqual(5);
    expect(counted.total).toBe(counted.pages * 5);
    expect(counted).toMatchObject({ updated: counted.pages, hot: counted.pages });
  });
});
