import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { csvText, expect, signedIn as test, storedToken } from './support/fixtures';

/**
 * Stored HTML is shown as text: a customer whose name is markup with an `onerror`
 * handler appears literally on every screen that shows names, on screen and on paper, and
 * nothing of it runs or becomes an element. Names that a spreadsheet would run as a formula
 * are neutralised in the customer export. The database is shared with the other specs: this
 * file makes its own customers with mobile numbers of their own.
 */

const suffix = `${Date.now()}`.slice(-8);
const html = {
  mobileno: `6${suffix}1`,
  custname: `<img src=x onerror="window.__xss=1"><b>bold</b> ${suffix}`,
};
/** Names a spreadsheet would read as formulas (CSV injection). */
const FORMULA_NAMES = ['=1+2', '+91 2', '-5+5', '@SUM(A1)'].map((start, i) => ({
  mobileno: `6${suffix}${i + 2}`,
  custname: `${start} Formula ${suffix}`,
}));

/** Today in the store's time zone (Asia/Kolkata), YYYY-MM-DD. */
const today = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
}).format(new Date());

const state = { schemeid: 0 };

async function post<T>(page: Page, request: APIRequestContext, path: string, data: object) {
  const response = await request.post(`/api/${path}`, {
    data,
    headers: {
      Authorization: `Bearer ${await storedToken(page)}`,
      'Idempotency-Key': randomUUID(),
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { data: T };
}

/** The markup did not run and did not become an element. */
async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('b', { hasText: /^bold$/ })).toHaveCount(0);
}

async function pickCustomer(page: Page, box: Locator) {
  await box.fill(html.mobileno);
  // The option's accessible name is its text: the markup, literally.
  const option = page.getByRole('option', { name: `${html.custname} (+91) ${html.mobileno}` });
  await expect(option).toBeVisible();
  await expectInert(page);
  await option.click();
}

/** Print with the browser's dialog replaced, then show the print media. */
async function showPrint(page: Page, sheet: Locator, printed: () => Promise<number>) {
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  expect(await printed()).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(sheet).toContainText(`Customer: ${html.custname} (+91) ${html.mobileno}`);
  await expectInert(page);
  await page.emulateMedia({ media: 'screen' });
}

test.describe.serial('Stored HTML is shown as text', () => {
  test.describe.configure({ timeout: 90_000 });

  test('set-up: the customer, a points entry and an active scheme, through the API', async ({
    page,
    request,
  }) => {
    await page.goto('/home');
    for (const customer of [html, ...FORMULA_NAMES]) {
      await post(page, request, 'customers/update-customer-data', {
        formData: { custid: null, ...customer },
      });
    }
    await post(page, request, 'customers/update-points', {
      formData: {
        MOBILENO: html.mobileno,
        POINTS: 25,
        NARRATION: '<script>window.__xss=2</script> welcome',
        INVDATE: today,
        CASHCR: 'CR',
      },
    });
    const { data: customer } = await post<{ custid: number }>(
      page,
      request,
      'customers/get-customer-data',
      { mobileno: html.mobileno },
    );
    const { data: scheme } = await post<{ schemeid: number }>(page, request, 'scheme/generate', {
      custid: customer.custid,
      mobileno: html.mobileno,
      custname: html.custname,
      startdt: today,
      amount: 2000,
    });
    state.schemeid = scheme.schemeid;
    await post(page, request, 'scheme/activate', {
      schemeid: scheme.schemeid,
      date: today,
      mode: 'upi',
      reference: '<img src=x onerror="window.__xss=3">',
    });
  });

  test('Customer Profile: the search list and the Name field show the markup as text', async ({
    page,
  }) => {
    await page.goto('/home/customer-profile');
    await pickCustomer(page, page.getByRole('combobox', { name: 'Enter mob no.' }));
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(html.custname);
    await expectInert(page);
  });

  test('Points Statement: on screen and on paper', async ({ page, printed }) => {
    await page.goto('/home/statement');
    await pickCustomer(page, page.getByRole('combobox', { name: 'Search customer mobile no' }));
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(html.custname);
    await page.getByRole('button', { name: 'Generate Statement' }).click();
    const table = page.getByRole('table', { name: 'Points statement' });
    await expect(table).toContainText('<script>window.__xss=2</script> welcome');
    await expectInert(page);
    await showPrint(page, page.getByTestId('print-ledger'), printed);
  });

  test('Scheme Initiation: the Name field and the scheme list', async ({ page }) => {
    await page.goto('/home/scheme-generation');
    await pickCustomer(page, page.getByRole('combobox', { name: 'Search customer mobile no' }));
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(html.custname);
    await expect(page.getByRole('table', { name: 'Customer schemes' })).toContainText(
      String(state.schemeid),
    );
    await expectInert(page);
  });

  test('Scheme Summary and Scheme Statement: rows, statement modal and printouts', async ({
    page,
    printed,
  }) => {
    await page.goto('/home/scheme-summary');
    await pickCustomer(page, page.getByRole('combobox', { name: 'Search customer mobile no' }));
    await page.getByRole('button', { name: 'Generate Summary' }).click();
    const table = page.getByRole('table', { name: 'Scheme summary' });
    await expect(table).toContainText(html.custname);
    await expectInert(page);
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('print-scheme-summary')).toContainText(html.custname);
    await expectInert(page);
    await page.emulateMedia({ media: 'screen' });

    // The row opens the statement modal, with the installment's reference as text.
    await table.getByRole('row').filter({ hasText: html.custname }).click();
    const modal = page.getByRole('dialog', { name: `Statement of Scheme ${state.schemeid}` });
    await expect(modal).toContainText('<img src=x onerror="window.__xss=3">');
    await expectInert(page);
    await modal.getByRole('button', { name: 'Go back' }).click();

    await page.goto('/home/scheme-statement');
    await page.getByRole('textbox', { name: 'Scheme ID' }).fill(String(state.schemeid));
    await page.getByRole('button', { name: 'Generate Statement' }).click();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(html.custname);
    await expect(page.getByRole('table', { name: 'Scheme statement' })).toContainText(
      '<img src=x onerror="window.__xss=3">',
    );
    await expectInert(page);
    await showPrint(page, page.getByTestId('print-scheme-statement'), printed);
  });

  test('Export All: formula-like names are neutralised, the markup is plain text', async ({
    page,
  }) => {
    await page.goto('/home/customer-profile');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export All' }).click();
    const csv = await csvText(await (await downloading).path());
    const lines = csv.split('\r\n');
    for (const { mobileno, custname } of FORMULA_NAMES) {
      const line = lines.find((candidate) => candidate.includes(`,${mobileno},`));
      expect(line, mobileno).toContain(`,${mobileno},'${custname},`);
    }
    // Quotes doubled inside a quoted cell; no apostrophe (it does not start like a formula).
    const htmlLine = lines.find((candidate) => candidate.includes(`,${html.mobileno},`));
    expect(htmlLine).toContain(`,${html.mobileno},"${html.custname.replaceAll('"', '""')}",`);
  });
});
