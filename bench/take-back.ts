/**
 * What the benchmark's runs wrote to the points ledger, taken back so that every run measures
 * the same data set: the one place where ledger rows, lots and balances are deleted and set
 * back (the ledger itself never deletes a row). Its data is loaded through the ledger
 * (bench/data.ts, bench/expiry.ts); only the taking back is done here, in SQL.
 */
import type pg from 'pg';

/** The expiry bench's lots are earned and expire on days no real lot has: easy to find. */
export const EARNED_ON = '2000-01-01';
export const EXPIRES_ON = '2002-01-01';
export const NARRATION = 'Bench lot';

/**
 * Takes back what earlier runs' points updates wrote (the bench user's entries, their balance
 * changes, audit rows and idempotency keys), so that every run measures the same data set.
 */
export async function undoBenchWrites(pool: pg.Pool, benchUserId: number) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rowCount } = await client.query(
      // Every credit is a lot: the lots of those entries (and what took from them) go too.
      `WITH mine AS (
         SELECT mrn FROM points_entries WHERE created_by = $1
       ), takes AS (
         DELETE FROM points_lot_takes
          WHERE entry_mrn IN (SELECT mrn FROM mine)
             OR lot_id IN (SELECT id FROM points_lots WHERE entry_mrn IN (SELECT mrn FROM mine))
       ), lots AS (
         DELETE FROM points_lots WHERE entry_mrn IN (SELECT mrn FROM mine)
       ), removed AS (
         DELETE FROM points_entries WHERE created_by = $1 RETURNING customer_id, credit - debit AS delta
       ), per_customer AS (
         SELECT customer_id, sum(delta) AS delta FROM removed GROUP BY customer_id
       )
       UPDATE points_accounts a SET balance = a.balance - p.delta
       FROM per_customer p WHERE a.customer_id = p.customer_id`,
      [benchUserId],
    );
    await client.query(`DELETE FROM audit_log WHERE user_id = $1`, [benchUserId]);
    await client.query(`DELETE FROM idempotency_keys WHERE user_id = $1`, [benchUserId]);
    await client.query('COMMIT');
    if (rowCount) await client.query('VACUUM ANALYZE points_entries, points_accounts, audit_log');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** Takes back the bench lots, their credits and their E rows; balances as they were. */
export async function removeBenchLots(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `WITH gone AS (
         DELETE FROM points_entries
          WHERE invdate IN ($1::date, $2::date) AND ts IN ('M', 'E')
            AND narration IN ($3, 'Points expired, earned ' || to_char($1::date, 'DD-MM-YYYY'))
         RETURNING customer_id, credit - debit AS delta
       ), lots AS (
         DELETE FROM points_lots WHERE earned_on = $1::date AND expires_on = $2::date
       ), per_customer AS (
         SELECT customer_id, sum(delta) AS delta FROM gone GROUP BY customer_id
       )
       UPDATE points_accounts a SET balance = a.balance - p.delta
         FROM per_customer p WHERE a.customer_id = p.customer_id`,
      [EARNED_ON, EXPIRES_ON, NARRATION],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  await pool.query('VACUUM ANALYZE points_lots, points_entries, points_accounts');
}
