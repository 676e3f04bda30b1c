import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { expect, signedIn as test, storedToken } from './support/fixtures';

/**
 * Export All of many customers goes through the browser's own download: the page asks for a
 * single-use link and the download manager streams the file to disk, so the tab never holds
 * the CSV. 10,000 customers are loaded with COPY (`npm run seed:demo`) into the running
 * server's embedded database.
 */

const LOADED = 10_000;
const HEADER =
  'Customer ID,Mobile no.,Name,Email,Address,City,Pincode,State,Date of Birth,Anniversary Date,Aadhaar,PAN,Loyalty points';

/** How many customers the server holds now, by its JSON export. */
async function customerCount(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get('/api/customers/download-customer-data', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: unknown[] }).data.length;
}

test('Export All of 10,000 customers is a browser download with BOM, header and every row', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const dataDir = process.env.KANAK_E2E_DATA_DIR;
  expect(
    dataDir,
    'needs the server started by the e2e global setup (not E2E_BASE_URL)',
  ).toBeTruthy();
  const root = process.cwd();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'JWT_SECRET', 'DATA_KEY'])
    delete env[name];
  const seeded = spawnSync(
    'npm',
    [
      'run',
      '--silent',
      'seed:demo',
      '--',
      '--customers',
      String(LOADED),
      '--entries',
      '0',
      '--schemes',
      '0',
    ],
    { cwd: root, env, encoding: 'utf8', timeout: 90_000 },
  );
  expect(seeded.status, `${seeded.stdout}\n${seeded.stderr}`).toBe(0);

  await page.goto('/home/customer-profile');
  const token = await storedToken(page);
  const before = await customerCount(request, token);
  expect(before).toBeGreaterThanOrEqual(LOADED);

  // The file must not come through the page's own fetch or XHR.
  const fetchedByPage: string[] = [];
  page.on('request', (sent) => {
    if (['fetch', 'xhr'].includes(sent.resourceType()) && sent.url().includes('export-download'))
      fetchedByPage.push(sent.url());
  });
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export All' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('customer_list.csv');
  expect(download.url()).toMatch(/\/api\/customers\/export-download\?ticket=[\w-]{43}$/);
  const bytes = await fs.readFile((await download.path())!);
  const after = await customerCount(request, token);

  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe(HEADER);
  expect(lines.at(-1)).toBe('');
  const rows = lines.length - 2;
  // Other specs may add customers meanwhile: the file holds every customer of its moment.
  expect(rows).toBeGreaterThanOrEqual(before);
  expect(rows).toBeLessThanOrEqual(after);
  expect(fetchedByPage).toEqual([]);

  // The link was single-use.
  const again = await request.get(download.url());
  expect(again.status()).toBe(404);
  expect(await again.json()).toEqual({
    success: false,
    message: 'This download link is not valid or was already used. Please press Export All again.',
  });
});
