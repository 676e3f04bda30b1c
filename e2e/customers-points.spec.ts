import type { Page } from '@playwright/test';
import { PHONE } from './support/env';
import {
  csvText,
  dateField,
  dateShown,
  expect,
  isoDate,
  signedIn as test,
  pickCustomer,
  cells,
} from './support/fixtures';

/**
 * Customers and the loyalty-points ledger: Customer Profile, Edit customer balance and
 * Points Statement, against the real server and database. Texts are the specification's,
 * copied here on purpose rather than imported from the app.
 */
const TEXT = {
  customerSaved: 'Customer profile saved.',
  enterMobile: 'Please enter 10 digits mobile no before proceeding.',
  pointsUpdated: 'Loyalty points updated successfully.',
  requiredFields: 'Please ensure all required fields are completed before proceeding.',
  statementUpdated: 'Statement successfully updated.',
  noStatement: 'No statement generated yet.',
} as const;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 2026-04-01 -> { print: '01-Apr-26', csv: '01 Apr 26', slash: '01/04/2026' } */
function dateFormats(iso: string) {
  const [yyyy, mm, dd] = iso.split('-') as [string, string, string];
  const mmm = MONTHS[Number(mm) - 1];
  return {
    print: `${dd}-${mmm}-${yyyy.slice(2)}`,
    csv: `${dd} ${mmm} ${yyyy.slice(2)}`,
    slash: `${dd}/${mm}/${yyyy}`,
  };
}

const main = (page: Page) => page.getByRole('main');
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** Types into a customer search box and picks the option "Name (+91) mobile". */

