import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.js';
import { connectDatabase, runStatement, type Database } from './client.js';

let database: TestDatabase;
let connections: Database[];

beforeAll(async () => {
  database = await createTestDatabase();
  connections = [
    connectDatabase(database.url, { max: 2 }),
    connectDatabase(database.url, { max: 2, preparedStatements: false }),
  ];
});
afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  await database.drop();
});

const TRANSACTION_ID: { name: string; text: string } = {
  name: 'clientTestTransactionId',
  text: 'SELECT txid_current()::text AS id',
};

/**
 * `runStatement` reaches the connection a drizzle transaction holds through drizzle's own
 * session object: should a drizzle upgrade move it, a statement could run on another
 * connection, outside the transaction, and a sale would no longer be one transaction.
 */
describe('a statement run by name', () => {
  it('runs in the caller’s transaction, prepared or not, and goes with its rollback', async () => {
    for (const { db } of connections) {
      await db.transaction(async (tx) => {
        const [ours] = await runStatement<{ id: string }>(tx, TRANSACTION_ID, []);
        const drizzles = await tx.execute<{ id: string }>(sql`SELECT txid_current()::text AS id`);
        expect(ours!.id).toBe(drizzles.rows[0]!.id);
      });
      await expect(
        db.transaction(async (tx) => {
          await runStatement(
            tx,
            { name: 'clientTestCreate', text: 'CREATE TABLE t_gone (n int)' },
            [],
          );
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      const left = await db.execute<{ n: string }>(
        sql`SELECT count(*)::text AS n FROM pg_tables WHERE tablename = 't_gone'`,
      );
      expect(left.rows[0]!.n).toBe('0');
    }
  });
});
