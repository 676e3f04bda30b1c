import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { ADMIN, PHONE } from './support/env';
import { OwnServer } from './support/own-server';
import {
  dateField,
  expect,
  lateEntryReason,
  signIn,
  slashDate,
  signedIn,
  sidebarEntry,
  storedToken,
  test,
  topBar,
  typeDate,
  uniqueMobile,
  pickCustomer,
} from './support/fixtures';

/**
 * What shop staff hit at the counter: a server that stops in the middle of a change, double
 * presses, a popup over the next field, reaching a scheme's installments, an expired session,
 * field-level errors, phones, and the small things around them. Texts are the spec's (or the
 * app's own words), copied here on purpose.
 */
const TEXT = {
  pointsUpdated: 'Loyalty points updated successfully.',
  pointsFailed: 'Error in updating Loyalty points.',
  saveFailed: 'Error in saving',
  customerSaved: 'Customer profile saved.',
  sessionExpired: 'Session expired. Please sign in again.',
  notSaved: 'Your last change was not saved',
  routeError: 'This screen could not be opened.',
  noMatches: 'No matching customers',
  aadhaarInvalid: 'not a valid Aadhaar number',
  passwordLength: 'New password must be 8 to 15 characters.',
} as const;

const main = (page: Page) => page.getByRole('main');
const toast = (page: Page, text: string) =>
  page.locator('.kanak-alerts').getByRole('alert').filter({ hasText: text });
const pointsBox = (page: Page) => page.getByRole('textbox', { name: 'Loyalty Points' });
const mobileBox = (page: Page) => page.getByRole('textbox', { name: 'Mobile no.' });
const update = (page: Page) => page.getByRole('button', { name: 'UPDATE', exact: true });

/** Today in the store's time zone, and `days` before it, as YYYY-MM-DD. */
const storeDay = (daysBefore = 0) =>
  new Date(Date.now() - daysBefore * 86_400_000).toLocaleDateString('en-CA', {
    timeZone: 'Asia/Kolkata',
  });

