import path from 'node:path';
import { parseArgs } from 'node:util';
import { megabytes, seconds, withDatabase } from './backup-cli.js';
import { writeBackup } from './backup-file.js';

const USAGE = `Back up the whole database into one file, while the server keeps running.

  npm run backup [-- --out <folder>]

Writes kanak-backup-<UTC date>-<time>.gz into the folder (default: DATA_DIR/backups).
Uses DATABASE_URL, or the embedded database in DATA_DIR. The file does not hold
DATA_DIR/secrets.json (JWT_SECRET, DATA_KEY): keep a copy of that apart from the backups.
Restore with: npm run restore -- <file>. See docs/operations.md.`;

async function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  await withDatabase(async ({ database, config }) => {
    const started = Date.now();
    const folder = values.out ?? path.join(config.dataDir, 'backups');
    const { file, manifest, bytes } = await writeBackup(database.pool, folder);
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Backup written: ${file} (${megabytes(bytes)}, ${manifest.tables.length} tables, ` +
        `${rows} rows) in ${seconds(started)}.`,
    );
  });
}

void main();
