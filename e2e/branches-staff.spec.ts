import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { PHONE } from './support/env';
import {
  apiLogin,
  apiUpdatePassword,
  expect,
  signIn,
  signedIn,
  storedToken,
  test,
  topBar,
  seriousViolationsOn,
} from './support/fixtures';

/**
 * A chain of showrooms: the owner adds a branch and a cashier for it on the Branches and Staff
 * screens; that cashier's receipts and printouts carry the branch's own address. Both screens
 * are accessible and fit a 390 px phone.
 */

/** A code of its own for each run's branch: 2 to 6 capital letters. */
const letters = () =>
  Array.from({ length: 4 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join(
    '',
  );

async function post(request: APIRequestContext, token: string, url: string, data: unknown) {
  const response = await request.post(url, {
    data,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  const body = (await response.json()) as { success: boolean; data?: unknown };
  expect(response.status(), `${url}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

const storeToday = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });

signedIn.describe('the owner runs the chain', () => {
  signedIn(
    'adds a branch and a cashier for it; the cashier’s receipt and printout carry the branch’s address',
    async ({ page, request, browser, baseURL }) => {
      // Two screens, two sessions and a receipt: longer than one screen's test.
      signedIn.setTimeout(90_000);
      const code = `E${letters()}`;
      const branch = {
        name: `Showroom ${code}`,
        address: `${code.length} Residency Road, Bengaluru 560025`,
        phone: '+91 80 2558 0000',
      };

      // Branches: add, then correct the address.
      await page.goto('/home/branches');
      await expect(page.getByRole('heading', { name: 'Branches', level: 1 })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Branches' })).toContainText('MAIN');
      expect(await seriousViolationsOn(page), 'Branches screen').toEqual([]);
      await page.getByRole('button', { name: 'Add branch' }).click();
      let dialog = page.getByRole('dialog', { name: 'Add a branch' });
      await dialog.getByLabel('Code').fill(code.toLowerCase());
      await expect(dialog.getByLabel('Code')).toHaveValue(code);
      await dialog.getByLabel('Branch name').fill(branch.name);
      await dialog.getByLabel('Address').fill('wrong address');
      await dialog.getByLabel('Phone').fill(branch.phone);
      expect(await seriousViolationsOn(page), 'Branch form').toEqual([]);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await page.getByRole('button', { name: `Edit branch ${code}` }).click();
      dialog = page.getByRole('dialog', { name: `Edit branch ${code}` });
      await dialog.getByLabel('Address').fill(branch.address);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('table', { name: 'Branches' })).toContainText(branch.address);

      // Staff: add a cashier of the new branch; the temporary password is shown once.
      const username = `cash.${code.toLowerCase()}`;
      await page.getByRole('navigation').getByRole('link', { name: 'Staff', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Staff accounts' })).toContainText('admin');
      expect(await seriousViolationsOn(page), 'Staff screen').toEqual([]);
      await page.getByRole('button', { name: 'Add staff' }).click();
      dialog = page.getByRole('dialog', { name: 'Add a staff account' });
      await dialog.getByLabel('Username', { exact: true }).fill(username);
      await dialog.getByLabel('Name', { exact: true }).fill(`Cashier ${code}`);
      await dialog.getByLabel('Role').selectOption('cashier');
      await dialog.getByLabel('Branch').selectOption(code);
      await dialog.getByRole('button', { name: 'Save' }).click();
      const shown = page.getByRole('dialog', { name: `Temporary password of ${username}` });
      await expect(shown).toBeVisible();
      expect(await seriousViolationsOn(page), 'temporary password dialog').toEqual([]);
      const temporary = (await shown.locator('output').textContent())?.trim() ?? '';
      expect(temporary).toMatch(/^.{15}$/);
      await shown.getByRole('button', { name: 'Close' }).click();
      const row = page.getByRole('row').filter({ hasText: username });
      await expect(row).toContainText(code);
      await expect(row).toContainText('Cashier');
      await expect(row).toContainText('Temporary password');

      // Reset with confirmation: a new temporary password, shown once.
      await page.getByRole('button', { name: `Reset password of ${username}` }).click();
      const confirm = page.getByRole('dialog', { name: `Reset the password of ${username}?` });
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      const again = page.getByRole('dialog', { name: `Temporary password of ${username}` });
      const reset = (await again.locator('output').textContent())?.trim() ?? '';
      expect(reset).toMatch(/^.{15}$/);
      expect(reset).not.toBe(temporary);
      await again.getByRole('button', { name: 'Close' }).click();

      // The cashier changes the temporary password, then takes an installment.
      const first = await apiLogin(request, username, reset);
      const password = 'Branch@2026x';
      const changed = await apiUpdatePassword(request, first.body.accessToken!, {
        username,
        oldpassword: reset,
        newpassword: password,
      });
      expect(changed.status).toBe(200);
      const cashierToken = changed.body.accessToken!;
      const owner = await storedToken(page);
      const mobile = `8${String(Date.now()).slice(-9)}`;
      const saved = await post(request, owner, '/api/customers/update-customer-data', {
        formData: { custid: null, mobileno: mobile, custname: `Branch Customer ${code}` },
      });
      const custid = (saved.data as { custid: number }).custid;
      const generated = await post(request, cashierToken, '/api/scheme/generate', {
        custid,
        mobileno: mobile,
        custname: `Branch Customer ${code}`,
        startdt: storeToday(),
        amount: 2000,
      });
      const schemeid = (generated.data as { schemeid: number }).schemeid;
      const activated = await post(request, cashierToken, '/api/scheme/activate', {
        schemeid,
        date: storeToday(),
        mode: 'cash',
      });
      const receiptNo = (activated.data as { receiptNo: string }).receiptNo;
      expect(receiptNo).toBe(`${code}-000001`);

      // Signed in as the cashier: the top bar names the branch; the receipt and the
      // statement's printout carry its address, not the shop's.
      const context = await browser.newContext({
        baseURL,
        storageState: { cookies: [], origins: [] },
      });
      const cashier = await context.newPage();
      try {
        await cashier.goto('/');
        await signIn(cashier, { username, password });
        await expect(cashier).toHaveURL(/\/home\/counter$/);
        await expect(topBar(cashier)).toContainText(code);
        await cashier.goto(`/home/scheme-statement?schemeid=${schemeid}`);
        const table = cashier.getByRole('table', { name: 'Scheme statement' });
        await table.getByRole('button', { name: `Reprint receipt ${receiptNo}` }).click();
        const receipt = cashier.getByRole('dialog', { name: `Receipt ${receiptNo}` });
        await expect(receipt).toContainText(branch.address);
        await expect(receipt).toContainText(branch.phone);
        await receipt.getByRole('button', { name: 'Close' }).click();
        await cashier.emulateMedia({ media: 'print' });
        await expect(cashier.getByTestId('print-scheme-statement')).toContainText(branch.address);
      } finally {
        await context.close();
      }
    },
  );

  signedIn('disables and enables an account after confirmation', async ({ page, request }) => {
    const username = `temp.${letters().toLowerCase()}`;
    await post(request, await tokenOf(page), '/api/staff/add', {
      username,
      name: 'Seasonal Helper',
      role: 'cashier',
    });
    await page.goto('/home/staff');
    await page.getByRole('button', { name: `Disable ${username}` }).click();
    const confirm = page.getByRole('dialog', { name: `Disable ${username}?` });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const row = page.getByRole('row').filter({ hasText: username });
    await expect(row).toContainText('Disabled');
    expect((await apiLogin(request, username, 'whatever-pass1')).status).not.toBe(200);
    await page.getByRole('button', { name: `Enable ${username}` }).click();
    await page
      .getByRole('dialog', { name: `Enable ${username}?` })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await expect(row).toContainText('Active');
  });
});

/** The owner's token, once the page has one. */
async function tokenOf(page: Page) {
  await page.goto('/home');
  await expect(topBar(page)).toBeVisible();
  return storedToken(page);
}

signedIn.describe('on a 390 px phone', () => {
  signedIn.use({ viewport: PHONE });

  for (const path of ['/home/staff', '/home/branches']) {
    signedIn(`${path} fits without sideways scrolling`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('table')).toContainText(/admin|MAIN/);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      const add = page.getByRole('button', { name: /^Add (staff|branch)$/ });
      const box = await add.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    });
  }
});

test('a signed-out visitor reaching the Staff screen is sent to sign in', async ({ page }) => {
  await page.goto('/home/staff');
  await expect(page).toHaveURL(/\/$/);
});
