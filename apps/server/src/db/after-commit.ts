import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './types.js';

/** The actions waiting for each open transaction's commit. */
const waiting = new WeakMap<object, (() => void)[]>();

/**
 * Runs `action` once the transaction `tx` has committed, and never if it rolls back: a worker
 * told of a change (the notices' sender) then finds it, and is never told of one that was not
 * made. On the database itself, outside a transaction, the change is already committed and the
 * action runs at once.
 */
export function afterCommit(tx: Tx, action: () => void): void {
  const actions = waiting.get(tx);
  if (actions) actions.push(action);
  else if (tx instanceof PgTransaction)
    // A transaction this process did not open through connectDatabase: its commit is unseen.
    throw new Error('afterCommit: the transaction was not opened through connectDatabase');
  else action();
}

/**
 * Makes `db.transaction` keep its transaction's after-commit actions and run them once COMMIT
 * has answered; a rollback drops them. A savepoint's actions join its transaction's when it is
 * released, and go with it when it is rolled back.
 */
export function runningAfterCommit(db: Db): Db {
  const open = db.transaction.bind(db) as Transact;
  (db as { transaction: Transact }).transaction = async (work, config) => {
    const actions: (() => void)[] = [];
    const result = await open((tx) => work(tracked(tx, actions)), config);
    for (const action of actions) runSafely(action);
    return result;
  };
  return db;
}

type Transact = (
  work: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<unknown>,
  config?: Parameters<Db['transaction']>[1],
) => Promise<unknown>;

function tracked<T extends object>(tx: T, actions: (() => void)[]): T {
  waiting.set(tx, actions);
  const transaction = tx as unknown as {
    transaction: (work: (sub: T) => Promise<unknown>) => Promise<unknown>;
  };
  const savepoint = transaction.transaction.bind(tx);
  transaction.transaction = async (work) => {
    const own: (() => void)[] = [];
    const result = await savepoint((sub) => work(tracked(sub, own)));
    actions.push(...own);
    return result;
  };
  return tx;
}

/** An action's failure is its own: the change is committed and its answer still the truth. */
function runSafely(action: () => void) {
  try {
    action();
  } catch {
    // The actions are nudges, each reporting its own failure; nothing more to do here.
  }
}
