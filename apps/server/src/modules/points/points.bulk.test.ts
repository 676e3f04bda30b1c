import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kanak/contract';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { ConflictError } from '../../lib/errors.js';
import { checkLedger } from './points.ledger-check.js';
import { createLedger, pointsAccountsRepo, postInBulk, type BulkPosting } from './points.ledger.js';

/**
 * The ledger's bulk path (imports, the demo and benchmark data) makes the rows, lots and takes
 * that the same changes posted one by one make: a deduction takes from the lots a change
 * alone would take from, in the same order.
 */
let database: TestDatabase;
let kanak: Database;
let branchId: number;
const ledger = createLedger();

beforeAll(async () => {
  database = await createTestDatabase();
  kanak = connectDatabase(database.url, { max: 2 });
  await database.sql(
    `INSERT INTO customers (mobileno, custname)
     SELECT (8200000000 + g)::text, 'Bulk Customer ' || g FROM generate_series(1, 4) g`,
  );
  const [branch] = await database.sql<{ id: number }>(`SELECT min(id) AS id FROM branches`);
  branchId = branch!.id;
});
afterAll(async () => {
  await kanak?.close();
  await database?.drop();
});

const customerId = async (n: number) =>
  (
    await database.sql<{ id: number }>(`SELECT id FROM customers WHERE mobileno = $1`, [
      String(8200000000 + n),
    ])
  )[0]!.id;

/** A year of changes: credits of every kind of expiry (the rules', a sale's own, never). */
const CHANGES: Omit<BulkPosting, 'customerId' | 'branchId' | 'createdBy'>[] = [
  { kind: 'manual', points: 100, invdate: '2026-01-10', narration: 'Festival bonus' },
  {
    kind: 'sale',
    points: 50,
    invdate: '2026-02-01',
    narration: 'Sale',
    saleAmountPaise: 5_000_00,
    expiresOn: '2026-09-01',
  },
  {
    kind: 'sale',
    points: 30,
    invdate: '2026-02-02',
    narration: 'Sale',
    saleAmountPaise: 3_000_00,
    expiresOn: null,
  },
  { kind: 'manual', points: 20, invdate: '2026-02-03', narration: 'Birthday bonus' },
  { kind: 'manual', points: -120, invdate: '2026-03-01', narration: 'Points redeemed' },
  {
    kind: 'sale',
    points: 10,
    invdate: '2026-03-05',
    narration: 'Sale',
    saleAmountPaise: 1_000_00,
    expiresOn: '2026-04-01',
  },
  { kind: 'manual', points: -65, invdate: '2026-04-01', narration: 'Points redeemed' },
];

/** The customer's ledger, lots and takes, with numbers replaced by their places in order. */
async function booksOf(id: number) {
  const entries = await database.sql<{ mrn: number }>(
    `SELECT mrn, invdate::text, narration, sale_amount_paise, credit, debit, ts, branch_id
       FROM points_entries WHERE customer_id = $1 ORDER BY mrn`,
    [id],
  );
  const lots = await database.sql<{ id: number; entry_mrn: number }>(
    `SELECT id, entry_mrn, earned_on::text, expires_on::text, points, remaining, branch_id
       FROM points_lots WHERE customer_id = $1 ORDER BY id`,
    [id],
  );
  const takes = await database.sql<{ entry_mrn: number; lot_id: number; points: number }>(
    `SELECT t.entry_mrn, t.lot_id, t.points FROM points_lot_takes t
       JOIN points_entries e ON e.mrn = t.entry_mrn WHERE e.customer_id = $1
      ORDER BY t.entry_mrn, t.lot_id`,
    [id],
  );
  const entry = (mrn: number) => entries.findIndex((row) => row.mrn === mrn);
  const lot = (lotId: number) => lots.findIndex((row) => row.id === lotId);
  const [account] = await database.sql<{ balance: number }>(
    `SELECT balance FROM points_accounts WHERE customer_id = $1`,
    [id],
  );
  return {
    balance: account!.balance,
    entries: entries.map(({ mrn: _mrn, ...row }) => row),
    lots: lots.map(({ id: _id, entry_mrn, ...row }) => ({ entry: entry(entry_mrn), ...row })),
    takes: takes.map((take) => [entry(take.entry_mrn), lot(take.lot_id), take.points]),
  };
}

/** The changes posted one at a time, each as a staff member's or a sale's change posts. */
async function postOneByOne(id: number, changes: typeof CHANGES) {
  for (const change of changes) {
    await kanak.db.transaction(async (tx) => {
      const [customer] = await pointsAccountsRepo.lockById(tx, [id]);
      await ledger.post(tx, customer!, {
        ...change,
        kind: change.kind === 'sale' ? 'sale' : 'manual',
        branchId,
        expiresOn: change.expiresOn,
      });
    });
  }
}

describe('the bulk path', () => {
  it('makes the rows, lots and takes of the same changes posted one by one', async () => {
    const [alone, inBulk] = [await customerId(1), await customerId(2)];
    await postOneByOne(alone, CHANGES);
    // Two calls: the second's deductions take from lots of the first and of its own.
    await kanak.db.transaction((tx) =>
      postInBulk(
        tx,
        CHANGES.slice(0, 5).map((change) => ({ ...change, customerId: inBulk, branchId })),
      ),
    );
    await kanak.db.transaction((tx) =>
      postInBulk(
        tx,
        CHANGES.slice(5).map((change) => ({ ...change, customerId: inBulk, branchId })),
      ),
    );
    const expected = await booksOf(alone);
    expect(expected.balance).toBe(25);
    expect(expected.takes.length).toBeGreaterThan(3);
    expect(await booksOf(inBulk)).toEqual(expected);
    expect((await checkLedger(kanak.db)).shown).toEqual([]);
  });

  it('refuses a deduction beyond the balance and writes nothing', async () => {
    const id = await customerId(3);
    const count = async () =>
      (
        await database.sql<{ n: number }>(
          `SELECT (SELECT count(*) FROM points_entries) + (SELECT count(*) FROM points_lots)
                  + (SELECT sum(balance) FROM points_accounts) AS n`,
        )
      )[0]!.n;
    const before = await count();
    const changes: BulkPosting[] = [
      {
        customerId: id,
        kind: 'manual',
        points: 40,
        invdate: '2026-01-01',
        narration: 'Bonus',
        branchId,
      },
      {
        customerId: id,
        kind: 'manual',
        points: -50,
        invdate: '2026-01-02',
        narration: 'Redeemed',
        branchId,
      },
    ];
    const refused = kanak.db.transaction((tx) => postInBulk(tx, changes));
    await expect(refused).rejects.toThrow(ConflictError);
    await expect(refused).rejects.toThrow(MESSAGES.insufficientPoints(40));
    expect(await count()).toBe(before);
  });
});
