import {
  GOLD_RATE_CHECK,
  GOLD_RATE_HISTORY_MAX_DAYS,
  GOLD_RATE_UNUSUAL,
  MESSAGES,
  addDays,
  ratesFarFromLast,
  type GoldRate,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { ConflictError, InvalidInputError } from '../../lib/errors.js';
import type { SessionUser } from '../../plugins/types.js';
import { goldRatesRepo, toGoldRate } from './gold-rates.repo.js';

export type GoldRatesService = ReturnType<typeof createGoldRatesService>;

/** How many days the history shows when no range is asked for. */
const DEFAULT_HISTORY_DAYS = 31;

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** Rupees per gram (at most 2 decimals, checked by the contract) to whole paise. */
const toPaise = (rupees: number) => Math.round(rupees * 100);

/**
 * The Gold rate screen: a manager or the owner enters the day's 22K and 24K rate, or corrects
 * it; everyone sees today's rate and its history.
 */
export function createGoldRatesService({ db, today }: { db: Db; today: () => string }) {
  /**
   * Why the rate needs confirming: far from the last one entered before its date (within a
   * month), or with none, outside the usual band. A mistyped 650 for 6,500 would sell ten
   * times the gold.
   */
  async function unlikely(input: { date: string; rate22k: number; rate24k: number }) {
    const since = addDays(input.date, -GOLD_RATE_CHECK.lookBackDays);
    const last = await goldRatesRepo.lastBefore(db, input.date, since);
    return ratesFarFromLast(input, last && toGoldRate(last));
  }

  return {
    async today(): Promise<GoldRate | null> {
      const row = await goldRatesRepo.onDate(db, today());
      return row ? toGoldRate(row) : null;
    },

    async history(query: {
      from?: string | undefined;
      to?: string | undefined;
    }): Promise<GoldRate[]> {
      const to = query.to ?? (query.from ? addDays(query.from, DEFAULT_HISTORY_DAYS - 1) : today());
      const from = query.from ?? addDays(to, -(DEFAULT_HISTORY_DAYS - 1));
      if (daysBetween(from, to) >= GOLD_RATE_HISTORY_MAX_DAYS) {
        throw new InvalidInputError(MESSAGES.goldRateRangeTooLong(GOLD_RATE_HISTORY_MAX_DAYS));
      }
      return (await goldRatesRepo.between(db, from, to)).map(toGoldRate);
    },

    async save(
      actor: SessionUser,
      input: { date: string; rate22k: number; rate24k: number; confirmed?: boolean | undefined },
    ): Promise<GoldRate & { corrected: boolean }> {
      // A rate is the market's for a day that has come: a future one cannot be known yet, and
      // entered ahead it would price that day's weight installments before anyone saw it.
      if (input.date > today()) throw new InvalidInputError(MESSAGES.goldRateFuture);
      const reasons = await unlikely(input);
      // Refused until staff confirm, with a code the screen answers by asking them.
      if (reasons.length > 0 && !input.confirmed)
        throw new ConflictError(reasons.join(' '), GOLD_RATE_UNUSUAL);
      return db.transaction(async (tx) => {
        const { before, after } = await goldRatesRepo.save(tx, {
          date: input.date,
          rate22kPaise: toPaise(input.rate22k),
          rate24kPaise: toPaise(input.rate24k),
          userId: actor.id,
        });
        const asRupees = (row: { rate22kPaise: number; rate24kPaise: number }) => ({
          rate22k: row.rate22kPaise / 100,
          rate24k: row.rate24kPaise / 100,
        });
        // A rate saved although it looked wrong says so, and why, in the audit trail.
        const confirmed = reasons.length > 0 ? { confirmedUnusual: reasons.join(' ') } : {};
        await recordAudit(tx, {
          userId: actor.id,
          action: before ? 'goldRate.correct' : 'goldRate.add',
          entity: 'goldRate',
          entityId: after.rateDate,
          detail: before
            ? { before: asRupees(before), after: { ...asRupees(after), ...confirmed } }
            : { ...asRupees(after), ...confirmed },
        });
        const saved = await goldRatesRepo.onDate(tx, after.rateDate);
        return { ...toGoldRate(saved!), corrected: Boolean(before) };
      });
    },
  };
}
