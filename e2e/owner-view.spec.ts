import type { Locator, Page } from '@playwright/test';
import { PHONE } from './support/env';
import {
  addDays,
  adminPage,
  apiPost,
  csvText,
  expect,
  signedIn as test,
  slashDate,
  startScheme,
  storedToken,
  storeToday,
  uniqueMobile,
} from './support/fixtures';

/**
 * The owner's view, as the owner (the admin) sees it after a day's work made through the API:
 * an installment collected today, points credited, a scheme started 350 days ago (it matures
 * within 30 days and has installments overdue), and a counter sale whose points were spent
 * before it came back (an unrecovered return). The Dashboard draws its charts as SVG from
 * those figures; each report opens, prints and downloads its CSV; every screen is accessible
 * and fits a 390 px phone.
 */

const today = storeToday();

const mobile = uniqueMobile('8');
const custname = `Meenakshi Sundaram ${mobile.slice(-4)}`;
const posMobile = uniqueMobile('9');
const made = { todayScheme: 0, oldScheme: 0, returnNo: `RT-${posMobile}` };

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
        email: '',
        address: '3, North Mada Street, Mylapore',
        city: 'Chennai',
        pincode: '600004',
        state: 'Tamil Nadu',
        dob: '',
        doa: '',
        pan: '',
      },
    },
  );
  const custid = saved.data!.custid;
  await apiPost(page, request, '/api/customers/update-points', {
    formData: {
      CUSTNAME: custname,
      MOBILENO: mobile,
      POINTS: '5000',
      NARRATION: 'Temple necklace, 22K',
      INVDATE: today,
      CASHCR: 'CR',
    },
  });
  const token = await storedToken(page);
  const customer = { custid, mobileno: mobile, custname };
  // Collected today: the first installment of a scheme started today, by UPI.
  made.todayScheme = await startScheme(
    request,
    token,
    { ...customer, startdt: today, amount: 12_345 },
    { date: today, mode: 'upi', reference: 'UTR-OWNER-VIEW' },
  );
  // Started 350 days ago and paid once: it matures in 14 days with ten installments overdue.
  const longAgo = addDays(today, -350);
  made.oldScheme = await startScheme(
    request,
    token,
    { ...customer, startdt: longAgo, amount: 4_000 },
    { date: longAgo, mode: 'cash', reference: '' },
  );
  // A counter sale, its points all spent, then the goods returned: the points are unrecovered.
  const key = await apiPost<{ key: string }>(page, request, '/api/settings/api-keys', {
    label: `Owner view ${posMobile}`,
  });
  const pos = { 'X-Api-Key': key.data!.key };
  const invoiceNo = `INV-${posMobile}`;
  const sale = await request.post('/api/pos/sales', {
    data: {
      invoiceNo,
      invoiceDate: today,
      mobile: posMobile,
      name: 'Counter Customer',
      lines: [{ description: 'Gold bangles', category: 'gold', amount: 500_000 }],
    },
    headers: pos,
  });
  expect(sale.status(), await sale.text()).toBe(200);
  const { points } = ((await sale.json()) as { data: { points: number } }).data;
  const redeemed = await request.post('/api/pos/redemptions', {
    data: { invoiceNo: `RD-${posMobile}`, mobile: posMobile, points },
    headers: pos,
  });
  expect(redeemed.status(), await redeemed.text()).toBe(200);
  const returned = await request.post('/api/pos/returns', {
    data: {
      returnNo: made.returnNo,
      invoiceNo,
      returnDate: today,
      lines: [{ description: 'Gold bangles', category: 'gold', amount: 500_000 }],
    },
    headers: pos,
  });
  expect(returned.status(), await returned.text()).toBe(200);
  await close();
});

/**
 * No sideways scroll: the page is no wider than the phone's screen, once it has laid itself
 * out again for the new width (the tables turn into cards a render later).
 */
