import pino from 'pino';
import { formatSlashDate, isIsoDate, todayIn } from '@kanak/contract';
import { loadConfig } from '../config.js';
import { runJobNow, SCHEDULED_JOBS, type JobName } from '../jobs.js';
import { openCliDatabase } from './cli-database.js';

const NAMES = Object.keys(SCHEDULED_JOBS) as JobName[];
/** How long to wait for a run already under way: a daily job's runs expire after 2 hours. */
const WAIT_MINUTES = 30;
const DAILY = NAMES.filter((name) => SCHEDULED_JOBS[name].takesDay);

const USAGE = `Runs one scheduled background job now, with the same code and the same lock as its
schedule: while another run of it is under way (the schedule's, or another command's), this
one waits for it to end.

  npm run job -- <name> [--as-of YYYY-MM-DD]

The jobs:
${NAMES.map((name) => `  ${name}${SCHEDULED_JOBS[name].takesDay ? '  (daily; takes --as-of)' : ''}`).join('\n')}

--as-of runs a daily job for a past day (default: today in STORE_TIMEZONE), e.g. a day the
server was off. Exits 0 when the run is done, 1 when it failed (pg-boss retries it, as it
retries the schedule's runs) or another run did not end within ${WAIT_MINUTES} minutes, 2 on a
wrong name or option. Uses DATABASE_URL, or the embedded database in DATA_DIR.`;

/** The name and day asked for, or what is wrong with the command line. */
function parse(args: string[]): { name: JobName; asOf?: string } | string {
  const rest = [...args];
  let asOf: string | undefined;
  const at = rest.indexOf('--as-of');
  if (at !== -1) {
    asOf = rest[at + 1];
    rest.splice(at, 2);
    if (asOf === undefined || !isIsoDate(asOf)) return '--as-of takes a date: YYYY-MM-DD.';
  }
  const [name, ...extra] = rest;
  if (name === undefined) return 'Name a job.';
  if (!NAMES.includes(name as JobName)) return `No job is named "${name}".`;
  if (extra.length > 0) return `Unexpected: ${extra.join(' ')}`;
  if (asOf !== undefined && !DAILY.includes(name as JobName))
    return `${name} works on no particular day: it takes no --as-of.`;
  return { name: name as JobName, ...(asOf ? { asOf } : {}) };
}

async function main() {
  const args = process.argv.slice(2);
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
    return;
  }
  const asked = parse(args);
  if (typeof asked === 'string') {
    console.error(`${asked}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  // Expiring points or reviewing tiers as of a day still to come would act before its time.
  const today = todayIn(config.storeTimezone);
  if (asked.asOf && asked.asOf > today) {
    console.error(
      `--as-of ${formatSlashDate(asked.asOf)} is after today (${formatSlashDate(today)}): a job runs for today or a day gone by.`,
    );
    process.exitCode = 2;
    return;
  }
  const { url, services, close } = await openCliDatabase(config);
  const day = SCHEDULED_JOBS[asked.name].takesDay
    ? ` for ${formatSlashDate(asked.asOf ?? today)}`
    : '';
  try {
    console.log(`Running ${asked.name}${day}…`);
    const started = Date.now();
    const result = await runJobNow(
      // The job's own lines (what it did) go to the output as the server would log them.
      { connectionString: url, log: pino({ level: 'info' }), services },
      {
        ...asked,
        waitMs: WAIT_MINUTES * 60_000,
        onWait: () =>
          console.log(`Another run of ${asked.name} is under way; waiting for it to end…`),
      },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result === 'done') {
      console.log(`${asked.name}${day}: done (${seconds} s).`);
    } else {
      console.error(
        `${asked.name}: another run was still under way after ${WAIT_MINUTES} minutes; nothing was run.`,
      );
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(`${asked.name}${day} failed: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
