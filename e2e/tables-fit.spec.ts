import type { Locator, Page } from '@playwright/test';
import config from '../playwright.config';
import {
  addDays,
  adminPage,
  apiPost,
  expect,
  pageTitle,
  signedIn as test,
  startScheme,
  storedToken,
  storeToday,
  uniqueMobile,
} from './support/fixtures';
import { misfits } from './support/geometry';

/**
 * Every column of every report and data table in view at the counter PC (1366×768, with the
 * sidebar) and at 1280×800, without a sideways scroll: each header inside its cell, no word of a
 * header or a total broken inside the word ("Schem / e ID"), each cell's text inside its cell
 * (an amount never runs under the next column), and no table wider than its box. Measured in
 * the browser from where the text is drawn, with the data a shop really has: a long name,
 * amounts in lakhs and crores. The Maturing and Overdue reports' scheme IDs open the statement.
 */

const today = storeToday();

const mobile = uniqueMobile('9');
const custname = `Venkatalakshmi Subramaniam Ramachandran Iyer ${mobile.slice(-4)}`;
const posMobile = uniqueMobile('8');
const made = { oldScheme: 0, todayScheme: 0 };
/** A plan with a name as long as a plan's may be, and its terms at their largest. */
const planCode = `FIT${posMobile.slice(-6)}`;

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1280, height: 800 },
] as const;

test.describe.configure({ timeout: 180_000 });

// Scrollbars take room, as on the counter's PC (headless Chromium hides them by default).
test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--hide-scrollbars'] },
});

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
        dob: '',
        doa: '',
        pan: 'ABCPI1234K',
      },
    },
  );
  const custid = saved.data!.custid;
  await apiPost(page, request, '/api/customers/update-points', {
    formData: {
      CUSTNAME: custname,
      MOBILENO: mobile,
      POINTS: '9999999',
      NARRATION: 'Bridal set, 22K, invoice 2026/11/00042',
      INVDATE: today,
      CASHCR: 'CR',
    },
  });
  const token = await storedToken(page);
  const customer = { custid, mobileno: mobile, custname };
  // Collected today, by bank transfer: the first installment of a scheme of ₹99,99,999.
  made.todayScheme = await startScheme(
    request,
    token,
    { ...customer, startdt: today, amount: 9_999_999 },
    { date: today, mode: 'bank', reference: 'UTR-202611240000042' },
  );
  // Started 350 days ago and paid once: it matures within 30 days, ten installments overdue.
  const longAgo = addDays(today, -350);
  made.oldScheme = await startScheme(
    request,
    token,
    { ...customer, startdt: longAgo, amount: 9_999_999 },
    { date: longAgo, mode: 'cheque', reference: 'CHQ-000042' },
  );
  await apiPost(page, request, '/api/scheme-plans', {
    code: planCode,
    name: 'Swarna Lakshmi Suvarna Varsham Gold Savings Plan with Bonus',
    kind: 'weight',
    installments: 11,
    minAmount: 9_999_999,
    bonusPercent: 1000,
    graceDays: 30,
    redeemWithinDays: 365,
  });
  // A counter sale in lakhs, its points spent today, then the goods returned: unrecovered.
  const key = await apiPost<{ key: string }>(page, request, '/api/settings/api-keys', {
    // A label may hold a long run of digits (a till's serial number): it stays in its cell.
    label: `Counter 2 POS ${posMobile}`,
  });
  const pos = { 'X-Api-Key': key.data!.key };
  // GST invoice numbers run to 16 characters.
  const invoiceNo = `INV/26-27/${posMobile.slice(-6)}`;
  const sale = await request.post('/api/pos/sales', {
    data: {
      invoiceNo,
      invoiceDate: today,
      mobile: posMobile,
      name: 'Padmavathi Krishnamoorthy Venkataraghavan',
      lines: [{ description: 'Kasu mala, 22K', category: 'gold', amount: 4_999_999 }],
    },
    headers: pos,
  });
  expect(sale.status(), await sale.text()).toBe(200);
  const { points } = ((await sale.json()) as { data: { points: number } }).data;
  const redeemed = await request.post('/api/pos/redemptions', {
    data: { invoiceNo: `RD/26-27/${posMobile.slice(-6)}`, mobile: posMobile, points },
    headers: pos,
  });
  expect(redeemed.status(), await redeemed.text()).toBe(200);
  const returned = await request.post('/api/pos/returns', {
    data: {
      returnNo: `RT/26-27/${posMobile.slice(-6)}`,
      invoiceNo,
      returnDate: today,
      lines: [{ description: 'Kasu mala, 22K', category: 'gold', amount: 4_999_999 }],
    },
    headers: pos,
  });
  expect(returned.status(), await returned.text()).toBe(200);
  await close();
});

async function expectFits(page: Page, table: Locator, screen: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect
      .poll(() => misfits(table), { message: `${screen} at ${size.width}×${size.height}` })
      .toEqual([]);
  }
}

interface TableScreen {
  name: string;
  path: string;
  title: RegExp;
  /** The table's accessible name. */
  table: string;
  /** Brings the table's rows on screen; they show `shows`. */
  fill?: (page: Page) => Promise<void>;
  shows: string;
}

async function pickTheCustomer(page: Page) {
  await page.getByRole('combobox', { name: 'Search customer mobile no' }).fill(mobile);
  await page.getByRole('option', { name: `${custname} (+91) ${mobile}` }).click();
}