async function expectFits(page: Page, screen: string) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${screen}: wider than the phone by this many px`,
    })
    .toBeLessThanOrEqual(0);
}

/** The bars a chart drew: each a rect with a height. */
const barHeights = (chart: Locator) =>
  chart
    .locator('svg rect.MuiBarChart-element')
    .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('height') ?? 0)));

/**
 * The month names a chart drew under its bars, left to right, each with where it was drawn: the
 * chart writes a name that does not fit as empty text.
 */
const monthLabels = (chart: Locator) =>
  chart.locator('.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel').evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.getBoundingClientRect();
      return { text: label.textContent ?? '', left: box.left, right: box.right };
    }),
  );

/** Month names drawn, each in full, none over the next. */
async function expectMonthsShown(chart: Locator, atLeast: number) {
  await expect
    .poll(async () => (await monthLabels(chart)).filter((label) => label.text !== '').length)
    .toBeGreaterThanOrEqual(atLeast);
  const labels = await monthLabels(chart);
  for (const label of labels)
    expect(label.text, 'a month drawn as empty text').toMatch(/^\w{3,4}$/);
  for (const [i, label] of labels.slice(1).entries())
    expect(label.left, `${label.text} over ${labels[i]!.text}`).toBeGreaterThan(labels[i]!.right);
  // This month, the last, under its bars.
  expect(labels.at(-1)?.text).toBe(shortMonth(false));
}

/** This month as the charts name it: 'Nov', or 'Nov 2026' in their description. */
const shortMonth = (withYear: boolean) =>
  new Date(`${today}T00:00:00Z`).toLocaleString('en-IN', {
    month: 'short',
    ...(withYear && { year: 'numeric' }),
    timeZone: 'UTC',
  });

/** '₹1,23,456' as a number. */
const rupees = (text: string) => Number(/₹([\d,]+)/.exec(text)?.[1]?.replaceAll(',', '') ?? NaN);

test.describe("the owner's view", () => {
  test('the Dashboard draws 12 months of points and collections as SVG, from the day’s work', async ({
    page,
    seriousViolations,
  }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    const todayCard = page.getByRole('link', { name: /^today\s*installments collected/i });
    await expect(todayCard).toBeVisible();
    expect(rupees(await todayCard.innerText())).toBeGreaterThanOrEqual(12_345);
    await expect(
      page.getByRole('main').getByRole('link', { name: /^overdue installments/i }),
    ).toContainText(/₹[\d,]+ overdue/);

    for (const name of ['Points by month', 'Installments collected by month']) {
      const chart = page.getByRole('figure', { name });
      await expect(chart.locator('svg').first()).toBeVisible();
      // Twelve months of bars; this month's (the last) drawn from today's activity.
      await expect
        .poll(async () => (await barHeights(chart)).filter((height) => height > 0).length)
        .toBeGreaterThan(0);
      // This month, the last, under its bars.
      await expect(chart.locator('svg text', { hasText: shortMonth(false) }).last()).toBeVisible();
      // Every month named, whatever fonts the computer has (with Noto Sans all twelve were empty).
      await expectMonthsShown(chart, 12);
    }
    const thisMonth = shortMonth(true);
    await expect(page.getByRole('figure', { name: 'Points by month' })).toHaveAccessibleDescription(
      new RegExp(`${thisMonth}: Issued [1-9][\\d,]*,`),
    );
    await expect(
      page.getByRole('figure', { name: 'Installments collected by month' }),
    ).toHaveAccessibleDescription(new RegExp(`${thisMonth}: Collected \\(₹\\) ₹[1-9]`));
    expect(await seriousViolations(), 'Dashboard').toEqual([]);

    // The card opens the cash book on today, where the installment is.
    await todayCard.click();
    await expect(page).toHaveURL(
      new RegExp(`/home/daily-collections\\?from=${today}&to=${today}$`),
    );
    await expect(page.getByRole('table', { name: 'Daily Collections' })).toContainText(mobile);

    await page.setViewportSize(PHONE);
    await page.goto('/home');
    await expect(page.getByRole('figure', { name: 'Points by month' })).toBeVisible();
    await expectFits(page, 'Dashboard');
    // Too narrow for twelve names side by side: every other month, this one among them.
    for (const name of ['Points by month', 'Installments collected by month'])
      await expectMonthsShown(page.getByRole('figure', { name }), 6);
  });

  const reports = [
    {
      title: 'Daily Collections',
      path: '/home/daily-collections',
      file: 'collections',
      header:
        'Date,Time,Branch,Staff,Kind,Receipt / invoice,Scheme ID,Customer,Mobile,Mode,Amount,Points,Entered on,Backdated',
      // Paid and entered today: not backdated.
      line: () =>
        new RegExp(
          `^${slashDate(today)},.*,${made.todayScheme},${custname},${mobile},UPI,12345,,${slashDate(today)},$`,
          'm',
        ),
    },
    {
      title: 'Overdue Installments',
      path: '/home/overdue-installments',
      file: 'overdue-installments',
      header: 'Scheme ID,Mobile,Customer,Months due,Amount due,Days overdue,Last paid',
      line: () =>
        new RegExp(
          `^${made.oldScheme},${mobile},${custname},10,40000,\\d+,${slashDate(addDays(today, -350))}$`,
          'm',
        ),
    },
    {
      title: 'Maturing Schemes',
      path: '/home/maturing-schemes',
      file: 'maturing-schemes',
      header:
        'Scheme ID,Customer,Mobile,Branch,Start date,Maturity date,Installments paid,Installments,Amount paid',
      line: () =>
        new RegExp(
          `^${made.oldScheme},${custname},${mobile},[A-Z]+,${slashDate(addDays(today, -350))},${slashDate(addDays(today, 14))},1,11,4000$`,
          'm',
        ),
    },
    {
      title: 'Points Liability',
      path: '/home/points-liability',
      file: 'points-liability',
      header: 'Customer ID,Customer,Mobile,Points,Value,Expiring in 30 days',
      line: () => new RegExp(`^\\d+,${custname},${mobile},5000,[\\d.]+,\\d+$`, 'm'),
    },
    {
      title: 'Unrecovered Return Points',
      path: '/home/unrecovered-returns',
      file: 'unrecovered-returns',
      header: 'Return date,Branch,Return no.,Invoice no.,Mobile,Unrecovered points',
      line: () =>
        new RegExp(
          `^${slashDate(today)},[A-Z]+,${made.returnNo},INV-${posMobile},${posMobile},[1-9]\\d*$`,
          'm',
        ),
    },
  ];

  for (const report of reports) {
    test(`${report.title}: opens with its totals, prints, downloads its CSV, fits a phone`, async ({
      page,
      printed,
      seriousViolations,
    }) => {
      await page.goto(report.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(report.title);
      const table = page.getByRole('table', { name: report.title });
      await expect(
        table.locator(':scope > [role="rowgroup"]').nth(1).getByRole('row').first(),
      ).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await expect(table.locator(':scope > [role="rowgroup"]').nth(2)).toContainText('Totals');
      await expect(page.getByText(/^Page 1 of \d+ · [\d,]+ rows$/)).toBeVisible();
      expect(await seriousViolations(), report.title).toEqual([]);

      // Print: the browser's print, and on paper the report alone with its totals.
      await page.getByRole('button', { name: 'Print', exact: true }).click();
      await expect.poll(printed).toBe(1);
      await page.emulateMedia({ media: 'print' });
      const sheet = page.locator('[data-testid^="print-report-"]');
      await expect(sheet).toBeVisible();
      await expect(sheet).toContainText(report.title);
      await expect(sheet.locator('tfoot')).toContainText('Totals');
      await expect(page.getByRole('banner')).toBeHidden();
      await expect(table).toBeHidden();
      await page.emulateMedia({ media: 'screen' });

      // The whole report as CSV, with the UTF-8 byte-order mark for Excel.
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const download = await downloading;
      // Named for the dates it covers.
      expect(download.suggestedFilename()).toMatch(
        new RegExp(`^${report.file}-\\d{4}-\\d{2}-\\d{2}(-to-\\d{4}-\\d{2}-\\d{2})?\\.csv$`),
      );
      const csv = await csvText(await download.path());
      expect(csv.split('\r\n')[0]).toBe(report.header);
      expect(csv.replaceAll('\r\n', '\n')).toMatch(report.line());

      await page.setViewportSize(PHONE);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(report.title);
      await expectFits(page, report.title);
    });
  }
});
