import path from 'node:path';
import {
  PAGE_TITLES,
  SHOP_SETTINGS_MESSAGES,
  SHOP_SETTINGS_TEXTS,
  SIDEBAR_LABELS,
} from '@kanak/contract';
import { ADMIN, PHONE } from './support/env';
import { pageOverflow } from './support/geometry';
import { OwnServer } from './support/own-server';
import { expect, sidebarEntry, signIn, test, topBar } from './support/fixtures';

/**
 * The owner names the shop from the browser, on a server of its own (the shared one keeps its
 * name for the other tests): the top bar shows the new name at once, and the sign-in page
 * after signing out; the screen fits a phone.
 */

const texts = SHOP_SETTINGS_TEXTS;

test('the owner renames the shop: the shell and the sign-in page show the new name', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const root = path.dirname(testInfo.config.configFile ?? path.resolve('playwright.config.ts'));
  const server = await OwnServer.create(root, { JOBS: 'off', COMPANY_NAME: 'Kanak Jewellers' });
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await signIn(page, { username: ADMIN.username, password: ADMIN.password });
    await expect(page).toHaveURL(/\/home$/);
    await expect(topBar(page)).toContainText('Kanak Jewellers');

    await sidebarEntry(page, SIDEBAR_LABELS.shopSettings).click();
    await expect(
      page.getByRole('heading', { level: 1, name: PAGE_TITLES.shopSettings }),
    ).toBeVisible();
    const name = page.getByRole('textbox', { name: texts.companyName });
    await expect(name).toHaveValue('Kanak Jewellers');

    // A GSTIN with a typo is refused where it was typed, nothing sent.
    const gstin = page.getByRole('textbox', { name: texts.gstin });
    await gstin.fill('27AAPFU0939F1ZA');
    await page.getByRole('button', { name: texts.save }).click();
    await expect(page.getByText(SHOP_SETTINGS_MESSAGES.gstinCheckDigit)).toBeVisible();

    await gstin.fill('27aapfu0939f1zv');
    await name.fill('Swarna Mahal Jewellers');
    await page.getByRole('button', { name: texts.save }).click();
    await expect(page.getByText(SHOP_SETTINGS_MESSAGES.saved)).toBeVisible();
    await expect(topBar(page)).toContainText('Swarna Mahal Jewellers');
    await expect(gstin).toHaveValue('27AAPFU0939F1ZV');

    await page.setViewportSize(PHONE);
    await expect.poll(() => pageOverflow(page)).toBeLessThanOrEqual(0);

    // A fresh visit to the sign-in page (another browser) shows the new name.
    const visitor = await browser.newPage({ baseURL: server.baseURL });
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('Swarna Mahal Jewellers');
    await visitor.close();
  } finally {
    await context.close();
    await server.dispose();
  }
});
