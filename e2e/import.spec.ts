import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import {
  csvLine,
  IMPORT_MESSAGES,
  IMPORT_REPORT_COLUMNS,
  IMPORT_TEMPLATES,
  IMPORT_TEXTS,
  PAGE_TITLES,
  type ImportResult,
} from '@kanak/contract';
import {
  addDays,
  cells,
  csvText,
  everyViolationOn,
  expect,
  postAs,
  signedIn as test,
  slashDate,
  storedToken,
  storeToday,
  uniqueMobile,
} from './support/fixtures';
import { misfits, pageOverflow } from './support/geometry';

/**
 * The owner switches from other software: a CSV of customers with opening points is checked
 * on the Import screen (what the import will do, every bad row listed by row, the customer's
 * name, column, the value in the file and reason, the report downloaded), then imported once
 * confirmed, with a progress bar. The API then holds the customers, each balance equal to its
 * ledger; the same file again, as CSV or as an Excel workbook, changes nothing. The template
 * the screen offers, filled in, is checked and imported the same way.
 */

const texts = IMPORT_TEXTS;
const HEADER = ['Mobile No', 'Customer Name', 'City', 'DOB', 'Points', 'Expiry Date'];

interface Imported {
  mobile: string;
  name: string;
  dob: string;
  points: number;
}

/** The file's customers and rows, fresh mobile numbers each run. */
function makeFile() {
  const expires = addDays(storeToday(), 365);
  const asha: Imported = {
    mobile: uniqueMobile(),
    name: 'Asha Verma',
    dob: '1985-08-15',
    points: 1500,
  };
  const ravi: Imported = { mobile: uniqueMobile(), name: 'Ravi Iyer', dob: '', points: 250 };
  const kiran: Imported = {
    mobile: uniqueMobile(),
    name: 'Kiran Rao',
    dob: '1979-12-01',
    points: 0,
  };
  const meena = uniqueMobile();
  // The day first, as Indian software writes it: 15/08/1985 is 15 August, 31/02 no date.
  const rows: (string | number)[][] = [
    [asha.mobile, asha.name, 'Jaipur', '15/08/1985', asha.points, slashDate(expires)],
    [`+91 ${ravi.mobile}`, ravi.name, 'Chennai', '', ravi.points, ''],
    ['98765 4321', 'Short Number', 'Delhi', '', 100, ''],
    [asha.mobile, 'Asha Again', 'Kota', '', 900, ''],
    [meena, 'Meena Shah', 'Surat', '31/02/1990', 100, ''],
    [kiran.mobile, kiran.name, 'Pune', '01/12/1979', '', ''],
  ];
  const csv = [HEADER, ...rows].map((row) => `${row.join(',')}\r\n`).join('');
  return { imported: [asha, ravi, kiran], notImported: [meena], rows, csv };
}