/** A POST as the web app sends it: bearer token and a fresh Idempotency-Key. */
async function post(request: APIRequestContext, token: string, url: string, data: unknown) {
  const response = await request.post(url, {
    data,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  const body = (await response.json()) as { success: boolean; data?: unknown; message?: string };
  expect(response.status(), `${url}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

async function newCustomer(request: APIRequestContext, token: string, name = 'Counter Test') {
  const mobile = uniqueMobile();
  const custname = `${name} ${mobile.slice(-4)}`;
  const body = await post(request, token, '/api/customers/update-customer-data', {
    formData: { custid: null, mobileno: mobile, custname },
  });
  return { mobile, custname, custid: (body.data as { custid: number }).custid };
}

/** The customer's ledger rows since the start of the year. */
async function ledger(request: APIRequestContext, token: string, mobile: string) {
  const body = await post(request, token, '/api/customers/generate-statement', {
    MOBILENO: mobile,
    DFROM: '2000-01-01',
    DTO: storeDay(),
  });
  return body.data as { RCREDIT: number; RDEBIT: number }[];
}

/** Two clicks in the same task: no render, no network round trip between them. */
async function doubleClickAtOnce(button: Locator) {
  // Two clicks in one task give no time between them, and so skip Playwright's own wait for
  // the button: a button still disabled (its screen loading) would take neither.
  await expect(button).toBeEnabled();
  await button.evaluate((element: HTMLElement) => {
    element.click();
    element.click();
  });
}

test.describe('a server that stops in the middle of a change', () => {
  test('the alert shows, the typed values stay, a screen whose code is missing is explained and retried, and the change is made once', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const root = path.dirname(testInfo.config.configFile ?? path.resolve('playwright.config.ts'));
    const server = await OwnServer.create(root);
    const context = await browser.newContext({ baseURL: server.baseURL });
    try {
      const page = await context.newPage();
      const request = context.request;
      await page.goto('/');
      await signIn(page, { username: ADMIN.username, password: ADMIN.password });
      await expect(page).toHaveURL(/\/home$/);
      const token = await storedToken(page);
      const customer = await newCustomer(request, token, 'Blip Test');

      // ---- Loyalty Points: UPDATE while the server is stopped ----------------------------
      await sidebarEntry(page, 'Loyalty Points').click();
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer Mob no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('button', { name: 'Points Allocation' }).click();
      await pointsBox(page).fill('321');
      await server.stop();
      await update(page).click();
      await expect(toast(page, TEXT.pointsFailed)).toBeVisible({ timeout: 15_000 });
      await expect(pointsBox(page)).toHaveValue('321');
      await expect(mobileBox(page)).toHaveValue(customer.mobile);
      await expect(topBar(page)).toBeVisible();

      // The server is back: the same press makes the change, once.
      await server.start();
      await update(page).click();
      await expect(toast(page, TEXT.pointsUpdated)).toBeVisible({ timeout: 15_000 });
      const rows = await ledger(request, token, customer.mobile);
      expect(rows.map((row) => row.RCREDIT)).toEqual([321]);

      // ---- Customer Profile: SAVE while the server is stopped ----------------------------
      await sidebarEntry(page, 'Customer Profile').click();
      const mobile = uniqueMobile();
      await page.getByRole('combobox', { name: 'Enter mob no.' }).fill(mobile);
      await page.getByRole('textbox', { name: 'Name' }).fill('Saved Later');
      await page.getByRole('textbox', { name: 'City' }).fill('Thrissur');
      await server.stop();
      await page.getByRole('button', { name: 'SAVE' }).click();
      await expect(toast(page, TEXT.saveFailed)).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Saved Later');
      await expect(page.getByRole('textbox', { name: 'City' })).toHaveValue('Thrissur');

      // ---- A screen not loaded yet: a loading bar, then a plain explanation; the shell stays
      await sidebarEntry(page, 'Points Statement').click();
      await expect(main(page).getByRole('progressbar', { name: 'Loading screen' })).toBeVisible();
      await expect(main(page).getByRole('alert')).toContainText(TEXT.routeError, {
        timeout: 15_000,
      });
      await expect(topBar(page)).toBeVisible();
      await server.start();
      await main(page).getByRole('button', { name: 'Try again' }).click();
      await expect(main(page).getByRole('heading', { name: 'Points Statement' })).toBeVisible();
    } finally {
      await context.close();
      await server.dispose();
    }
  });
});

signedIn.describe('one user action is one request', () => {
  signedIn(
    'a zero-gap double press credits points once, saves a customer once and starts and activates a scheme once, showing the first answer',
    async ({ page, request }) => {
      signedIn.setTimeout(90_000);
      await page.goto('/home/loyalty-points');
      const token = await storedToken(page);
      const customer = await newCustomer(request, token, 'Double Press');

      // ---- Loyalty Points UPDATE ---------------------------------------------------------
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer Mob no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('button', { name: 'Points Allocation' }).click();
      await pointsBox(page).fill('11');
      await doubleClickAtOnce(update(page));
      await expect(toast(page, TEXT.pointsUpdated)).toBeVisible();
      // Bottom-left, clear of the screen's edges.
      const placed = (await toast(page, TEXT.pointsUpdated).boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(placed.x).toBeLessThan(40);
      expect(viewport.height - (placed.y + placed.height)).toBeLessThan(40);
      // Time for a second request, had one been sent, to be made.
      await page.waitForTimeout(1_000);
      const credits = async () =>
        (await ledger(request, token, customer.mobile)).map((row) => row.RCREDIT);
      expect(await credits()).toEqual([11]);

      // Enter twice as well.
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer Mob no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('button', { name: 'Points Allocation' }).click();
      await pointsBox(page).fill('5');
      await pointsBox(page).press('Enter');
      await pointsBox(page).press('Enter');
      await expect(toast(page, 'New balance: 16 points.')).toBeVisible();
      await page.waitForTimeout(1_000);
      expect(await credits()).toEqual([11, 5]);

      // ---- Customer Profile SAVE of a new customer ----------------------------------------
      await page.goto('/home/customer-profile');
      const mobile = uniqueMobile();
      await page.getByRole('combobox', { name: 'Enter mob no.' }).fill(mobile);
      await page.getByRole('textbox', { name: 'Name' }).fill('Once Only');
      await doubleClickAtOnce(page.getByRole('button', { name: 'SAVE' }));
      await expect(toast(page, TEXT.customerSaved)).toBeVisible();
      await expect(toast(page, 'already belongs')).toHaveCount(0);

      // ---- Generate Scheme, then Activate on the summary ----------------------------------
      await page.goto('/home/scheme-generation');
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer mobile no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('textbox', { name: 'Amount' }).fill('2500');
      await doubleClickAtOnce(page.getByRole('button', { name: 'Generate Scheme' }));
      const schemes = page.getByRole('table', { name: 'Customer schemes' });
      await expect(schemes).toContainText('₹2,500');
      // The header and one scheme.
      await expect(schemes.getByRole('row')).toHaveCount(2);
      await expect(toast(page, 'previous scheme')).toHaveCount(0);

      await page.goto('/home/scheme-summary');
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer mobile no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('button', { name: 'Generate Summary' }).click();
      await expect(page.getByRole('table', { name: 'Scheme summary' })).toContainText(
        customer.mobile,
      );
      await page.getByRole('button', { name: /^Activate scheme/ }).click();
      await doubleClickAtOnce(page.getByRole('button', { name: 'ACTIVATE' }));
      // The first answer is the one shown: its receipt, and no refusal of the second press.
      await expect(page.getByRole('dialog', { name: /^Receipt [A-Z]{2,6}-\d{6}/ })).toBeVisible();
      await expect(page.getByText('Only an inactive scheme can be activated.')).toHaveCount(0);
    },
  );
});

signedIn.describe('the customer search popup', () => {
  signedIn(
    '"No matching customers" never covers Name: a click on Name types into Name',
    async ({ page }) => {
      await page.goto('/home/customer-profile');
      const search = page.getByRole('combobox', { name: 'Enter mob no.' });
      const mobile = uniqueMobile();
      await search.fill(mobile);
      await expect(page.getByText(TEXT.noMatches)).toBeVisible();
      // Where a user aims: the middle of the Name field as drawn on the screen.
      const name = page.getByRole('textbox', { name: 'Name' });
      const box = (await name.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.type('Typed name');
      await expect(name).toHaveValue('Typed name');
      await expect(search).toHaveValue(mobile);
    },
  );
});

signedIn.describe('reaching a scheme', () => {
  signedIn(
    "Add installment from the customer's scheme list and from the summary row; receipts reprinted from the statement",
    async ({ page, request }) => {
      signedIn.setTimeout(60_000);
      await page.goto('/home/scheme-generation');
      const token = await storedToken(page);
      const customer = await newCustomer(request, token, 'Scheme Reach');
      const start = storeDay(40);
      const generated = await post(request, token, '/api/scheme/generate', {
        custid: customer.custid,
        mobileno: customer.mobile,
        custname: customer.custname,
        startdt: start,
        amount: 3000,
        ...lateEntryReason(start),
      });
      const schemeid = (generated.data as { schemeid: number }).schemeid;
      await post(request, token, '/api/scheme/activate', {
        schemeid,
        date: start,
        mode: 'cash',
        ...lateEntryReason(start),
      });

      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer mobile no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('link', { name: new RegExp(`^Open scheme ${schemeid}\\b`) }).click();
      await expect(page).toHaveURL(new RegExp(`/home/scheme-statement\\?schemeid=${schemeid}$`));
      await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(customer.custname);
      await page.getByRole('button', { name: 'Add installment' }).click();
      await page.getByRole('button', { name: 'RECORD' }).click();
      const receipt = page.getByRole('dialog', { name: /^Receipt [A-Z]{2,6}-\d{6}/ });
      await expect(receipt).toBeVisible();
      const title = (await receipt.getByRole('heading').first().textContent()) ?? '';
      const receiptNo = /Receipt ([A-Z]{2,6}-\d{6})/.exec(title)?.[1] ?? '';
      await receipt.getByRole('button', { name: 'Close' }).click();

      // The receipt number is a column, with a reprint action.
      const table = page.getByRole('table', { name: 'Scheme statement' });
      const reprint = table.getByRole('button', { name: `Reprint receipt ${receiptNo}` });
      await expect(
        table
          .getByRole('cell')
          .filter({ has: page.getByRole('button', { name: `Reprint receipt ${receiptNo}` }) }),
      ).toHaveText(receiptNo);
      await reprint.click();
      await expect(page.getByRole('dialog', { name: `Receipt ${receiptNo}` })).toBeVisible();
      await page
        .getByRole('dialog', { name: `Receipt ${receiptNo}` })
        .getByRole('button', { name: 'Close' })
        .click();

      // From the summary: the row's statement modal opens the full statement.
      await page.goto('/home/scheme-summary');
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer mobile no' }),
        customer.mobile,
        customer.custname,
      );
      await typeDate(dateField(page, 'From'), slashDate(start));
      await page.getByRole('button', { name: 'Generate Summary' }).click();
      await page.getByRole('row', { name: new RegExp(customer.custname) }).click();
      await page.getByRole('link', { name: 'Open statement with installments' }).click();
      await expect(page).toHaveURL(new RegExp(`schemeid=${schemeid}$`));
      await expect(page.getByRole('button', { name: 'Add installment' })).toBeVisible();
    },
  );
});

test.describe('an expired session', () => {
  test('signing in again returns to the screen, says the change was not saved and keeps the typed entry; a deep link opened signed out lands there after sign-in', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    await signIn(page, { username: ADMIN.username, password: ADMIN.password });
    await expect(page).toHaveURL(/\/home$/);
    const token = await storedToken(page);
    const customer = await newCustomer(request, token, 'Expired Session');

    await page.goto('/home/loyalty-points');
    await pickCustomer(
      page.getByRole('combobox', { name: 'Search customer Mob no' }),
      customer.mobile,
      customer.custname,
    );
    await page.getByRole('button', { name: 'Points Allocation' }).click();
    await pointsBox(page).fill('321');
    // The session ends on the server's side: the token the page holds is no longer accepted.
    await page.evaluate(() => {
      for (const area of [localStorage, sessionStorage]) {
        if (area.getItem('kanak.accessToken')) area.setItem('kanak.accessToken', 'expired.token.x');
      }
    });
    await update(page).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(TEXT.sessionExpired)).toBeVisible();

    await signIn(page, { username: ADMIN.username, password: ADMIN.password });
    await expect(page).toHaveURL(/\/home\/loyalty-points$/);
    await expect(toast(page, TEXT.notSaved)).toBeVisible();
    await expect(mobileBox(page)).toHaveValue(customer.mobile);
    await expect(pointsBox(page)).toHaveValue('321');
    expect(await ledger(request, token, customer.mobile)).toEqual([]);

    // A deep link while signed out.
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto('/home/scheme-summary');
    await expect(page).toHaveURL(/\/$/);
    await signIn(page, { username: ADMIN.username, password: ADMIN.password });
    await expect(page).toHaveURL(/\/home\/scheme-summary$/);
  });
});

signedIn.describe('errors on their fields', () => {
  signedIn(
    'Customer Profile marks the field and keeps the message under it; Aadhaar says the number is not valid',
    async ({ page }) => {
      await page.goto('/home/customer-profile');
      await page.getByRole('combobox', { name: 'Enter mob no.' }).fill(uniqueMobile());
      await page.getByRole('textbox', { name: 'Name' }).fill('Field Errors');
      const email = page.getByRole('textbox', { name: 'Email' });
      const aadhaar = page.getByRole('textbox', { name: 'Aadhaar' });
      await email.fill('not-an-email');
      await aadhaar.fill('234123412345'); // 12 digits, wrong check digit
      await page.getByRole('button', { name: 'SAVE' }).click();
      await expect(aadhaar).toHaveAttribute('aria-invalid', 'true');
      await expect(aadhaar).toHaveAccessibleDescription(new RegExp(TEXT.aadhaarInvalid));
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription(/valid email/);
      // Still there after the toast has gone.
      await page.waitForTimeout(3_500);
      await expect(aadhaar).toHaveAccessibleDescription(new RegExp(TEXT.aadhaarInvalid));
      // Editing the field takes its mark off.
      await aadhaar.fill('');
      await expect(aadhaar).not.toHaveAttribute('aria-invalid', 'true');
      await email.fill('');
      await page.getByRole('button', { name: 'SAVE' }).click();
      await expect(toast(page, TEXT.customerSaved)).toBeVisible();
    },
  );
});

signedIn.describe('phones at 390 px', () => {
  signedIn.use({ viewport: PHONE });

  /** Every element fully within the screen's width, none reached only by scrolling sideways. */
  async function expectAllWithinWidth(locator: Locator) {
    const count = await locator.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i += 1) {
      const box = await locator.nth(i).boundingBox();
      expect(box, `element ${i}`).not.toBeNull();
      expect(box!.x, `element ${i} left`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `element ${i} right`).toBeLessThanOrEqual(PHONE.width);
    }
  }

  signedIn(
    'every amount and action of the statement, the scheme list and the summary is in view',
    async ({ page, request }) => {
      signedIn.setTimeout(60_000);
      await page.goto('/home/statement');
      const token = await storedToken(page);
      const customer = await newCustomer(request, token, 'Phone View');
      for (const [POINTS, CASHCR] of [
        ['120', 'CR'],
        ['20', 'DB'],
      ] as const) {
        await post(request, token, '/api/customers/update-points', {
          formData: {
            CUSTNAME: customer.custname,
            MOBILENO: customer.mobile,
            POINTS,
            NARRATION: '',
            INVDATE: storeDay(),
            CASHCR,
          },
        });
      }
      await post(request, token, '/api/scheme/generate', {
        custid: customer.custid,
        mobileno: customer.mobile,
        custname: customer.custname,
        startdt: storeDay(),
        amount: 15000,
      });

      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer mobile no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('button', { name: 'Generate Statement' }).click();
      const statement = page.getByRole('table', { name: 'Points statement' });
      await expect(statement.getByRole('cell', { name: '120' }).first()).toBeVisible();
      // Credit and Debit of each row, then Total and Balance.
      await expectAllWithinWidth(statement.getByRole('cell').filter({ hasText: /^\d[\d,]*$/ }));
      await expectAllWithinWidth(
        statement.getByRole('cell').filter({ hasText: /^(Total|Balance)$/ }),
      );
      await expect(statement.getByRole('cell').filter({ hasText: /^100$/ })).toBeVisible();

      await page.goto('/home/scheme-generation');
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer mobile no' }),
        customer.mobile,
        customer.custname,
      );
      const schemes = page.getByRole('table', { name: 'Customer schemes' });
      await expect(schemes.getByText('₹15,000')).toBeVisible();
      await expectAllWithinWidth(schemes.getByText('₹15,000'));
      await expectAllWithinWidth(schemes.getByText('Inactive'));
      await expectAllWithinWidth(schemes.getByRole('button', { name: /^Delete scheme/ }));

      await page.goto('/home/scheme-summary');
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer mobile no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('button', { name: 'Generate Summary' }).click();
      const activate = page.getByRole('button', { name: /^Activate scheme/ });
      await expect(activate).toBeVisible();
      await expectAllWithinWidth(activate);
      await expectAllWithinWidth(
        page.getByRole('table', { name: 'Scheme summary' }).getByText('₹15,000'),
      );
      // No sideways scrolling anywhere on the page.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
    },
  );
});

signedIn.describe('small things at the counter', () => {
  signedIn(
    'after an update the new balance shows and the customer is one press away; the points fields clear as specified',
    async ({ page, request }) => {
      await page.goto('/home/loyalty-points');
      const token = await storedToken(page);
      const customer = await newCustomer(request, token, 'Follow Up');
      await pickCustomer(
        page.getByRole('combobox', { name: 'Search customer Mob no' }),
        customer.mobile,
        customer.custname,
      );
      await page.getByRole('button', { name: 'Points Allocation' }).click();
      await pointsBox(page).fill('40');
      await update(page).click();
      await expect(toast(page, `${TEXT.pointsUpdated} New balance: 40 points.`)).toBeVisible();
      await expect(pointsBox(page)).toHaveValue('');
      await expect(mobileBox(page)).toHaveValue('');
      await page
        .getByRole('button', {
          name: `Another entry for ${customer.custname} (+91) ${customer.mobile}`,
        })
        .click();
      await expect(mobileBox(page)).toHaveValue(customer.mobile);
    },
  );

  signedIn(
    'a screen still loading shows a loading bar, and digits typed meanwhile land in its search box',
    async ({ page }) => {
      // A slow connection: the screen's code takes six seconds, longer than keys typed on a
      // loaded page are kept; typed while the screen loads, they wait for it however long.
      await page.route(/\/assets\/LoyaltyPointsPage-[^/]*\.js$/, async (route) => {
        await sleep(6_000);
        await route.continue();
      });
      await page.goto('/home/loyalty-points', { waitUntil: 'commit' });
      await expect(page.getByRole('progressbar', { name: 'Loading screen' })).toBeVisible();
      await page.keyboard.type('98765');
      const search = page.getByRole('combobox', { name: 'Search customer Mob no' });
      await expect(search).toBeFocused();
      await expect(search).toHaveValue('98765');
    },
  );

  signedIn(
    'My Profile shows each message under its own field and can show the passwords',
    async ({ page }) => {
      await page.goto('/home/user');
      const oldPassword = page.getByLabel('Old password', { exact: true });
      const newPassword = page.getByLabel('New password', { exact: true });
      await oldPassword.fill(ADMIN.password);
      await newPassword.fill('short');
      await page.getByRole('button', { name: 'Update' }).click();
      await expect(newPassword).toHaveAccessibleDescription(TEXT.passwordLength);
      await expect(newPassword).toHaveAttribute('aria-invalid', 'true');
      await expect(oldPassword).not.toHaveAccessibleDescription(TEXT.passwordLength);
      await page.getByRole('button', { name: 'Show passwords' }).first().click();
      await expect(newPassword).toHaveAttribute('type', 'text');
      await expect(oldPassword).toHaveAttribute('type', 'text');
    },
  );

  test('the login card shows the company name at once, before the branding call answers', async ({
    page,
  }) => {
    // The branding call answers only after the check.
    let answerBranding = () => {};
    const branding = new Promise<void>((resolve) => (answerBranding = resolve));
    await page.route('**/api/app/branding', async (route) => {
      await branding;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kanak Jewellers');
    answerBranding();
  });
});
