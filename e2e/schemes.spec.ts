import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { PHONE } from './support/env';
import {
  addDays,
  csvText,
  dateField,
  expect,
  signedIn as test,
  sidebar,
  slashDate,
  storedToken,
  storeToday,
  typeDate,
} from './support/fixtures';

/**
 * Gold-savings schemes, end to end: start (and refuse, cancel, PAN), activate from the summary,
 * collect an installment on the statement screen, print and CSV, the summary's filters, and axe on
 * the three screens. The database is shared with the other specs: this file makes its own
 * customer with a mobile number of its own.
 */

/** Texts the spec fixes, copied from the specification (deliberately not imported from the app). */
const TEXT = {
  previousPending:
    'The previous scheme installment must be completed before initiating a new scheme.',
  deleteQuestion:
    'Are you sure you want to cancel this scheme? Please note that once canceled, this action cannot be undone.',
  panDialog: 'For schemes valued at ₹16,000 or above, a PAN is mandatory to proceed.',
  panFormat: 'PAN must be a 10-character alphanumeric code.',
  noActiveSchemes: 'Currently, there are no active schemes.',
  noMatch: 'No records match the specified filters.',
  noSummaryResults: 'No results yet.',
  noResults: 'No results yet',
} as const;

const SEARCH = 'Search customer mobile no';

const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

const suffix = `${Date.now()}`.slice(-8) + String(Math.floor(Math.random() * 10));
const person = { mobileno: `7${suffix}`, custname: `Savitri Scheme ${suffix.slice(-4)}` };
const today = storeToday();
/** Two months back: the activation and the next installment fall in different months. */
const startDate = addDays(today, -61);

/** What the serial steps hand on to each other. */
const state = { schemeid: 0 };

