import type { APIRequestContext, Page } from '@playwright/test';
import {
  addDays,
  adminToken,
  expect,
  lateEntryReason,
  newCustomer,
  newStaff,
  pickCustomer,
  postAs as post,
  seriousViolationsOn,
  signIn,
  startScheme,
  storeToday,
  test,
  uniqueMobile,
} from './support/fixtures';

/**
 * Scheme work where the counter does it, as a cashier and a manager: activating a new scheme on
 * its Scheme Initiation row and on its statement, only the actions the role may take, Add
 * installment off once this month is paid with next month on offer in advance, and DUPLICATE
 * on a reprinted receipt. Customers and schemes are made through the API by the admin.
 */

const today = storeToday();
const mmyyyy = (iso: string) => `${iso.slice(5, 7)}-${iso.slice(0, 4)}`;
const monthAfter = (iso: string) => {
  const [year, month] = [Number(iso.slice(0, 4)), Number(iso.slice(5, 7))];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
};
const nextMonth = mmyyyy(monthAfter(today));

/** A customer with a new (Inactive) scheme started on `startdt`. */
async function customerWithScheme(request: APIRequestContext, token: string, startdt: string) {
  const mobileno = uniqueMobile('8');
  const custname = `Counter Scheme ${mobileno.slice(-4)}`;
  const custid = await newCustomer(request, token, { mobileno, custname });
  const schemeid = await startScheme(request, token, {
    custid,
    mobileno,
    custname,
    startdt,
    amount: 1500,
  });
  return { mobileno, custname, schemeid };
}

async function signInAs(page: Page, who: { username: string; password: string }) {
  await page.goto('/');
  await signIn(page, who);
  await expect(page).toHaveURL(/\/home/);
}

async function openStatement(page: Page, schemeid: number) {
  await page.goto(`/home/scheme-statement?schemeid=${schemeid}`);
  await expect(page.getByText(/ of 11 paid$/)).toBeVisible();
}