test.describe('Customers and loyalty points', () => {
  test('create a customer, allocate and deduct, statement, edit, print, CSV and Export All', async ({
    page,
    request,
    seriousViolations,
    printed,
  }, testInfo) => {
    test.setTimeout(120_000);
    const suffix = String(Date.now()).slice(-9);
    const mobile = `9${suffix}`;
    const name = `Lakshmi Iyer ${suffix.slice(-4)}`;
    const branding = (await (await request.get('/api/app/branding')).json()) as {
      data: { companyName: string; shopAddress: string; shopPhone: string };
    };

    // ---- Customer Profile: a new customer ------------------------------------------------
    await page.goto('/home/customer-profile');
    await expect(main(page).getByRole('heading', { level: 1 })).toHaveText('Customer Profile');
    await expect(
      page.getByRole('heading', { name: 'Create / Update customer profile' }),
    ).toBeVisible();
    const search = page.getByRole('combobox', { name: 'Enter mob no.' });
    await expect(search).toBeFocused();
    expect(await seriousViolations(), 'Customer Profile').toEqual([]);

    await page.getByRole('button', { name: 'SAVE', exact: true }).click();
    await expect(toast(page, TEXT.enterMobile)).toBeVisible();

    await search.fill(mobile);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('City', { exact: true }).fill('Chennai');
    await page.getByLabel('Pincode', { exact: true }).fill('600004');
    await page.getByRole('group', { name: 'Date of Birth' }).click();
    await page.keyboard.type('14051990');
    await expect(page.getByRole('group', { name: 'Date of Birth' })).toContainText('14');
    await page.getByRole('button', { name: 'SAVE', exact: true }).click();
    await expect(toast(page, TEXT.customerSaved)).toBeVisible();
    await expect(search).toHaveValue(`${name} (+91) ${mobile}`);

    // CANCEL empties everything; choosing the customer again fills the form back.
    await page.getByRole('button', { name: 'CANCEL', exact: true }).click();
    await expect(search).toHaveValue('');
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
    await pickCustomer(search, mobile, name);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
    await expect(page.getByLabel('City', { exact: true })).toHaveValue('Chennai');
    await expect(page.getByRole('group', { name: 'Date of Birth' })).toContainText('1990');

    // Export All downloads customer_list.csv.
    const exportDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export All' }).click();
    const exported = await exportDownload;
    expect(exported.suggestedFilename()).toBe('customer_list.csv');
    const customerList = await csvText(await exported.path());
    expect(customerList.split('\r\n')[0]).toContain('Mobile no.');
    expect(customerList).toContain(`${mobile},${name}`);

    // ---- Edit customer balance: allocate 100, deduct 30 -----------------------------------
    await page.goto('/home/loyalty-points');
    await expect(main(page).getByRole('heading', { level: 1 })).toHaveText('Edit customer balance');
    await expect(page.getByRole('heading', { name: 'Modify loyalty points' })).toBeVisible();
    expect(await seriousViolations(), 'Loyalty Points').toEqual([]);
    const pointsSearch = page.getByRole('combobox', { name: 'Search customer Mob no' });
    const allocation = page.getByRole('button', { name: 'Points Allocation' });
    const deduction = page.getByRole('button', { name: 'Points Deduction' });
    const loyaltyPoints = page.getByRole('textbox', { name: 'Loyalty Points' });
    await expect(allocation).toHaveAttribute('aria-pressed', 'false');
    await expect(deduction).toHaveAttribute('aria-pressed', 'false');

    await pickCustomer(pointsSearch, mobile, name);
    await expect(page.getByLabel('Mobile no.')).toHaveValue(mobile);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
    await expect(page.getByRole('status').filter({ hasText: '0 points' })).toBeVisible();
    await loyaltyPoints.pressSequentially('1x0-0');
    await expect(loyaltyPoints).toHaveValue('100');
    await page.getByRole('button', { name: 'UPDATE' }).click();
    await expect(toast(page, TEXT.requiredFields)).toBeVisible();
    await allocation.click();
    await page.getByLabel('Narration').fill('Welcome bonus');
    await page.getByRole('button', { name: 'UPDATE' }).click();
    await expect(toast(page, TEXT.pointsUpdated)).toBeVisible();
    await expect(page.getByLabel('Mobile no.')).toHaveValue('');
    await expect(loyaltyPoints).toHaveValue('');
    await expect(allocation).toHaveAttribute('aria-pressed', 'false');

    await pickCustomer(pointsSearch, mobile, name);
    await expect(page.getByRole('status').filter({ hasText: '100 points' })).toBeVisible();
    await deduction.click();
    await loyaltyPoints.fill('30');
    await page.getByLabel('Narration').fill('Redeemed at counter');
    // The allocation's alert (same text) must be gone first, or this would match it.
    await expect(toast(page, TEXT.pointsUpdated)).toHaveCount(0);
    await page.getByRole('button', { name: 'UPDATE' }).click();
    await expect(toast(page, TEXT.pointsUpdated)).toBeVisible();
    await expect(page.getByLabel('Mobile no.')).toHaveValue('');

    // ---- Points Statement ------------------------------------------------------------------
    await page.goto('/home/statement');
    await expect(main(page).getByRole('heading', { level: 1 })).toHaveText('Points Statement');
    const generate = page.getByRole('button', { name: 'Generate Statement' });
    await expect(generate).toBeDisabled();
    const table = page.getByRole('table', { name: 'Points statement' });
    await expect(table.getByText(TEXT.noStatement)).toBeVisible();
    expect(await seriousViolations(), 'Points Statement').toEqual([]);

    await pickCustomer(
      page.getByRole('combobox', { name: 'Search customer mobile no' }),
      mobile,
      name,
    );
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
    const dfrom = isoDate(await dateShown(dateField(page, 'Date from')));
    const dto = isoDate(await dateShown(dateField(page, 'Date to')));
    expect(dfrom).toMatch(/^\d{4}-04-01$/);
    await generate.click();

    const row = (text: string) => table.getByRole('row').filter({ hasText: text });
    const today = dateFormats(dto);
    await expect(row('Redeemed at counter')).toBeVisible();
    expect(await cells(row('Welcome bonus'))).toEqual([
      '',
      today.slash,
      'Welcome bonus',
      '',
      '100',
      '0',
    ]);
    expect(await cells(row('Redeemed at counter'))).toEqual([
      '',
      today.slash,
      'Redeemed at counter',
      '',
      '0',
      '30',
    ]);
    expect(await cells(row('Total'))).toEqual(['', 'Total', '', '₹0', '100', '30']);
    expect(await cells(row('Balance'))).toEqual(['', 'Balance', '', '', '70', '0']);
    expect(await seriousViolations(), 'Points Statement with rows').toEqual([]);

    // ---- Edit the deduction to 40: the statement regenerates --------------------------------
    await row('Redeemed at counter')
      .getByRole('button', { name: /^Edit entry/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Modify statement' });
    await expect(
      dialog.getByRole('combobox', { name: 'Change customer name & mobile no' }),
    ).toHaveValue(`${name} (+91) ${mobile}`);
    await expect(dialog.getByRole('textbox', { name: 'Loyalty Points' })).toHaveValue('30');
    await expect(dialog.getByRole('button', { name: 'Points Deduction' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await seriousViolations(), 'Modify statement dialog').toEqual([]);
    await dialog.getByRole('textbox', { name: 'Loyalty Points' }).fill('40');
    await dialog.getByRole('button', { name: 'UPDATE' }).click();
    await expect(toast(page, TEXT.statementUpdated)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect.poll(() => cells(row('Balance'))).toEqual(['', 'Balance', '', '', '60', '0']);
    expect(await cells(row('Total'))).toEqual(['', 'Total', '', '₹0', '100', '40']);

    // ---- Print: only the ledger ---------------------------------------------------------------
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await printed()).toBe(1);

    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('navigation')).toBeHidden();
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('contentinfo')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Generate Statement' })).toBeHidden();
    await expect(table).toBeHidden();
    const ledger = page.getByTestId('print-ledger');
    await expect(ledger.getByRole('heading', { name: branding.data.companyName })).toBeVisible();
    await expect(ledger).toContainText(branding.data.shopAddress);
    await expect(ledger).toContainText(branding.data.shopPhone);
    await expect(
      ledger.getByText(
        `Points ledger from ${dateFormats(dfrom).print} to ${dateFormats(dto).print}.`,
      ),
    ).toBeVisible();
    await expect(ledger.getByRole('columnheader')).toHaveText([
      'Date',
      'Narration',
      'Sale Amt.',
      'Credit',
      'Debit',
    ]);
    await expect(ledger.getByRole('row').filter({ hasText: 'Balance' })).toContainText('60');
    const printShot = testInfo.outputPath('points-ledger-print.png');
    await page.screenshot({ path: printShot, fullPage: true });
    await testInfo.attach('points ledger (print media)', {
      path: printShot,
      contentType: 'image/png',
    });
    await page.emulateMedia({ media: 'screen' });
    await expect(ledger).toBeHidden();

    // ---- Download CSV --------------------------------------------------------------------------
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toBe(`points_ledger_${mobile}_${dfrom}_${dto}.csv`);
    const lines = (await csvText(await csv.path())).split('\r\n');
    expect(lines).toEqual([
      'Date,Narration,Sale Amt.,Credit,Debit',
      `${today.csv},Welcome bonus,0.00,100,0`,
      `${today.csv},Redeemed at counter,0.00,0,40`,
      'Total,,0.00,100,40',
      'Balance,,,60,0',
      '',
    ]);
  });

  test('the three screens fit a 390 px phone without sideways scrolling', async ({ page }) => {
    await page.setViewportSize(PHONE);
    for (const [path, title] of [
      ['/home/customer-profile', 'Customer Profile'],
      ['/home/loyalty-points', 'Edit customer balance'],
      ['/home/statement', 'Points Statement'],
    ] as const) {
      await page.goto(path);
      await expect(main(page).getByRole('heading', { level: 1 })).toHaveText(title);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });
});
