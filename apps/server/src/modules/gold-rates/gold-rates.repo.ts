import { and, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { GoldRate } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { goldRates, users } from '../../db/schema.js';

const columns = {
  date: goldRates.rateDate,
  rate22kPaise: goldRates.rate22kPaise,
  rate24kPaise: goldRates.rate24kPaise,
  enteredBy: users.username,
  updatedAt: goldRates.updatedAt,
};

type Row = {
  date: string;
  rate22kPaise: number;
  rate24kPaise: number;
  enteredBy: string | null;
  updatedAt: Date;
};

/** Paise back to rupees per gram, as screens and the API show it. */
export const toGoldRate = (row: Row): GoldRate => ({
  date: row.date,
  rate22k: row.rate22kPaise / 100,
  rate24k: row.rate24kPaise / 100,
  enteredBy: row.enteredBy,
  updatedAt: row.updatedAt.toISOString(),
});

export const goldRatesRepo = {
  /** The rates from `from` to `to`, newest first. */
  between(tx: Tx, from: string, to: string) {
    return tx
      .select(columns)
      .from(goldRates)
      .leftJoin(users, eq(users.id, goldRates.updatedBy))
      .where(and(gte(goldRates.rateDate, from), lte(goldRates.rateDate, to)))
      .orderBy(desc(goldRates.rateDate));
  },

  /** The rate entered last before `date`, no earlier than `since`. */
  async lastBefore(tx: Tx, date: string, since: string) {
    const [row] = await tx
      .select(columns)
      .from(goldRates)
      .leftJoin(users, eq(users.id, goldRates.updatedBy))
      .where(and(lt(goldRates.rateDate, date), gte(goldRates.rateDate, since)))
      .orderBy(desc(goldRates.rateDate))
      .limit(1);
    return row;
  },

  async onDate(tx: Tx, date: string) {
    const [row] = await tx
      .select(columns)
      .from(goldRates)
      .leftJoin(users, eq(users.id, goldRates.updatedBy))
      .where(eq(goldRates.rateDate, date));
    return row;
  },

  /**
   * Enter the date's rate, or correct it; the rate before (none for a new date) and after.
   * The insert comes first: of two posts of one new date, the second's insert waits for the
   * first's row at the primary key, and then reads it (locked) as the rate it corrects.
   */
  async save(
    tx: Tx,
    values: { date: string; rate22kPaise: number; rate24kPaise: number; userId: number },
  ) {
    const rates = { rate22kPaise: values.rate22kPaise, rate24kPaise: values.rate24kPaise };
    const [added] = await tx
      .insert(goldRates)
      .values({
        rateDate: values.date,
        ...rates,
        createdBy: values.userId,
        updatedBy: values.userId,
      })
      .onConflictDoNothing({ target: goldRates.rateDate })
      .returning();
    if (added) return { before: undefined, after: added };
    const [before] = await tx
      .select()
      .from(goldRates)
      .where(eq(goldRates.rateDate, values.date))
      .for('update');
    const [after] = await tx
      .update(goldRates)
      .set({ ...rates, updatedBy: values.userId, updatedAt: sql`now()` })
      .where(eq(goldRates.rateDate, values.date))
      .returning();
    return { before: before!, after: after! };
  },
};

export type GoldRatesRepo = typeof goldRatesRepo;
