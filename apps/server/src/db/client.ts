import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { runningAfterCommit } from './after-commit.js';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction or the database itself: repos take either, services decide which. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

// Return DATE columns as 'YYYY-MM-DD' text and BIGINT as numbers (our sums stay far below 2^53).
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connectDatabase(
  url: string,
  options: { max?: number; connectionTimeoutMillis?: number } = {},
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'kanak',
  });
  // An idle client losing its connection (database restart) must not crash the process; nor
  // one still closing after pool.end(), which does not wait for the connections to go.
  pool.on('error', () => undefined);
  // Nor a checked-out one, whose connection can drop between two queries of a transaction:
  // the pool listens only to idle clients. Its next query fails instead (a 503), and the pool
  // discards it when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return { db: runningAfterCommit(drizzle(pool, { schema })), pool, close: () => pool.end() };
}

/**
 * The name a prepared statement is sent under. A named statement stays on its connection,
 * parsed and planned once. Behind a pooler in transaction mode that does not keep prepared
 * statements, a connection's next query may reach a server connection that never saw the
 * name (or already has it): there the statement goes out unnamed ('' is the protocol's
 * unnamed statement), still built once here but parsed on every run.
 */
export function statementName(name: string, prepared: boolean): string {
  return prepared ? name : '';
}
