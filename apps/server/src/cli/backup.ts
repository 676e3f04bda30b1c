import path from 'node:path';
import { parseArgs } from 'node:util';
import { megabytes, seconds, withDatabase } from './backup-cli.js';

const USAGE = `Back up the whole database into one file, while the server keeps running.

  npm run backup [-- --out <folder>]

Writes kanak-backup-<UTC date>-<time>.gz into the folder (default: BACKUP_DIR, which is
DATA_DIR/backups unless set), reads it back and checks it, and records it on the Backups
screen; in BACKUP_DIR only the newest BACKUP_KEEP are kept. Refused while another backup
(the daily one, or "Back up now") is being made.
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
  await withDatabase(async ({ services }) => {
    const started = Date.now();
    const folder = values.out === undefined ? undefined : path.resolve(values.out);
    const { file, manifest, bytes } = await services.backups.command(folder);
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Backup written: ${file} (${megabytes(bytes)}, ${manifest.tables.length} tables, ` +
        `${rows} rows) in ${seconds(started)}.`,
    );
  });
}

void main();
