import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { COUNTER_TEXTS, PAGE_TITLES, SIDEBAR_LABELS } from '@kanak/contract';
import { ADMIN } from './support/env';
import {
  apiLogin,
  apiUpdatePassword,
  expect,
  seriousViolationsOn,
  signIn,
  storeToday,
  test,
  uniqueMobile,
} from './support/fixtures';

/**
 * A cashier's day starts with a customer: after signing in they land on the counter home,
 * the customer search focused and the installments they took today listed. A manager still
 * lands on the dashboard.
 */

const today = storeToday();

async function post<T = Record<string, unknown>>(
  request: APIRequestContext,
  token: string,
  url: string,
  data: unknown,
) {
  const response = await request.post(url, {
    data,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  const body = (await response.json()) as { success: boolean; data: T };
  expect(response.status(), `${url}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** Staff of `role` added by the admin, their first password already changed, and a token. */
async function newStaff(request: APIRequestContext, token: string, role: 'cashier' | 'manager') {
  const username = `${role}-${randomUUID().slice(0, 6)}`;
  const { data } = await post<{ temporaryPassword: string }>(request, token, '/api/staff/add', {
    username,
    name: `Counter ${role}`,
    role,
  });
  const password = `Own@${randomUUID().slice(0, 7)}`;
  const first = await apiLogin(request, username, data.temporaryPassword);
  const changed = await apiUpdatePassword(request, first.body.accessToken!, {
    username,
    oldpassword: data.temporaryPassword,
    newpassword: password,
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  const signedIn = await apiLogin(request, username, password);
  return { username, password, token: signedIn.body.accessToken! };
}

test.describe('the counter home', () => {
  test.setTimeout(120_000);

  test("a cashier lands on it, the search focused and today's receipt listed; a manager keeps the dashboard", async ({
    page,
    request,
  }) => {
    const admin = (await apiLogin(request, ADMIN.username, ADMIN.password)).body.accessToken!;
    const cashier = await newStaff(request, admin, 'cashier');
    const mobileno = uniqueMobile('9');
    const custname = `Counter Home ${mobileno.slice(-4)}`;
    await post(request, admin, '/api/customers/update-customer-data', {
      formData: { custid: null, mobileno, custname },
    });
    const { data: found } = await post<{ custid: number }>(
      request,
      admin,
      '/api/customers/get-customer-data',
      { mobileno },
    );
    // The cashier starts the scheme and takes its first installment today.
    const { data: scheme } = await post<{ schemeid: number }>(
      request,
      cashier.token,
      '/api/scheme/generate',
      { custid: found.custid, mobileno, custname, startdt: today, amount: 1500 },
    );
    await post(request, cashier.token, '/api/scheme/activate', {
      schemeid: scheme.schemeid,
      date: today,
      mode: 'cash',
    });

    await page.goto('/');
    await signIn(page, cashier);
    await expect(page).toHaveURL(/\/home\/counter$/);
    await expect(page.getByRole('heading', { name: PAGE_TITLES.counter })).toBeVisible();
    await expect(page.getByRole('combobox', { name: COUNTER_TEXTS.search })).toBeFocused();
    const todays = page.getByRole('table', { name: COUNTER_TEXTS.today });
    await expect(todays.getByRole('row', { name: new RegExp(custname) })).toContainText('₹1,500');
    await expect(page.getByRole('link', { name: COUNTER_TEXTS.takeInstallment })).toBeVisible();
    expect(await seriousViolationsOn(page), 'counter home').toEqual([]);

    const manager = await newStaff(request, admin, 'manager');
    await page.getByRole('navigation').getByText(SIDEBAR_LABELS.logout).click();
    await expect(page).toHaveURL(/\/$/);
    await signIn(page, manager);
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { name: PAGE_TITLES.dashboard })).toBeVisible();
  });
});
