import { parseArgs } from 'node:util';
import { createFieldCipher } from '../lib/crypto.js';
import { seconds, withDatabase } from './backup-cli.js';
import { restoreBackup } from '../db/backup-file.js';

const USAGE = `Restore a backup made by "npm run backup" into an empty database.

  npm run restore -- <file> [--force] [--skip-key-check]

Stop the server first. Uses DATABASE_URL, or the embedded database in DATA_DIR (created when
missing). The backup's sealed Aadhaar numbers and messaging token need the old installation's
DATA_KEY: set DATA_KEY, or put its secrets.json into DATA_DIR before the first start.

  --force            replace everything in a database that already holds users or customers
  --skip-key-check   restore although DATA_KEY cannot open the sealed fields (old key lost)

See docs/operations.md.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      force: { type: 'boolean' },
      'skip-key-check': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [file] = positionals;
  if (values.help || !file || positionals.length > 1) {
    console.log(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  await withDatabase(async ({ database, secrets }) => {
    const started = Date.now();
    const manifest = await restoreBackup(database.pool, file, {
      force: values.force,
      skipKeyCheck: values['skip-key-check'],
      cipher: createFieldCipher(secrets.dataKey),
    });
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Restored ${file}: ${manifest.tables.length} tables, ${rows} rows, made ${manifest.createdAt} ` +
        `by Kanak ${manifest.appVersion}, in ${seconds(started)}.`,
    );
  });
}

void main();
