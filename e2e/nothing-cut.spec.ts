import type { Page } from '@playwright/test';
import { DESKTOP, PHONE, SIDEBAR } from './support/env';
import {
  adminPage,
  apiPost,
  expect,
  expectNothingCut,
  pageTitle,
  signedIn as test,
  storeToday,
} from './support/fixtures';

/**
 * Nothing cut or blank: every screen of the sidebar, as the owner (the admin), with the data a
 * shop really has (a long name, a 10-digit mobile, amounts in lakhs), at the counter's
 * 1366×768 and a phone's 390×844. No number wraps onto a second line and no field cuts its
 * value, on the empty screen and again once the screen shows the customer's data.
 */

const today = storeToday();

const mobile = `9${`${Date.now()}`.slice(-8)}${Math.floor(Math.random() * 10)}`;
const custname = `Venkatalakshmi Subramaniam Ramachandran Iyer ${mobile.slice(-4)}`;

/** The customer's schemes, points and statement rows, made once through the API. */
const made = { schemeid: 0 };

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async ({ browser, adminState }) => {
  const { page, request, close } = await adminPage(browser, adminState);
  const saved = await apiPost<{ custid: number }>(
    page,
    request,
    '/api/customers/update-customer-data',
    {
      formData: {
        custid: null,
        mobileno: mobile,
        custname,
        email: 'venkatalakshmi.subramaniam@example.in',
        address: '14, Thirumalai Pillai Road, T. Nagar',
        city: 'Chennai',
        pincode: '600017',
        state: 'Tamil Nadu',
        dob: '1978-11-24',
        doa: '2001-02-28',
        pan: 'ABCPI1234K',
      },
    },
  );
  const custid = saved.data!.custid;
  for (const [points, CASHCR] of [
    ['9999999', 'CR'],
    ['1234567', 'DB'],
  ] as const) {
    await apiPost(page, request, '/api/customers/update-points', {
      formData: {
        CUSTNAME: custname,
        MOBILENO: mobile,
        POINTS: points,
        NARRATION: 'Bridal set, 22K, invoice 2026/11/00042',
        INVDATE: today,
        CASHCR,
      },
    });
  }
  const scheme = await apiPost<{ schemeid: number }>(page, request, '/api/scheme/generate', {
    custid,
    mobileno: mobile,
    custname,
    startdt: today,
    amount: 9_999_999,
  });
  made.schemeid = scheme.data!.schemeid;
  await apiPost(page, request, '/api/scheme/activate', {
    schemeid: made.schemeid,
    date: today,
    mode: 'upi',
    reference: 'UTR-202611240000042',
  });
  await apiPost(page, request, '/api/scheme/generate', {
    custid,
    mobileno: mobile,
    custname,
    startdt: today,
    amount: 8_888_888,
  });
  await close();
});

async function pickCustomer(page: Page, search: string) {
  await page.getByRole('combobox', { name: search }).fill(mobile);
  await page.getByRole('option', { name: `${custname} (+91) ${mobile}` }).click();
}

/** What each screen shows once it has data: the customer picked, the statement generated. */
const fill: Record<string, (page: Page) => Promise<void>> = {
  '/home/customer-profile': async (page) => {
    await pickCustomer(page, 'Enter mob no.');
    await expect(page.locator('input[name="pincode"]')).toHaveValue('600017');
  },
  '/home/loyalty-points': async (page) => {
    await pickCustomer(page, 'Search customer Mob no');
    await expect(page.getByRole('main')).toContainText(/8,?7,?6,?5,?4,?3,?2/);
  },
  '/home/scheme-generation': async (page) => {
    await pickCustomer(page, 'Search customer mobile no');
    await expect(page.getByRole('table', { name: 'Customer schemes' })).toContainText('₹88,88,888');
  },
  '/home/statement': async (page) => {
    await pickCustomer(page, 'Search customer mobile no');
    await page.getByRole('button', { name: 'Generate Statement' }).click();
    await expect(page.getByRole('table', { name: 'Points statement' })).toContainText('99,99,999');
  },
  '/home/scheme-statement': async (page) => {
    await page.getByRole('textbox', { name: 'Scheme ID' }).fill(String(made.schemeid));
    await page.getByRole('button', { name: 'Generate Statement' }).click();
    await expect(page.getByRole('table', { name: 'Scheme statement' })).toContainText('₹99,99,999');
  },
  '/home/scheme-summary': async (page) => {
    await pickCustomer(page, 'Search customer mobile no');
    await page.getByRole('button', { name: 'Generate Summary' }).click();
    await expect(page.getByRole('table', { name: 'Scheme summary' })).toContainText(mobile);
  },
};

/** Both widths, the screen resized in place: one load and one fill a screen. */
async function atBothWidths(page: Page, screen: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await expectNothingCut(page, screen);
  }
}

for (const entry of SIDEBAR) {
  test(`${entry.name} at ${DESKTOP.width} and ${PHONE.width} px: no number wraps, no field cuts its value`, async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(entry.path);
    await expect(pageTitle(page, entry.title)).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await atBothWidths(page, `${entry.name} (empty)`);
    const withData = fill[entry.path];
    if (withData) {
      await page.setViewportSize(DESKTOP);
      await withData(page);
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await atBothWidths(page, `${entry.name} (with data)`);
    }
  });
}
