import { loadConfig } from '../config.js';
import { checkLedger } from '../modules/points/points.ledger-check.js';
import { openCliDatabase } from './cli-database.js';

const USAGE = `Checks the points books: for every customer, the balance, the ledger's sum and the
open lots' points agree, and no lot is taken beyond what it holds.

  npm run check-ledger

Prints the customers that differ (by customer number, with the three figures) and exits 1;
otherwise prints one line and exits 0. Uses DATABASE_URL, or the embedded database in DATA_DIR.`;

/** At most this many disagreeing customers are listed; the count says how many there are. */
const SHOWN = 1_000;

async function main() {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
    return;
  }
  const { database, close } = await openCliDatabase(loadConfig());
  try {
    const started = Date.now();
    const result = await checkLedger(database.db, { show: SHOWN });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result.differing === 0) {
      console.log(
        `Points books agree: ${result.customers} customers, ${result.points} points held (${seconds} s).`,
      );
      return;
    }
    // The customer number only: a mobile number or name is the customer's personal data.
    console.log('custid\tbalance\tledger\tlots\tover-taken');
    for (const row of result.shown) {
      console.log([row.custid, row.balance, row.ledger, row.lots, row.overTaken].join('\t'));
    }
    console.log(
      `Points books disagree for ${result.differing} of ${result.customers} customers` +
        (result.differing > result.shown.length ? ` (first ${result.shown.length} listed)` : '') +
        ` (${seconds} s).`,
    );
    process.exitCode = 1;
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
