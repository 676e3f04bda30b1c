import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { ADMIN, PHONE } from './support/env';
import {
  apiLogin,
  csvText,
  dateField,
  expect,
  pageTitle,
  signIn,
  signedIn,
  sidebar,
  sidebarEntry,
  test,
  typeDate,
  uniqueMobile,
  seriousViolationsOn,
} from './support/fixtures';

const NOT_ALLOWED = 'You are not allowed to do this.';

async function post(request: APIRequestContext, token: string, url: string, data: unknown) {
  const response = await request.post(url, {
    data,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  const body = (await response.json()) as { success: boolean; data?: unknown };
  expect(response.status(), `${url}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

async function adminToken(request: APIRequestContext) {
  const { body } = await apiLogin(request, ADMIN.username, ADMIN.password);
  return body.accessToken!;
}

const unique = () => randomUUID().slice(0, 6);

/** A new customer with one points credit, made by the admin. */
async function customerWithPoints(request: APIRequestContext, token: string) {
  const mobile = uniqueMobile();
  const custname = `Audit Test ${mobile.slice(-4)}`;
  await post(request, token, '/api/customers/update-customer-data', {
    formData: { custid: null, mobileno: mobile, custname, city: 'Chennai' },
  });
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
  await post(request, token, '/api/customers/update-points', {
    formData: { MOBILENO: mobile, POINTS: 75, INVDATE: today, CASHCR: 'CR' },
  });
  return { mobile, custname };
}

/** A cashier added by the admin; answers the temporary password shown once. */
async function newCashier(request: APIRequestContext, token: string) {
  const username = `cashier-${unique()}`;
  const body = await post(request, token, '/api/staff/add', {
    username,
    name: `Cashier ${username.slice(-6)}`,
    role: 'cashier',
  });
  return { username, temporary: (body.data as { temporaryPassword: string }).temporaryPassword };
}

test.describe('a cashier with a temporary password', () => {
  test('changes it first, then sees only the counter screens', async ({ page, request }) => {
    const token = await adminToken(request);
    const { mobile, custname } = await customerWithPoints(request, token);
    const { username, temporary } = await newCashier(request, token);

    await page.goto('/');
    await signIn(page, { username, password: temporary });
    const heading = page.getByRole('heading', { name: 'Change your password' });
    await expect(heading).toBeVisible();
    await expect(sidebar(page)).toHaveCount(0);
    expect(await seriousViolationsOn(page), 'Change your password').toEqual([]);

    const own = `Own@${unique()}`.slice(0, 12);
    await page.getByLabel(/^Temporary password/).fill(temporary);
    await page.getByLabel(/^New password/).fill(own);
    await page.getByLabel(/^Confirm new password/).fill(`${own}x`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('The new passwords do not match.')).toBeVisible();
    await page.getByLabel(/^Confirm new password/).fill(own);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(pageTitle(page, /^Counter$/)).toBeVisible();

    // A forbidden screen opened by its address says so (and the role is known from then on).
    for (const [path, title] of [
      ['/home/mobile-app', /^Customize Mobile App$/],
      ['/home/message-configuration', /^Message Configuration$/],
      ['/home/audit', /^Audit Trail$/],
      ['/home/message-templates', /^Message Templates$/],
      ['/home/delivery-log', /^Delivery Log$/],
    ] as const) {
      await page.goto(path);
      await expect(pageTitle(page, title)).toBeVisible();
      await expect(page.getByRole('main').getByText(NOT_ALLOWED)).toBeVisible();
    }

    // The sidebar: the counter's screens, no settings, no audit.
    await expect(sidebarEntry(page, 'Customer Profile')).toBeVisible();
    await expect(sidebarEntry(page, 'Loyalty Points')).toBeVisible();
    await expect(sidebarEntry(page, 'Scheme Summary')).toBeVisible();
    for (const hidden of [
      'Mobile Integration',
      'Message Configuration',
      'Message Templates',
      'Audit Trail',
      'Delivery Log',
    ])
      await expect(sidebarEntry(page, hidden)).toHaveCount(0);

    // Customer Profile: no Export All (the role is already known: same page, no reload).
    await sidebarEntry(page, 'Customer Profile').click();
    await expect(pageTitle(page, /^Customer Profile$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Export All' })).toHaveCount(0);

    // Points Statement: the ledger shows without its edit buttons.
    await sidebarEntry(page, 'Points Statement').click();
    await page.getByRole('combobox', { name: 'Search customer mobile no' }).fill(mobile);
    await page.getByRole('option', { name: `${custname} (+91) ${mobile}` }).click();
    await page.getByRole('button', { name: 'Generate Statement' }).click();
    const table = page.getByRole('table', { name: 'Points statement' });
    await expect(table.getByRole('row').filter({ hasText: 'Total' })).toBeVisible();
    await expect(table.getByRole('button', { name: /^Edit entry/ })).toHaveCount(0);
  });
});

signedIn.describe('Audit Trail', () => {
  signedIn(
    'lists changes with before and after, filters by mobile, downloads CSV',
    async ({ page, request }) => {
      const token = await adminToken(request);
      const { mobile } = await customerWithPoints(request, token);

      await page.goto('/home');
      await sidebarEntry(page, 'Audit Trail').click();
      await expect(pageTitle(page, /^Audit Trail$/)).toBeVisible();
      const table = page.getByRole('table', { name: 'Changes' });
      await expect(table.getByRole('row').filter({ hasText: mobile }).first()).toBeVisible();

      await page.getByLabel('Customer mobile').fill(mobile);
      const today = new Date().toLocaleDateString('en-GB', { timeZone: 'Asia/Kolkata' });
      await typeDate(dateField(page, 'From'), today);
      await typeDate(dateField(page, 'To'), today);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByText(/^Page 1 of 1 · 2 changes$/)).toBeVisible();
      const credit = table.getByRole('row').filter({ hasText: 'Points credited' });
      await expect(credit).toContainText('Credit: 75');
      await expect(credit).toContainText(ADMIN.username);
      const created = table.getByRole('row').filter({ hasText: 'Customer added' });
      await expect(created).toContainText('City: Chennai');
      expect(await seriousViolationsOn(page), 'Audit Trail').toEqual([]);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(
        `audit_log_${today.split('/').reverse().join('-')}.csv`,
      );
      const lines = (await csvText(await file.path())).trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'When,Username,Name,Branch,Entity,Entity ID,Action,Mobile,Before,After',
      );
      expect(lines).toHaveLength(3);
      expect(lines.every((line, i) => i === 0 || line.includes(mobile))).toBe(true);
    },
  );

  signedIn('fits a 390 px phone without sideways scrolling', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/home/audit');
    await expect(pageTitle(page, /^Audit Trail$/)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Changes' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolationsOn(page), 'Audit Trail on a phone').toEqual([]);
  });
});