async function createCustomer(page: Page, request: APIRequestContext) {
  const token = await storedToken(page);
  const response = await request.post('/api/customers/update-customer-data', {
    data: { formData: { custid: null, ...person } },
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function pickCustomer(page: Page) {
  await page.getByRole('combobox', { name: SEARCH }).fill(person.mobileno);
  await page.getByRole('option', { name: `${person.custname} (+91) ${person.mobileno}` }).click();
}

/** A transient alert (gone after 3 s), waited for a little longer than other things. */
const expectAlert = (page: Page, text: string | RegExp) =>
  expect(page.getByRole('alert').filter({ hasText: text }).first()).toBeVisible({
    timeout: 15_000,
  });

/** The body's data rows of a table named `name`. */
const bodyRows = (page: Page, name: string): Locator =>
  page
    .getByRole('table', { name })
    .locator(':scope > [role="rowgroup"]')
    .nth(1)
    .locator(':scope > [role="row"]');

test.describe.serial('Gold-savings schemes', () => {
  // Each step drives several screens and server round trips on a shared 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  test('Scheme Initiation: 5,000 starts Inactive, a second start is refused, then it is cancelled', async ({
    page,
    request,
  }) => {
    await page.goto('/home/scheme-generation');
    await expect(page.getByRole('heading', { name: 'Generate Scheme', level: 1 })).toBeVisible();
    await createCustomer(page, request);

    await pickCustomer(page);
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(person.custname);
    await expect(page.getByText(TEXT.noActiveSchemes)).toBeVisible();
    await expect(dateField(page, 'Date').locator('input')).toHaveValue(slashDate(today));
    await page.getByRole('textbox', { name: 'Amount' }).fill('5000');
    await page.getByRole('button', { name: 'Generate Scheme' }).click();

    await expectAlert(page, /^Scheme \d+ generated\.$/);
    const rows = bodyRows(page, 'Customer schemes');
    await expect(rows).toHaveCount(1);
    const first = rows.first();
    await expect(first).toContainText('Inactive');
    await expect(first).toContainText('₹5,000');
    await expect(first).toContainText(ddmmyyyy(today));
    await expect(first).toContainText(ddmmyyyy(addDays(today, 364)));
    const firstId = Number(await first.getByRole('cell').first().textContent());

    // A second start while the first is Inactive: the spec's message, nothing generated.
    await page.getByRole('textbox', { name: 'Amount' }).fill('6000');
    await page.getByRole('button', { name: 'Generate Scheme' }).click();
    await expectAlert(page, TEXT.previousPending);
    await expect(rows).toHaveCount(1);

    // Cancel it, after the confirmation.
    await page.getByRole('button', { name: `Delete scheme ${firstId}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete Scheme ${firstId}` });
    await expect(dialog).toContainText(TEXT.deleteQuestion);
    await dialog.getByRole('button', { name: 'CONFIRM' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(TEXT.noActiveSchemes)).toBeVisible();
  });

  test('Scheme Initiation: 20,000 for a customer without PAN asks for the PAN, saves it and generates', async ({
    page,
  }) => {
    await page.goto('/home/scheme-generation');
    await pickCustomer(page);
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(person.custname);
    await typeDate(dateField(page, 'Date'), slashDate(startDate));
    // Two months back is further than staff may date a start: the owner says why.
    await page
      .getByRole('textbox', { name: /^Reason for the earlier date/ })
      .fill('Signed on paper at the exhibition');
    await page.getByRole('textbox', { name: 'Amount' }).fill('20000');
    await page.getByRole('button', { name: 'Generate Scheme' }).click();

    const dialog = page.getByRole('dialog', { name: 'Enter PAN' });
    await expect(dialog).toContainText(TEXT.panDialog);
    const pan = dialog.getByRole('textbox', { name: 'PAN' });
    await pan.fill('ABCDE1234');
    await dialog.getByRole('button', { name: 'SAVE' }).click();
    await expect(dialog.getByText(TEXT.panFormat)).toBeVisible();
    await pan.fill(`ABCDE${suffix.slice(-4)}F`);
    await dialog.getByRole('button', { name: 'SAVE' }).click();
    await expect(dialog).toBeHidden();

    await expectAlert(page, /^Scheme \d+ generated\.$/);
    const rows = bodyRows(page, 'Customer schemes');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('₹20,000');
    await expect(rows.first()).toContainText(ddmmyyyy(startDate));
    await expect(rows.first()).toContainText('Inactive');
    state.schemeid = Number(await rows.first().getByRole('cell').first().textContent());
    expect(state.schemeid).toBeGreaterThan(0);
  });

  test('Scheme Summary: activates the scheme on its start date and regenerates', async ({
    page,
  }) => {
    await page.goto('/home/scheme-summary');
    await expect(page.getByRole('heading', { name: 'Scheme Summary', level: 1 })).toBeVisible();
    await pickCustomer(page);
    await page.getByRole('button', { name: 'Generate Summary' }).click();

    const row = bodyRows(page, 'Scheme summary').filter({ hasText: String(state.schemeid) });
    await expect(row).toContainText('Inactive');
    // An Inactive row opens no statement.
    await row.getByRole('cell').nth(1).click();
    await expect(page.getByRole('dialog')).toBeHidden();

    await row.getByRole('button', { name: `Activate scheme ${state.schemeid}` }).click();
    const dialog = page.getByRole('dialog', { name: `Activate Scheme ${state.schemeid}` });
    await expect(dateField(dialog, /^Date/).locator('input')).toHaveValue(slashDate(today));
    await typeDate(dateField(dialog, /^Date/), slashDate(startDate));
    await dialog
      .getByRole('textbox', { name: /^Reason for the earlier date/ })
      .fill('First installment paid on paper');
    await dialog.getByLabel('Mode').selectOption('cash');
    await dialog.getByRole('button', { name: 'ACTIVATE' }).click();

    // The receipt dialog opens at once, so the success alert sits behind it (aria-hidden).
    await expect(
      page.getByText(
        new RegExp(`^Scheme ${state.schemeid} activated\\. Receipt [A-Z]{2,6}-\\d{6}\\.$`),
      ),
    ).toBeVisible();
    const receipt = page.getByRole('dialog', { name: /^Receipt [A-Z]{2,6}-\d{6}$/ });
    await expect(receipt).toContainText('1 of 11');
    await expect(receipt).toContainText(`${person.custname} (+91) ${person.mobileno}`);
    await receipt.getByRole('button', { name: 'Close' }).click();
    await expect(row).toContainText('Active');
    await expect(row.getByRole('button')).toHaveCount(0);
  });

  test('Scheme Statement: adds an installment, shows both and the total; Print and CSV', async ({
    page,
    printed,
  }) => {
    await page.goto('/home/scheme-statement');
    await page.getByRole('textbox', { name: 'Scheme ID' }).fill(String(state.schemeid));
    await page.getByRole('button', { name: 'Generate Statement' }).click();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(person.custname);
    await expect(page.getByRole('textbox', { name: 'Mobile No.' })).toHaveValue(person.mobileno);
    await expect(bodyRows(page, 'Scheme statement')).toHaveCount(1);

    await page.getByRole('button', { name: 'Add installment' }).click();
    const dialog = page.getByRole('dialog', {
      name: `Add installment to Scheme ${state.schemeid}`,
    });
    await expect(dateField(dialog, /^Date/).locator('input')).toHaveValue(slashDate(today));
    await dialog.getByLabel('Mode').selectOption('upi');
    await dialog.getByLabel('Reference').fill('UTR-E2E-1');
    await dialog.getByRole('button', { name: 'RECORD' }).click();
    const receipt = page.getByRole('dialog', { name: /^Receipt [A-Z]{2,6}-\d{6}$/ });
    await expect(receipt).toContainText('2 of 11');
    await expect(receipt).toContainText('UPI');
    await receipt.getByRole('button', { name: 'Close' }).click();

    const rows = bodyRows(page, 'Scheme statement');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(ddmmyyyy(startDate));
    await expect(rows.nth(1)).toContainText(ddmmyyyy(today));
    await expect(rows.nth(1)).toContainText('UTR-E2E-1');
    const table = page.getByRole('table', { name: 'Scheme statement' });
    await expect(table.locator(':scope > [role="rowgroup"]').nth(2)).toContainText('₹40,000');

    // Print: the browser's print, and on paper the statement alone.
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    expect(await printed()).toBe(1);
    await page.emulateMedia({ media: 'print' });
    const sheet = page.getByTestId('print-scheme-statement');
    await expect(sheet).toBeVisible();
    await expect(sheet).toContainText(`Scheme statement: Scheme ${state.schemeid}`);
    await expect(sheet).toContainText(`Customer: ${person.custname} (+91) ${person.mobileno}`);
    await expect(sheet).toContainText(
      `Start date: ${ddmmyyyy(startDate)} · Maturity date: ${ddmmyyyy(addDays(startDate, 364))}`,
    );
    await expect(sheet).toContainText('₹40,000');
    await expect(sheet.locator('tbody tr')).toHaveCount(2);
    await expect(sidebar(page)).toBeHidden();
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Generate Statement' })).toBeHidden();
    await expect(page.getByRole('table', { name: 'Scheme statement' })).toBeHidden();
    const printShot = test.info().outputPath('statement-print.png');
    await page.screenshot({ path: printShot, fullPage: true });
    await test.info().attach('statement-print', { path: printShot, contentType: 'image/png' });
    await page.emulateMedia({ media: 'screen' });

    // CSV of the rows.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`scheme_statement_${state.schemeid}.csv`);
    const csv = (await csvText(await download.path())).split('\r\n');
    expect(csv[0]).toBe('S no.,Installment Date,Narration,Amount');
    expect(csv[1]).toMatch(new RegExp(`^1,${ddmmyyyy(startDate)},.*,20000$`));
    expect(csv[2]).toMatch(new RegExp(`^2,${ddmmyyyy(today)},.*UTR-E2E-1.*,20000$`));
  });

  test('Scheme Summary: filters by status, dates and mobile; the row opens the statement; CSV and Print', async ({
    page,
  }) => {
    await page.goto('/home/scheme-summary');
    await pickCustomer(page);
    const status = page.getByLabel('Status');
    const generate = page.getByRole('button', { name: 'Generate Summary' });
    const rows = bodyRows(page, 'Scheme summary');

    await status.selectOption('Active');
    await generate.click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(String(state.schemeid));
    await expect(rows.first()).toContainText(ddmmyyyy(startDate));
    const footer = page
      .getByRole('table', { name: 'Scheme summary' })
      .locator(':scope > [role="rowgroup"]')
      .nth(2);
    await expect(footer).toContainText('₹20,000');

    // The row opens the large statement modal; Go back closes it.
    await rows.first().click();
    const modal = page.getByRole('dialog', { name: `Statement of Scheme ${state.schemeid}` });
    await expect(bodyRows(page, 'Scheme statement')).toHaveCount(2);
    await expect(modal).toContainText('₹40,000');
    await modal.getByRole('button', { name: 'Go back' }).click();
    await expect(modal).toBeHidden();

    // CSV of the listed rows.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = (await csvText(await (await downloading).path())).split('\r\n');
    expect(csv[0]).toBe('Scheme ID,Name,Mobile No,Start Date,Amount (₹),Status');
    expect(csv[1]).toBe(
      `${state.schemeid},${person.custname},${person.mobileno},${ddmmyyyy(startDate)},20000,Active`,
    );

    // Printed: the summary sheet only.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('print-scheme-summary')).toBeVisible();
    await expect(page.getByTestId('print-scheme-summary')).toContainText(person.custname);
    await expect(generate).toBeHidden();
    await page.emulateMedia({ media: 'screen' });

    // Inactive and Matured: nothing for this customer.
    for (const label of ['Inactive', 'Matured']) {
      await status.selectOption(label);
      await generate.click();
      await expectAlert(page, TEXT.noMatch);
      await expect(page.getByText(TEXT.noSummaryResults)).toBeVisible();
    }

    // A start-date range after the scheme's start leaves it out; one around it finds it.
    await status.selectOption('All');
    await typeDate(dateField(page, 'From'), slashDate(addDays(startDate, 1)));
    await generate.click();
    await expect(page.getByText(TEXT.noSummaryResults)).toBeVisible();
    await typeDate(dateField(page, 'From'), slashDate(addDays(startDate, -1)));
    await typeDate(dateField(page, 'To'), slashDate(startDate));
    await generate.click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Active');
  });
});

test.describe('Scheme screens', () => {
  test.describe.configure({ timeout: 90_000 });

  test('axe: no serious or critical violation on the three screens', async ({
    page,
    seriousViolations,
  }) => {
    await page.goto('/home/scheme-generation');
    await expect(page.getByRole('heading', { name: 'Generate Scheme', level: 1 })).toBeVisible();
    await expect(page.getByText(TEXT.noActiveSchemes)).toBeVisible();
    expect(await seriousViolations()).toEqual([]);

    await page.goto('/home/scheme-statement');
    await expect(page.getByRole('heading', { name: 'Scheme Statement', level: 1 })).toBeVisible();
    await expect(page.getByText(TEXT.noResults, { exact: true })).toBeVisible();
    expect(await seriousViolations()).toEqual([]);

    await page.goto('/home/scheme-summary');
    await expect(page.getByRole('heading', { name: 'Scheme Summary', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Generate Summary' }).click();
    await expect(page.getByRole('button', { name: 'Generate Summary' })).toBeEnabled();
    expect(await seriousViolations()).toEqual([]);
  });

  test('phone (390 px): the three screens fit the width; wide tables scroll inside themselves', async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    for (const [path, title] of [
      ['/home/scheme-generation', 'Generate Scheme'],
      ['/home/scheme-statement', 'Scheme Statement'],
      ['/home/scheme-summary', 'Scheme Summary'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });
});