/** The same rows as an Excel export writes them: numbers as numbers, dates as dates. */
async function workbookOf(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Customers');
  sheet.addRow(HEADER);
  for (const row of rows) {
    sheet.addRow(
      row.map((cell) => {
        const date = typeof cell === 'string' && /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(cell);
        // A mobile number as Excel keeps it when typed: a number.
        if (typeof cell === 'string' && /^\d{10}$/.test(cell)) return Number(cell);
        if (date) {
          const [, day, month, year] = date.map(Number) as number[];
          const value = new Date(Date.UTC(year!, month! - 1, day!));
          // An impossible date stays as typed: Excel would keep it as text too.
          return value.getUTCDate() === day ? value : cell;
        }
        return cell;
      }),
    );
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

const expectedErrors = (asha: string) => [
  {
    row: 4,
    name: 'Short Number',
    column: 'Mobile No',
    value: '98765 4321',
    message: IMPORT_MESSAGES.mobile,
  },
  { row: 5, name: 'Asha Again', column: '', value: asha, message: IMPORT_MESSAGES.duplicate(2) },
  { row: 6, name: 'Meena Shah', column: 'DOB', value: '31/02/1990', message: IMPORT_MESSAGES.date },
];

/** A customer's profile balance, and the sum of their ledger since the start. */
async function books(request: APIRequestContext, token: string, mobile: string) {
  const profile = await postAs<{ custname: string; dob: string; points: number }>(
    request,
    token,
    '/api/customers/get-customer-data',
    { mobileno: mobile },
  );
  const statement = await postAs<{ RCREDIT: number; RDEBIT: number; TS: string }[]>(
    request,
    token,
    '/api/customers/generate-statement',
    { MOBILENO: mobile, DFROM: '2000-01-01', DTO: storeToday() },
  );
  return {
    ...profile.data,
    ledger: statement.data.reduce((sum, row) => sum + row.RCREDIT - row.RDEBIT, 0),
    openings: statement.data.filter((row) => row.TS === 'O' && row.RCREDIT > 0).length,
  };
}

/** The file through the API as the screen sends it. */
async function importFile(request: APIRequestContext, token: string, csv: string) {
  const response = await request.post('/api/import/customers', {
    multipart: {
      dryRun: 'false',
      file: { name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
    },
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  const body = (await response.json()) as { data: ImportResult };
  expect(response.status(), JSON.stringify(body)).toBe(200);
  return body.data;
}

async function choose(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
  await expect(page.getByRole('button', { name })).toBeVisible();
}

test('checks a file, lists its bad rows, imports it once with progress', async ({ page }) => {
  const file = makeFile();
  await page.goto('/home/import');
  await expect(page.getByRole('heading', { name: PAGE_TITLES.importData, level: 1 })).toBeVisible();
  const check = page.getByRole('button', { name: texts.check });
  const confirm = page.getByRole('button', { name: texts.confirm });
  const report = page.getByRole('region', { name: texts.report });
  const errorRows = report.getByRole('table').getByRole('row');

  // Clean of every axe finding, minor ones too, as it opens.
  expect(await everyViolationOn(page), 'the Import screen').toEqual([]);

  // ---- The check: nothing changes, every bad row is listed ---------------------------------
  // The file chosen from the keyboard: its button opens the browser's file chooser.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: texts.file, exact: true }).focus();
  await page.keyboard.press('Enter');
  await (
    await chooser
  ).setFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(file.csv) });
  await expect(page.getByRole('button', { name: 'customers.csv' })).toBeVisible();
  await expect(confirm).toHaveCount(0);
  await check.click();
  await expect(report.getByText(texts.checked)).toBeVisible();
  await expect(report).toContainText('3 customers will be imported, 3 rows skipped (see why).');
  await expect(report).toContainText(`${texts.rows}: 6`);
  await expect(report).toContainText(`${texts.valid}: 3`);
  await expect(report).toContainText(`${texts.created}: 3`);
  await expect(report).toContainText(`${texts.errors}: 3`);
  await expect(errorRows).toHaveCount(4);
  await expect(errorRows.first().getByRole('columnheader')).toHaveText([...IMPORT_REPORT_COLUMNS]);
  const listed = await Promise.all(
    [1, 2, 3].map(async (index) => {
      const [row, name, column, value, message] = await cells(errorRows.nth(index));
      return { row: Number(row), name, column, value, message };
    }),
  );
  expect(listed).toEqual(expectedErrors(file.imported[0]!.mobile));

  // Fits the counter PC and passes axe with the report shown, minor findings included.
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  expect(await misfits(report.getByRole('table'))).toEqual([]);
  expect(await everyViolationOn(page), 'the Import screen with its report').toEqual([]);

  // The report as CSV, every bad row in it.
  const downloading = page.waitForEvent('download');
  await report.getByRole('button', { name: texts.download }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(texts.reportFile);
  expect(await csvText((await download.path())!)).toBe(
    [
      'Row,Name,Column,Value in the file,Problem',
      ...expectedErrors(file.imported[0]!.mobile).map(
        ({ row, name, column, value, message }) => `${row},${name},${column},${value},${message}`,
      ),
      '',
    ].join('\r\n'),
  );
  const token = await storedToken(page);
  for (const customer of file.imported) {
    const none = await page.request.post('/api/customers/get-customer-data', {
      data: { mobileno: customer.mobile },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(none.status(), 'a check writes nothing').toBe(404);
  }

  // ---- The import: the bar shows while the server works ------------------------------------
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/import/customers', async (route) => {
    await held;
    await route.continue();
  });
  await confirm.click();
  await expect(page.getByRole('progressbar', { name: texts.importing })).toBeVisible();
  await expect(page.getByRole('button', { name: texts.importing })).toBeDisabled();
  release();
  await expect(report.getByText(IMPORT_MESSAGES.done(3, 0))).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(errorRows).toHaveCount(4);
  await page.unroute('**/api/import/customers');

  // ---- The books, through the API ----------------------------------------------------------
  for (const customer of file.imported) {
    const held = await books(page.request, token, customer.mobile);
    expect(held, customer.name).toMatchObject({
      custname: customer.name,
      dob: customer.dob,
      points: customer.points,
      ledger: customer.points,
      openings: customer.points > 0 ? 1 : 0,
    });
  }
  for (const mobile of file.notImported) {
    const none = await page.request.post('/api/customers/get-customer-data', {
      data: { mobileno: mobile },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(none.status()).toBe(404);
  }

  // ---- The same file again changes nothing: as CSV, then as a workbook on the screen -------
  const again = await importFile(page.request, token, file.csv);
  expect(again).toMatchObject({ rows: 6, valid: 3, created: 0, updated: 0 });
  expect(again.errors).toEqual(expectedErrors(file.imported[0]!.mobile));

  await choose(
    page,
    'customers.xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    await workbookOf(file.rows),
  );
  await check.click();
  await expect(report.getByText(texts.checked)).toBeVisible();
  await expect(report).toContainText(`${texts.sheet}: Customers`);
  await expect(report).toContainText(
    '0 customers will be imported, 3 rows skipped (see why), 3 rows already imported, no change.',
  );
  await confirm.click();
  await expect(report.getByText(IMPORT_MESSAGES.done(0, 0))).toBeVisible();
  await expect(report).toContainText(`${texts.errors}: 3`);

  for (const customer of file.imported) {
    expect(await books(page.request, token, customer.mobile), customer.name).toMatchObject({
      custname: customer.name,
      points: customer.points,
      ledger: customer.points,
      openings: customer.points > 0 ? 1 : 0,
    });
  }
});

test('fills in the template, checks it, and imports it once confirmed', async ({ page }) => {
  await page.goto('/home/import');
  const report = page.getByRole('region', { name: texts.report });

  // ---- The template: the header the import reads and one example row, UTF-8 with BOM -------
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: texts.template }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(texts.templateFile('customers'));
  const template = await csvText((await download.path())!);
  const { header, example } = IMPORT_TEMPLATES.customers;
  expect(template).toBe(csvLine(header) + csvLine(example));

  // ---- Filled in: the example replaced by the shop's rows, numbers as people write them ----
  const dashed = uniqueMobile();
  const plus = uniqueMobile();
  const rows = [
    `${dashed.slice(0, 5)}-${dashed.slice(5)},Dashed Devi,,,Madurai,,,,,300,`,
    `+91 ${plus.slice(0, 5)} ${plus.slice(5)},Plus Prakash,,,Salem,,,,,,`,
    '98400/11009,Slash Singh,,,Erode,,,,,50,',
  ];
  const filled = [template.split('\r\n')[0], ...rows, ''].join('\r\n');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'filled.csv', mimeType: 'text/csv', buffer: Buffer.from(filled) });

  // ---- The check: what the import will do, and why a row is skipped -----------------------
  await page.getByRole('button', { name: texts.check }).click();
  await expect(report).toContainText('2 customers will be imported, 1 row skipped (see why).');
  const token = await storedToken(page);
  for (const mobile of [dashed, plus]) {
    const none = await page.request.post('/api/customers/get-customer-data', {
      data: { mobileno: mobile },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(none.status(), 'a check writes nothing').toBe(404);
  }
  await report.getByRole('button', { name: texts.seeWhy }).click();
  const problems = report.getByRole('table');
  await expect(problems).toBeFocused();
  expect(await cells(problems.getByRole('row').nth(1))).toEqual([
    '4',
    'Slash Singh',
    'Mobile',
    '98400/11009',
    IMPORT_MESSAGES.mobile,
  ]);

  // ---- Confirmed: imported, the numbers as their 10 digits ---------------------------------
  await report.getByRole('button', { name: texts.confirm }).click();
  await expect(report.getByText(IMPORT_MESSAGES.done(2, 0))).toBeVisible();
  await expect(report.getByRole('button', { name: texts.confirm })).toHaveCount(0);
  expect(await books(page.request, token, dashed)).toMatchObject({
    custname: 'Dashed Devi',
    points: 300,
    ledger: 300,
  });
  expect(await books(page.request, token, plus)).toMatchObject({
    custname: 'Plus Prakash',
    points: 0,
  });
});
