import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.js';

/**
 * The ledger and the points lots grow by millions of rows. A foreign key pointing at them is
 * checked, for every row of theirs deleted, by a look-up in the table that points: without an
 * index on its column, that look-up reads the whole table each time (taking back a million
 * expiry rows read every sale a million times).
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('columns that point at a ledger row or a points lot', () => {
  it('each lead an index of their table', async () => {
    const unindexed = await database.sql<{ reference: string }>(
      `SELECT c.conrelid::regclass || '.' || a.attname AS reference
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'f'
          AND c.confrelid IN ('points_entries'::regclass, 'points_lots'::regclass)
          AND NOT EXISTS (
            SELECT 1 FROM pg_index i
             WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
        ORDER BY 1`,
    );
    expect(unindexed.map((row) => row.reference)).toEqual([]);
  });
});
