import path from 'node:path';
import { SingleBar } from 'cli-progress';
import { sql } from 'drizzle-orm';
import { IMPORT_KINDS, type ImportKind } from '@kanak/contract';
import { loadConfig } from '../config.js';
import { AppError } from '../lib/errors.js';
import { openCliDatabase } from './cli-database.js';

const USAGE = `Imports customers (with their opening points) or running schemes from another
program's CSV or Excel (.xlsx) export, as the owner's Import screen does.

  npm run import -- customers FILE [--dry-run]
  npm run import -- schemes FILE [--dry-run]

--dry-run checks every row and changes nothing. Rows with errors are listed (row, column,
reason) and skipped; importing the same file again changes nothing. Exits 0 when the file was
read (even with bad rows), 1 when it could not be. Uses DATABASE_URL, or the embedded database
in DATA_DIR; the changes are recorded in the first branch, by the command line.`;

async function main() {
  const args = process.argv.slice(2);
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
    return;
  }
  const dryRun = args.includes('--dry-run');
  const [kind, file, ...rest] = args.filter((arg) => arg !== '--dry-run');
  if (!IMPORT_KINDS.includes(kind as ImportKind) || !file || rest.length > 0) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const { database, services, close } = await openCliDatabase(config);
  const bar = new SingleBar({
    format: ' {bar} {percentage}% | {value} rows | {duration}s',
    hideCursor: true,
    clearOnComplete: true,
    stream: process.stderr,
  });
  try {
    const [branch] = (
      await database.db.execute<{ id: number }>(sql`SELECT id FROM branches ORDER BY id LIMIT 1`)
    ).rows;
    const { imports } = services;
    // The file's rows are known once the service has read it through, before the first is
    // written.
    bar.start(0, 0);
    const result = await imports.run(
      kind as ImportKind,
      { id: null, branchId: branch!.id },
      { path: file, filename: path.basename(file) },
      {
        dryRun,
        listAll: true,
        onProgress: ({ rows, total }) => {
          bar.setTotal(total);
          bar.update(rows);
        },
      },
    );
    bar.update(bar.getTotal());
    bar.stop();
    for (const notice of result.notices) console.log(notice);
    if (result.errors.length > 0) {
      // Row numbers and reasons only: the rows' contents are customers' personal data.
      console.log('row\tcolumn\tproblem');
      for (const error of result.errors)
        console.log([error.row, error.column, error.message].join('\t'));
    }
    console.log(
      `${dryRun ? 'Checked (nothing changed)' : 'Imported'}: ${result.rows} rows, ${result.valid} valid, ` +
        `${result.created} new, ${result.updated} updated, ${result.errorCount} errors.`,
    );
  } catch (error) {
    bar.stop();
    if (!(error instanceof AppError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
