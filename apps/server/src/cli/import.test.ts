import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_SECRETS, type TestDatabase } from '../../test/helpers.js';

/**
 * `npm run import` run for real, as a child process: a file of more than one batch with a bad
 * row, checked (nothing changes), imported, imported again (nothing changes), and
 * `npm run check-ledger` agreeing afterwards.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ROWS = 2_500;

let database: TestDatabase;
let dir: string;

async function run(script: string, args: string[] = []) {
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: dir,
    JWT_SECRET: TEST_SECRETS.jwtSecret,
    DATA_KEY: TEST_SECRETS.dataKey,
  };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'npx',
      ['tsx', '--conditions=@kanak/source', path.join('apps/server/src/cli', script), ...args],
      { cwd: ROOT, env, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const counts = async () =>
  (
    await database.sql<Record<string, string>>(`SELECT
      (SELECT count(*) FROM customers) AS customers,
      (SELECT count(*) FROM points_entries WHERE ts = 'O') AS openings,
      (SELECT coalesce(sum(balance), 0) FROM points_accounts) AS points,
      (SELECT count(*) FROM audit_log) AS audit`)
  )[0];

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'kanak-import-cli-'));
});
afterAll(() => database?.drop());

describe('npm run import', () => {
  it('checks, imports in batches, and leaves the points books agreeing', async () => {
    const lines = ['Mobile,Name,Points'];
    for (let i = 0; i < ROWS; i += 1) lines.push(`${9_000_000_000 + i},Customer ${i},${i % 7}`);
    lines.push('12,Bad Mobile,5');
    const file = path.join(dir, 'customers.csv');
    await writeFile(file, lines.join('\n'));
    const before = await counts();

    const check = await run('import.ts', ['customers', file, '--dry-run']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(`${ROWS + 2}\tMobile\tNot a 10-digit Indian mobile number.`);
    expect(check.stdout).toContain(
      `Checked (nothing changed): ${ROWS + 1} rows, ${ROWS} valid, ${ROWS} new`,
    );
    expect(await counts()).toEqual(before);

    const first = await run('import.ts', ['customers', file]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      `Imported: ${ROWS + 1} rows, ${ROWS} valid, ${ROWS} new, 0 updated, 1 errors.`,
    );
    const after = await counts();
    let points = 0;
    for (let i = 0; i < ROWS; i += 1) points += i % 7;
    expect(Number(after!.customers) - Number(before!.customers)).toBe(ROWS);
    expect(Number(after!.points) - Number(before!.points)).toBe(points);

    const again = await run('import.ts', ['customers', file]);
    expect(again.stdout).toContain(`${ROWS} valid, 0 new, 0 updated`);
    expect(await counts()).toEqual(after);

    const ledger = await run('check-ledger.ts');
    expect(ledger.code, ledger.stdout).toBe(0);
    expect(ledger.stdout).toContain('Points books agree');
  }, 300_000);

  it('says why a file cannot be read', async () => {
    const file = path.join(dir, 'renamed.xlsx');
    await writeFile(file, 'Mobile,Name\n9845000000,A');
    const result = await run('import.ts', ['customers', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not an Excel workbook');
  }, 120_000);
});
