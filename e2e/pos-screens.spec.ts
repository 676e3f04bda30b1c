import { PHONE } from './support/env';
import {
  cells,
  dateField,
  dateShown,
  expect,
  isoDate,
  pickCustomer,
  signedIn as test,
} from './support/fixtures';

/**
 * Points from sales, seen by the owner: an API key made on Integrations posts a counter sale;
 * the sale shows on the Points Statement as "Sale" with its balance; the points rules save.
 * Both new screens are accessible and fit a 390 px phone.
 */

/** A mobile number of its own for each run. */
const freshMobile = () => `9${String(Date.now()).slice(-9)}`;

/** Types into a customer search box and picks the option "Name (+91) mobile". */

test.describe('points from sales', () => {
  test('a key made on Integrations posts a sale that shows on the statement; rules save', async ({
    page,
    request,
    seriousViolations,
  }) => {
    test.setTimeout(90_000);
    const label = `Till ${Date.now()}`;
    await page.goto('/home/integrations');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Integrations');
    expect(await seriousViolations(), 'Integrations').toEqual([]);

    await page.getByRole('button', { name: 'Make API key' }).click();
    const form = page.getByRole('dialog', { name: 'Make an API key' });
    await form.getByLabel('Label').fill(label);
    await expect(form.getByLabel('Branch').locator('option')).not.toHaveCount(0);
    await form.getByRole('button', { name: 'Make key' }).click();
    const shown = page.getByRole('dialog', { name: `API key for ${label}` });
    await expect(shown).toContainText('It will not be shown again');
    const key = (await shown.locator('output').textContent())!.trim();
    expect(key).toMatch(/^kk_/);
    expect(await seriousViolations(), 'The new key').toEqual([]);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: label })).toContainText(
      'Active',
    );

    // The counter posts a sale with the key: ₹25,000 of gold at the rules in force.
    const mobile = freshMobile();
    const name = 'Pos Customer';
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
    const sale = await request.post('/api/pos/sales', {
      data: {
        invoiceNo: `INV-${mobile}`,
        invoiceDate: today,
        mobile,
        name,
        lines: [{ description: 'Gold chain', category: 'gold', amount: 25000 }],
      },
      headers: { 'X-Api-Key': key },
    });
    expect(sale.status(), await sale.text()).toBe(200);
    const { balance, points } = (
      (await sale.json()) as { data: { balance: number; points: number } }
    ).data;
    expect(points).toBeGreaterThan(0);
    expect(balance).toBe(points);

    // The Points Statement shows it as a Sale with that balance.
    await page.goto('/home/statement');
    await pickCustomer(
      page.getByRole('combobox', { name: 'Search customer mobile no' }),
      mobile,
      name,
    );
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
    expect(isoDate(await dateShown(dateField(page, 'Date to')))).toBe(today);
    await page.getByRole('button', { name: 'Generate Statement' }).click();
    const table = page.getByRole('table', { name: 'Points statement' });
    const saleRow = table.getByRole('row').filter({ hasText: `INV-${mobile}` });
    await expect(saleRow).toContainText('Sale');
    expect(await cells(table.getByRole('row').filter({ hasText: 'Balance' }))).toContain(
      String(balance),
    );

    // The rules screen saves (the same rules again: later sales earn as before).
    await page.goto('/home/points-rules');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Points Rules');
    await expect(page.getByLabel('Rupees per point')).not.toHaveValue('');
    expect(await seriousViolations(), 'Points Rules').toEqual([]);
    await page.getByRole('button', { name: 'Save rules' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Points rules saved; they apply from now on.' }),
    ).toBeVisible();
  });
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: PHONE });

  for (const path of ['/home/integrations', '/home/points-rules']) {
    test(`${path} fits without sideways scrolling`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: /^(Make API key|Save rules)$/ })).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
    });
  }
});