test.describe('scheme actions at the counter', () => {
  test.setTimeout(120_000);

  test('a cashier activates a new scheme on its Scheme Initiation row and prints the receipt', async ({
    page,
    request,
    printed,
  }) => {
    const token = await adminToken(request);
    const customer = await customerWithScheme(request, token, today);
    await signInAs(page, await newStaff(request, token, 'cashier'));
    await page.goto('/home/scheme-generation');
    await pickCustomer(
      page.getByRole('combobox', { name: 'Search customer mobile no' }),
      customer.mobileno,
      customer.custname,
    );
    const table = page.getByRole('table', { name: 'Customer schemes' });
    // A cashier cannot cancel a scheme, so is not offered Delete.
    await expect(
      table.getByRole('button', { name: `Activate scheme ${customer.schemeid}` }),
    ).toBeVisible();
    await expect(
      table.getByRole('button', { name: `Delete scheme ${customer.schemeid}` }),
    ).toHaveCount(0);
    expect(await seriousViolationsOn(page), 'Scheme Initiation with Activate').toEqual([]);

    await table.getByRole('button', { name: `Activate scheme ${customer.schemeid}` }).click();
    const dialog = page.getByRole('dialog', { name: `Activate Scheme ${customer.schemeid}` });
    await dialog.getByLabel('Mode').selectOption('upi');
    await dialog.getByLabel('Reference').fill('UTR 4411');
    expect(await seriousViolationsOn(page), 'activation dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'ACTIVATE' }).click();

    const receipt = page.getByRole('dialog', { name: /^Receipt / });
    await expect(receipt).toContainText('UTR 4411');
    await expect(receipt).toContainText('1 of 11');
    // The first print is the original.
    await expect(receipt.getByText('DUPLICATE')).toHaveCount(0);
    await receipt.getByRole('button', { name: 'Print' }).click();
    expect(await printed()).toBe(1);
    await receipt.getByRole('button', { name: 'Close' }).click();
    await expect(table.getByText('Active', { exact: true })).toBeVisible();
  });

  test('a cashier activates a new scheme from its statement', async ({ page, request }) => {
    const token = await adminToken(request);
    const customer = await customerWithScheme(request, token, today);
    await signInAs(page, await newStaff(request, token, 'cashier'));
    await openStatement(page, customer.schemeid);
    await page.getByRole('button', { name: `Activate scheme ${customer.schemeid}` }).click();
    const dialog = page.getByRole('dialog', { name: `Activate Scheme ${customer.schemeid}` });
    await dialog.getByRole('button', { name: 'ACTIVATE' }).click();
    const receipt = page.getByRole('dialog', { name: /^Receipt / });
    await expect(receipt).toContainText('1 of 11');
    await receipt.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByText('1 of 11 paid')).toBeVisible();
  });

  test('a cashier is not offered Close scheme; a manager is', async ({
    browser,
    page,
    request,
  }) => {
    const token = await adminToken(request);
    // Started 340 days ago and every installment paid (the owner entering the old slips, with a
    // reason): it can be closed. (A scheme already past its maturity cannot be started.)
    const start = addDays(today, -340);
    const customer = await customerWithScheme(request, token, start);
    await post(request, token, '/api/scheme/activate', {
      schemeid: customer.schemeid,
      date: start,
      mode: 'upi',
      ...lateEntryReason(start),
    });
    // 31 days apart: each in a month of its own, the last a month ago.
    for (let k = 1; k <= 10; k++) {
      const date = addDays(start, 31 * k);
      await post(request, token, '/api/scheme/add-installment', {
        schemeid: customer.schemeid,
        date,
        mode: 'upi',
        ...lateEntryReason(date),
      });
    }

    await signInAs(page, await newStaff(request, token, 'cashier'));
    await openStatement(page, customer.schemeid);
    await expect(page.getByRole('button', { name: /^Reprint receipt / })).toHaveCount(11);
    await expect(page.getByRole('button', { name: 'Close scheme' })).toHaveCount(0);

    const managerContext = await browser.newContext();
    const managerPage = await managerContext.newPage();
    await signInAs(managerPage, await newStaff(request, token, 'manager'));
    await openStatement(managerPage, customer.schemeid);
    await expect(managerPage.getByRole('button', { name: 'Close scheme' })).toBeVisible();
    await managerContext.close();
  });

  test('Add installment is off with the reason once this month is paid; next month is taken in advance, once', async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const start = addDays(today, -40);
    const customer = await customerWithScheme(request, token, start);
    await post(request, token, '/api/scheme/activate', {
      schemeid: customer.schemeid,
      date: start,
      mode: 'upi',
      ...lateEntryReason(start),
    });
    await post(request, token, '/api/scheme/add-installment', {
      schemeid: customer.schemeid,
      date: today,
      mode: 'upi',
    });

    await signInAs(page, await newStaff(request, token, 'cashier'));
    await openStatement(page, customer.schemeid);
    const add = page.getByRole('button', { name: 'Add installment', exact: true });
    await expect(add).toBeDisabled();
    const reason = `The installment for ${mmyyyy(today)} is already recorded.`;
    await expect(page.getByText(reason)).toBeVisible();
    await expect(add).toHaveAccessibleDescription(reason);
    expect(await seriousViolationsOn(page), 'statement with this month paid').toEqual([]);

    await page.getByRole('button', { name: `Take ${nextMonth} in advance` }).click();
    const dialog = page.getByRole('dialog', {
      name: new RegExp(`^Installment for ${nextMonth} in advance`),
    });
    await dialog.getByRole('button', { name: 'RECORD' }).click();
    const receipt = page.getByRole('dialog', { name: /^Receipt / });
    await expect(receipt).toContainText('3 of 11');
    await receipt.getByRole('button', { name: 'Close' }).click();

    await expect(page.getByText('3 of 11 paid')).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: 'Scheme statement' })
        .getByText(`In advance for ${nextMonth}`, { exact: false }),
    ).toBeVisible();
    // Never two for one month: no second advance, and the reason says why.
    await expect(page.getByRole('button', { name: /in advance$/ })).toHaveCount(0);
    await expect(
      page.getByText(`The installment for ${nextMonth} is taken in advance too.`, { exact: false }),
    ).toBeVisible();
    await expect(add).toBeDisabled();
  });

  test('a reprinted receipt says DUPLICATE, on screen and on paper', async ({
    page,
    request,
    printed,
  }) => {
    const token = await adminToken(request);
    const customer = await customerWithScheme(request, token, today);
    const { data: first } = await post<{ receiptNo: string }>(
      request,
      token,
      '/api/scheme/activate',
      {
        schemeid: customer.schemeid,
        date: today,
        mode: 'cash',
      },
    );
    await signInAs(page, await newStaff(request, token, 'cashier'));
    await openStatement(page, customer.schemeid);
    await page.getByRole('button', { name: `Reprint receipt ${first.receiptNo}` }).click();
    const receipt = page.getByRole('dialog', { name: `Receipt ${first.receiptNo}` });
    await expect(receipt.getByText('DUPLICATE', { exact: true })).toBeVisible();
    expect(await seriousViolationsOn(page), 'reprinted receipt').toEqual([]);

    await receipt.getByRole('button', { name: 'Print' }).click();
    expect(await printed()).toBe(1);
    // On paper: the receipt alone, with its DUPLICATE mark.
    await page.evaluate(() => document.body.classList.add('kanak-print-receipt'));
    await page.emulateMedia({ media: 'print' });
    await expect(receipt.getByText('DUPLICATE', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Scheme Statement' })).toBeHidden();
  });
});
