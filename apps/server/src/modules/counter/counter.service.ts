import { cleanName, MESSAGES, type CounterCustomer } from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { NotFoundError } from '../../lib/errors.js';
import type { CustomersRepo } from '../customers/index.js';
import type { PointsSummaryReader } from '../points/index.js';
import type { SchemesDueReader } from '../schemes/index.js';

export type CounterService = ReturnType<typeof createCounterService>;

interface Deps {
  db: Db;
  today: () => string;
  /** The customer and their balance (the customers module's, the balance the points module's). */
  customers: Pick<CustomersRepo, 'findByMobile'>;
  /** What the balance is worth, the points expiring soon and the tier (the points module's). */
  points: Pick<PointsSummaryReader, 'homeOf'>;
  /** The running schemes with what is overdue and what may be taken today (the schemes module's). */
  schemes: SchemesDueReader;
}

/**
 * The counter home's read of the customer in front of the counter: one round trip for what
 * the cashier tells them and takes from them. Each part is its owning module's own read; this
 * module owns no table. Read on the primary in one snapshot: the hub asks again right after an
 * installment, and must show it.
 */
export function createCounterService({ db, today, customers, points, schemes }: Deps) {
  return {
    customer(mobile: string): Promise<CounterCustomer> {
      return db.transaction(
        async (tx) => {
          const customer = await customers.findByMobile(tx, mobile);
          if (!customer) throw new NotFoundError(MESSAGES.customerNotFound);
          const day = today();
          const home = await points.homeOf(tx, customer.id, customer.pointsBalance, day);
          const running = await schemes.runningOf(tx, customer.id, day);
          // Lots expiring the same day are told as one.
          const expiring: CounterCustomer['points']['expiring'] = [];
          for (const lot of home.expiringSoon) {
            const last = expiring.at(-1);
            if (last?.expiresOn === lot.expiresOn) last.points += lot.points;
            else expiring.push({ points: lot.points, expiresOn: lot.expiresOn });
          }
          return {
            custid: customer.id,
            custname: cleanName(customer.custname),
            mobileno: mobile,
            points: {
              balance: customer.pointsBalance,
              value: home.pointsValue,
              expiringSoon: home.pointsExpiringIn30Days,
              expiring,
            },
            ...(home.tier ? { tier: home.tier } : {}),
            schemes: running,
          };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },
  };
}
