import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { PHONE } from './support/env';
import {
  expect,
  signedIn as test,
  storedToken,
  uniqueMobile,
  seriousViolationsOn,
} from './support/fixtures';

/**
 * Customers' data rights on Customer Profile, as the owner: consent per purpose with its
 * history, the customer's data as a JSON download, and erasure with its typed confirmation,
 * refused while a scheme runs.
 */

const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });

async function post(request: APIRequestContext, token: string, url: string, data: unknown) {
  const response = await request.post(url, {
    data,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  const body = (await response.json()) as {
    success: boolean;
    data?: Record<string, unknown>;
    message?: string;
  };
  expect(response.status(), `${url}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** A customer enrolled through the API, with points; returns the profile the server answers. */
async function enrol(page: Page, request: APIRequestContext, name: string) {
  const token = await storedToken(page);
  const mobileno = uniqueMobile('8');
  const custname = `${name} ${mobileno.slice(-4)}`;
  const saved = await post(request, token, '/api/customers/update-customer-data', {
    formData: { custid: null, mobileno, custname, city: 'Jaipur', pan: 'ABCDE1234F' },
  });
  await post(request, token, '/api/customers/update-points', {
    formData: { MOBILENO: mobileno, POINTS: 250, INVDATE: today(), CASHCR: 'CR', NARRATION: '' },
  });
  return { token, custid: saved.data!.custid as number, mobileno, custname };
}

async function openCustomer(page: Page, mobileno: string, custname: string) {
  await page.goto('/home/customer-profile');
  const search = page.getByRole('combobox', { name: 'Enter mob no.' });
  await search.fill(mobileno);
  await page.getByRole('option', { name: new RegExp(custname) }).click();
  await expect(page.getByRole('heading', { name: 'Consent and data rights' })).toBeVisible();
}

const rightsPanel = (page: Page) =>
  page.locator('.MuiPaper-root', {
    has: page.getByRole('heading', { name: 'Consent and data rights' }),
  });

test.describe('customer data rights', () => {
  // Each test enrols its customers through the API and walks several screens' worth of steps.
  test.describe.configure({ timeout: 60_000 });

  test('consent switches record grants and withdrawals, with who, when and how', async ({
    page,
    request,
  }) => {
    await page.goto('/home/customer-profile');
    const customer = await enrol(page, request, 'Consent Test');
    await openCustomer(page, customer.mobileno, customer.custname);
    const panel = rightsPanel(page);
    await expect(panel.getByText(/No consent is recorded for this customer/)).toBeVisible();
    const transactional = panel.getByRole('switch', { name: /WhatsApp notices/ });
    const marketing = panel.getByRole('switch', { name: /Offers and marketing/ });
    await expect(transactional).not.toBeChecked();
    await expect(marketing).not.toBeChecked();

    const record = () => page.getByRole('dialog').getByRole('button', { name: 'Record' }).click();
    // The confirmation by keyboard: Space on the switch asks, Escape records nothing.
    await transactional.focus();
    await page.keyboard.press('Space');
    const confirm = page.getByRole('dialog', { name: 'Record this consent?' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    expect(await seriousViolationsOn(page), 'consent confirmation').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(transactional).not.toBeChecked();
    await transactional.click();
    await record();
    await expect(transactional).toBeChecked();
    await marketing.click();
    await record();
    await expect(marketing).toBeChecked();
    await marketing.click();
    await record();
    await expect(marketing).not.toBeChecked();
    await expect(panel.getByText(/No consent is recorded/)).toHaveCount(0);

    const history = panel.getByRole('table', { name: 'Consent history' });
    await expect(history.getByRole('row')).toHaveCount(4); // the header and three events
    await expect(history.getByText('Withdrawn')).toHaveCount(1);
    await expect(history.getByText('Granted')).toHaveCount(2);
    await expect(history.getByText('admin').first()).toBeVisible();
    await expect(history.getByText(/at the counter, notice /).first()).toBeVisible();

    // The server agrees after a reload.
    await openCustomer(page, customer.mobileno, customer.custname);
    await expect(rightsPanel(page).getByRole('switch', { name: /WhatsApp notices/ })).toBeChecked();
    await expect(
      rightsPanel(page).getByRole('switch', { name: /Offers and marketing/ }),
    ).not.toBeChecked();
    expect(await seriousViolationsOn(page)).toEqual([]);
  });

  test('Download customer data saves a JSON file with the profile, ledger and consents', async ({
    page,
    request,
  }) => {
    await page.goto('/home/customer-profile');
    const customer = await enrol(page, request, 'Download Test');
    await openCustomer(page, customer.mobileno, customer.custname);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download customer data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`customer_${customer.custid}_data.json`);
    const data = JSON.parse(await fs.readFile((await download.path())!, 'utf8')) as {
      profile: { mobileno: string; custname: string; points: number };
      pointsLedger: { credit: number }[];
      consents: Record<string, boolean>;
      noticesSent: unknown[];
    };
    expect(data.profile).toMatchObject({
      mobileno: customer.mobileno,
      custname: customer.custname,
      points: 250,
    });
    expect(data.pointsLedger.map((entry) => entry.credit)).toEqual([250]);
    expect(data.consents).toEqual({ transactional: false, marketing: false });
    expect(data.noticesSent).toEqual([]);
  });

  test('erase asks for the mobile number typed out, is refused while a scheme runs, then frees the number', async ({
    page,
    request,
  }) => {
    await page.goto('/home/customer-profile');
    const customer = await enrol(page, request, 'Erase Test');
    const scheme = await post(request, customer.token, '/api/scheme/generate', {
      custid: customer.custid,
      mobileno: customer.mobileno,
      custname: customer.custname,
      startdt: today(),
      amount: 1000,
    });
    const schemeid = scheme.data!.schemeid as number;
    await post(request, customer.token, '/api/scheme/activate', {
      schemeid,
      date: today(),
      mode: 'cash',
    });
    await openCustomer(page, customer.mobileno, customer.custname);

    await page.getByRole('button', { name: 'Erase customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this customer?' });
    await expect(dialog).toBeVisible();
    expect(await seriousViolationsOn(page)).toEqual([]);
    // Without the typed number nothing is sent.
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await expect(dialog.getByRole('alert')).toContainText(customer.mobileno);
    await dialog.getByRole('textbox').fill(customer.mobileno);
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      `has an active scheme (${schemeid}): it must be closed`,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);

    // A customer without a running scheme is erased; the number enrols again as someone new.
    const other = await enrol(page, request, 'Erase Free');
    await openCustomer(page, other.mobileno, other.custname);
    await page.getByRole('button', { name: 'Erase customer' }).click();
    await dialog.getByRole('textbox').fill(other.mobileno);
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await expect(page.getByText(/^Customer erased\./)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Consent and data rights' })).toHaveCount(0);

    const lookup = await request.post('/api/customers/get-customer-data', {
      data: { mobileno: other.mobileno },
      headers: { Authorization: `Bearer ${other.token}` },
    });
    expect(lookup.status()).toBe(404);
    const again = await post(request, other.token, '/api/customers/update-customer-data', {
      formData: { custid: null, mobileno: other.mobileno, custname: 'New Holder' },
    });
    expect(again.data!.custid).not.toBe(other.custid);
    expect(again.data!.points).toBe(0);
  });

  test('phone (390 px): the panel and the erase dialog fit without sideways scrolling', async ({
    page,
    request,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/home/customer-profile');
    const customer = await enrol(page, request, 'Phone Test');
    await openCustomer(page, customer.mobileno, customer.custname);
    await rightsPanel(page)
      .getByRole('switch', { name: /WhatsApp notices/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Record' }).click();
    await expect(rightsPanel(page).getByText('Granted')).toBeVisible();
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Erase customer' }).click();
    await expect(page.getByRole('dialog', { name: 'Erase this customer?' })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
});
