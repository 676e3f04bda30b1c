import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.js';
import { afterCommit } from './after-commit.js';
import { connectDatabase, type Database } from './client.js';

let database: TestDatabase;
let connection: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = connectDatabase(database.url, { max: 2 });
});
afterAll(async () => {
  await connection.close();
  await database.drop();
});

describe('an after-commit action', () => {
  it('runs once its transaction has committed, and never when it rolls back', async () => {
    const ran: string[] = [];
    await connection.db.transaction(async (tx) => {
      afterCommit(tx, () => ran.push('committed'));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['committed']);

    await expect(
      connection.db.transaction(async (tx) => {
        afterCommit(tx, () => ran.push('rolled back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(ran).toEqual(['committed']);
  });

  it('in a savepoint waits for the whole transaction, and goes with a savepoint rolled back', async () => {
    const ran: string[] = [];
    await connection.db.transaction(async (tx) => {
      await tx.transaction(async (kept) => afterCommit(kept, () => ran.push('kept')));
      await tx
        .transaction(async (undone) => {
          afterCommit(undone, () => ran.push('undone'));
          throw new Error('undone');
        })
        .catch(() => undefined);
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['kept']);
  });

  it('outside a transaction runs at once: the change is already committed', () => {
    const ran: string[] = [];
    afterCommit(connection.db, () => ran.push('now'));
    expect(ran).toEqual(['now']);
  });
});
