import { parseArgs } from 'node:util';
import { todayIn } from '@kanak/contract';
import { loadConfig } from '../config.js';
import { migrateDatabase } from '../db/migrate.js';
import { openCliDatabase } from './cli-database.js';
import { loadDemoData } from './load-demo.js';

/**
 * `npm run seed:demo` fills a demo data set; `-- --customers 1000000` builds the benchmark set
 * (10 ledger rows a customer on average), loaded with COPY.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      customers: { type: 'string', default: '300' },
      entries: { type: 'string', default: '10' },
      schemes: { type: 'string' },
    },
  });
  const customers = Number(values.customers);
  const entriesPerCustomer = Number(values.entries);
  if (!Number.isInteger(customers) || customers < 1)
    throw new Error('--customers must be a positive whole number');

  const config = loadConfig();
  const { database, close } = await openCliDatabase(config);
  try {
    await migrateDatabase(database.db);
    const started = Date.now();
    const result = await loadDemoData(database, {
      customers,
      entriesPerCustomer,
      // The benchmark set: a scheme for every customer (about 5 installments each).
      schemes: values.schemes === undefined ? Math.ceil(customers / 2) : Number(values.schemes),
      installments: config.schemeTerms.installments,
      today: todayIn(config.storeTimezone),
      onProgress: (message) => console.log(message),
    });
    console.log(
      `Loaded ${result.customers} customers, ${result.entries} ledger entries, ${result.schemes} schemes and ${result.installments} installments in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