const SCREENS: TableScreen[] = [
  {
    name: 'Daily Collections',
    path: '/home/daily-collections',
    title: /^Daily Collections$/,
    table: 'Daily Collections',
    shows: '₹99,99,999',
  },
  {
    name: 'Overdue Installments',
    path: '/home/overdue-installments',
    title: /^Overdue Installments$/,
    table: 'Overdue Installments',
    shows: custname,
  },
  {
    name: 'Maturing Schemes',
    path: '/home/maturing-schemes',
    title: /^Maturing Schemes$/,
    table: 'Maturing Schemes',
    shows: custname,
  },
  {
    name: 'Points Liability',
    path: '/home/points-liability',
    title: /^Points Liability$/,
    table: 'Points Liability',
    shows: custname,
  },
  {
    name: 'Unrecovered Returns',
    path: '/home/unrecovered-returns',
    title: /^Unrecovered Return Points$/,
    table: 'Unrecovered Return Points',
    shows: posMobile,
  },
  {
    name: 'Scheme Summary',
    path: '/home/scheme-summary',
    title: /^Scheme Summary$/,
    table: 'Scheme summary',
    fill: async (page) => {
      await pickTheCustomer(page);
      await page.getByRole('button', { name: 'Generate Summary' }).click();
    },
    shows: '₹99,99,999',
  },
  {
    name: 'Audit Trail',
    path: '/home/audit',
    title: /^Audit Trail$/,
    table: 'Changes',
    shows: mobile,
  },
  {
    name: 'Delivery Log',
    path: '/home/delivery-log',
    title: /^Delivery Log$/,
    table: 'Notices',
    shows: mobile,
  },
  {
    name: 'Points Statement',
    path: '/home/statement',
    title: /^Points Statement$/,
    table: 'Points statement',
    fill: async (page) => {
      await pickTheCustomer(page);
      await page.getByRole('button', { name: 'Generate Statement' }).click();
    },
    shows: '99,99,999',
  },
  {
    name: 'Scheme Statement',
    path: '/home/scheme-statement',
    title: /^Scheme Statement$/,
    table: 'Scheme statement',
    fill: async (page) => {
      await page.getByRole('textbox', { name: 'Scheme ID' }).fill(String(made.oldScheme));
      await page.getByRole('button', { name: 'Generate Statement' }).click();
    },
    shows: '₹99,99,999',
  },
  {
    name: 'Scheme Initiation',
    path: '/home/scheme-generation',
    title: /^Generate Scheme$/,
    table: 'Customer schemes',
    fill: pickTheCustomer,
    shows: '₹99,99,999',
  },
  {
    name: 'Counter',
    path: '/home/counter',
    title: /^Counter$/,
    table: 'Your installments today',
    shows: '₹99,99,999',
  },
  {
    name: 'Scheme Plans',
    path: '/home/scheme-plans',
    title: /^Scheme Plans$/,
    table: 'Scheme plans',
    shows: planCode,
  },
  { name: 'Staff', path: '/home/staff', title: /^Staff$/, table: 'Staff accounts', shows: 'admin' },
  {
    name: 'Integrations',
    path: '/home/integrations',
    title: /^Integrations$/,
    table: 'API keys',
    shows: `Counter 2 POS ${posMobile}`,
  },
];

for (const screen of SCREENS) {
  test(`${screen.name}: every header and cell inside its column at 1366 and 1280 px, no sideways scroll`, async ({
    page,
    seriousViolations,
  }) => {
    await page.setViewportSize(SIZES[0]);
    await page.goto(screen.path);
    await expect(pageTitle(page, screen.title)).toBeVisible();
    await screen.fill?.(page);
    const table = page.getByRole('table', { name: screen.table });
    await expect(table).toContainText(screen.shows);
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expectFits(page, table, screen.name);
    expect(await seriousViolations(), screen.name).toEqual([]);
  });
}

test("the Daily Collections show every column and the totals by mode on the counter's screen", async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  await page.goto('/home/daily-collections');
  const table = page.getByRole('table', { name: 'Daily Collections' });
  await expect(table).toContainText('₹99,99,999');
  const inView = async (cell: Locator) => {
    const box = (await cell.boundingBox())!;
    const main = (await page.getByRole('main').boundingBox())!;
    return box.x >= main.x && box.x + box.width <= main.x + main.width;
  };
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const header of ['Amount', 'Points', 'Mode']) {
      await expect
        .poll(() => inView(table.getByRole('columnheader', { name: header, exact: true })))
        .toBe(true);
    }
    for (const label of ['Bank transfer', 'Collected', 'Points redeemed']) {
      await expect
        .poll(() => inView(table.getByRole('cell', { name: label, exact: true }).last()))
        .toBe(true);
    }
  }
});

/** The report's link on the old scheme's ID opens that scheme's statement. */
async function opensStatement(page: Page, path: string) {
  await page.goto(path);
  const table = page.getByRole('table', { name: /Maturing Schemes|Overdue Installments/ });
  await expect(table).toContainText(custname);
  await table
    .getByRole('link', { name: `Open scheme ${made.oldScheme}: statement, installments, close` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/home/scheme-statement\\?schemeid=${made.oldScheme}$`));
  await expect(page.getByRole('textbox', { name: 'Scheme ID' })).toHaveValue(
    String(made.oldScheme),
  );
  await expect(page.getByRole('table', { name: 'Scheme statement' })).toContainText('₹99,99,999');
  await expect(page.getByRole('main')).toContainText(custname);
}

test("Maturing Schemes: a scheme's ID opens its statement", async ({ page }) => {
  await opensStatement(page, '/home/maturing-schemes');
});

test("Overdue Installments: a scheme's ID opens its statement", async ({ page }) => {
  await opensStatement(page, '/home/overdue-installments');
});
