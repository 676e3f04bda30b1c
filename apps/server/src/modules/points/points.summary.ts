import { addDays } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { lotsRepo } from './points.lots.js';
import { rulesRepo } from './points.rules.js';

/** How far ahead the profile screens warn of points about to expire. */
export const EXPIRY_WARNING_DAYS = 30;

/**
 * What other modules may read of customers' points: the balance's rupee value under the rules
 * in force, and the points of their lots expiring within the next 30 days.
 */
export const pointsSummaryReader = {
  async summaryOf(tx: Tx, customerId: number, balance: number, today: string) {
    const rules = await rulesRepo.current(tx);
    return {
      pointsValue: (balance * rules.pointValuePaise) / 100,
      pointsExpiringIn30Days: await lotsRepo.expiringBy(
        tx,
        customerId,
        today,
        addDays(today, EXPIRY_WARNING_DAYS),
      ),
    };
  },

  /** What one point is worth under the rules in force, in paise. */
  async pointValuePaise(tx: Tx) {
    return (await rulesRepo.current(tx)).pointValuePaise;
  },

  expiringByCustomer: lotsRepo.expiringByCustomer,
};
export type PointsSummaryReader = typeof pointsSummaryReader;
