import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { runningAfterCommit } from './after-commit.js';
import * as schema from './schema.js';
import type { Db, Tx } from './types.js';

export type { Db, Tx };

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
  options: {
    max?: number;
    connectionTimeoutMillis?: number;
    /** Off behind a pooler that does not keep prepared statements (see statementName). */
    preparedStatements?: boolean;
  } = {},
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
  if (options.preparedStatements === false) {
    unnamed.add(pool);
    pool.on('connect', (client) => unnamed.add(client));
  }
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

/** The pools, and their connections, whose statements go out unnamed (see statementName). */
const unnamed = new WeakSet<object>();

/** SQL written once, with the name it is prepared under on each connection. */
export interface Statement {
  name: string;
  text: string;
}

/**
 * Runs a statement written once on the transaction's own connection, with `values` for its
 * $1, $2…: no query is built per call, and, named, each connection parses and plans it once.
 * For the write path's hottest statements, where drizzle's building of each query costs more
 * than PostgreSQL's running of it. The rows come as PostgreSQL names their columns.
 */
export async function runStatement<Row extends object>(
  tx: Tx,
  statement: Statement,
  values: unknown[],
): Promise<Row[]> {
  // drizzle's session for a transaction holds its checked-out connection; for the database
  // itself, the pool (which prepares the statement on whichever connection runs it).
  const { client } = tx._.session as unknown as { client: pg.Pool | pg.PoolClient };
  const result = await client.query<Row>({
    name: statementName(statement.name, !unnamed.has(client)),
    text: statement.text,
    values,
  });
  return result.rows;
}
