import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type * as schema from './schema.js';

/*
 * The database's types, apart from the code that connects to it: what runs inside a
 * transaction (the after-commit actions) takes them without importing the connection that
 * wraps its transactions in turn.
 */

export type Db = NodePgDatabase<typeof schema>;
/** A transaction or the database itself: repos take either, services decide which. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;
