import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';

/** How often a file waiting for its turn asks again. */
const RETRY_MS = 100;

/** A turn held: `client` is the primary connection it is held on, inside its transaction. */
export interface Slot {
  client: pg.PoolClient;
  /** Ends the turn. `broken`: the connection may be mid-query, so it is closed, not reused. */
  give(broken?: boolean): Promise<void>;
}

/**
 * Turns for large files, shared by every instance on the database: `atOnce` rows of
 * `export_slots` for `kind`, each held by a row lock in a transaction on the primary for as
 * long as its file runs. A second instance counts against the same rows, so a chain of N
 * instances still runs `atOnce` files at once, not N times as many. An instance that dies
 * drops its connection, and PostgreSQL ends the transaction and frees the row with it.
 *
 * The lock is taken on the primary even when the file reads a replica (a standby takes no row
 * locks). Waiting holds no connection: a file whose turn has not come asks again shortly.
 */
export function createExportSlots(primary: pg.Pool, kind: string, atOnce: number) {
  let made: Promise<unknown> | undefined;
  const makeRows = () =>
    (made ??= primary
      .query(
        `INSERT INTO export_slots (kind, slot)
         SELECT $1, generate_series(0, $2::int - 1) ON CONFLICT DO NOTHING`,
        [kind, atOnce],
      )
      .catch((error: unknown) => {
        made = undefined; // asked again by the next file
        throw error;
      }));

  /** This turn if one is free now, else undefined (and the connection handed back). */
  async function tryTake(): Promise<Slot | undefined> {
    const client = await primary.connect();
    try {
      await client.query('BEGIN');
      const { rowCount } = await client.query(
        `SELECT slot FROM export_slots WHERE kind = $1 AND slot < $2
          ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [kind, atOnce],
      );
      if (rowCount) {
        return {
          client,
          async give(broken = false) {
            if (broken) return client.release(true);
            await client.query('COMMIT').then(
              () => client.release(),
              (error: Error) => client.release(error),
            );
          },
        };
      }
      await client.query('ROLLBACK');
      client.release();
      return undefined;
    } catch (error) {
      client.release(true);
      throw error;
    }
  }

  return {
    /** Waits for a free turn; a database that cannot be reached fails it at once. */
    async take(): Promise<Slot> {
      await makeRows();
      for (;;) {
        const slot = await tryTake();
        if (slot) return slot;
        await sleep(RETRY_MS);
      }
    },
  };
}
