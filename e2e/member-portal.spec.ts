import type { APIRequestContext, Page } from '@playwright/test';
import { formatMonthName, monthAfter } from '@kanak/contract';
import {
  addDays,
  adminToken,
  expect,
  expectNothingCut,
  newCustomer,
  postAs,
  slashDate,
  startScheme,
  storeToday,
  test,
  uniqueMobile,
} from './support/fixtures';
import { PHONE, STORAGE_PREFIX } from './support/env';

/**
 * The customer's portal at /my on a phone: signed in with the code the shop's WhatsApp panel
 * sent (the run's fake provider), the balance and the scheme with what it pays at maturity, the
 * points history and the passbook, the next installment (next month's, this month's paid at the
 * counter) paid through the gateway's checkout (the run's fake Razorpay, loaded from
 * RAZORPAY_CHECKOUT_URL) and its receipt, naming the month and the payment id, printed; then,
 * with nothing due, no Pay and the day the next falls due; the consents, sign-out; then the
 * staff's statement of the scheme shows the installment paid online. Customer and scheme are
 * made by the admin through the API.
 */

test.use({ viewport: PHONE });

const today = storeToday();

/** The day `months` calendar months after `iso`, a shorter month's last day for the 31st. */
function monthsAfter(iso: string, months: number) {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, last)))
    .toISOString()
    .slice(0, 10);
}
const nextMonth = monthAfter(today.slice(0, 7));

/**
 * The screen fits the narrowest phone the portal is for, 360 px: nothing scrolls sideways, no
 * number breaks over two lines; then back to the test's phone.
 */
async function fitsSmallPhone(page: Page, screen: string) {
  await page.setViewportSize({ width: 360, height: 740 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: screen })
    .toBeLessThanOrEqual(360);
  await expectNothingCut(page, screen);
  await page.setViewportSize(PHONE);
}

/** The admin's panel set up, so that sign-in codes are sent; left as it is when already set. */
async function panelSetUp(request: APIRequestContext, token: string) {
  const config = await request.get('/api/social/get-panel-config', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const saved = ((await config.json()) as { data?: { panel: number | '' } }).data;
  if (saved?.panel) return;
  await postAs(request, token, '/api/social/panel-setup', {
    formData: {
      instanceid: 'e2e-portal',
      token: 'e2e-portal-token',
      panel: 1,
      phone: '9000000001',
    },
  });
}

/** The sign-in code the fake provider got for the number, once it has. */
async function codeSentTo(request: APIRequestContext, mobile: string) {
  let code = '';
  await expect
    .poll(async () => {
      const response = await request.get(
        `${process.env.KANAK_E2E_FAKE_WHATSAPP_URL}/_fake/messages`,
      );
      const messages = (await response.json()) as { mobile: string; text: string }[];
      const text = messages.filter((message) => message.mobile === mobile).at(-1)?.text ?? '';
      code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

test('a customer signs in at /my, pays an installment online, prints its receipt and signs out', async ({
  page,
  request,
  browser,
  adminState,
  printed,
  seriousViolations,
}) => {
  const token = await adminToken(request);
  await panelSetUp(request, token);
  const mobileno = uniqueMobile();
  const custname = `Portal Customer ${mobileno.slice(-4)}`;
  const custid = await newCustomer(request, token, { mobileno, custname });
  await postAs(request, token, '/api/customers/update-points', {
    formData: { MOBILENO: mobileno, POINTS: '1250', INVDATE: today, CASHCR: 'CR', NARRATION: '' },
  });
  const schemeid = await startScheme(
    request,
    token,
    { custid, mobileno, custname, startdt: today, amount: 1500 },
    { date: today, mode: 'cash' },
  );

  await test.step('sign in with the code sent on WhatsApp, by keyboard', async () => {
    await page.goto('/my');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect(await seriousViolations()).toEqual([]);
    await page.getByLabel('Mobile number').fill(mobileno);
    await page.keyboard.press('Enter');
    const code = page.getByLabel('Code', { exact: true });
    await expect(code).toBeFocused();
    await expect(page.getByRole('button', { name: 'Send a new code' })).toBeDisabled();
    await code.fill('000000');
    await page.keyboard.press('Enter');
    // The server's own words for a wrong code, with the tries the code still has.
    await expect(page.getByRole('alert')).toHaveText(
      'The code is wrong. Please check it and try again: 4 tries left.',
    );
    await code.fill(await codeSentTo(request, mobileno));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: `Hello, ${custname}` })).toBeVisible();
  });

  const home = async () => {
    await page.getByRole('link', { name: /Back to my account/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Hello, ${custname}` })).toBeVisible();
  };

  await test.step('home: the balance, the scheme, the installment due and the maturity value', async () => {
    await expect(page.getByRole('region', { name: 'My points' })).toContainText('1,250 points');
    const schemes = page.getByRole('region', { name: 'My schemes' });
    await expect(schemes).toContainText(`Scheme ${schemeid} · Active`);
    await expect(schemes).toContainText('₹1,500 a month');
    await expect(schemes).toContainText('1 of 11 installments paid');
    // This month's paid at the counter: Pay takes next month's, in advance.
    await expect(schemes).toContainText(
      `Installment 2 of 11, for ${formatMonthName(nextMonth)}, is due on ${slashDate(monthsAfter(today, 1))}.`,
    );
    // 11 installments of ₹1,500 and the shop's bonus of one installment.
    const maturity = page.getByRole('region', { name: `At maturity · Scheme ${schemeid}` });
    await expect(maturity).toContainText(
      `On ${slashDate(addDays(today, 364))}, with every installment paid on time:`,
    );
    await expect(maturity).toContainText('You will have paid₹16,500');
    await expect(maturity).toContainText("The shop's bonus₹1,500");
    await expect(maturity).toContainText('You will get₹18,000');
    await expect(page.getByRole('banner')).toContainText('Kanak Jewellers');
    expect(await seriousViolations()).toEqual([]);
    await fitsSmallPhone(page, 'portal home');
  });

  await test.step('points history, newest first', async () => {
    await page.getByRole('link', { name: 'Points history' }).click();
    const table = page.getByRole('table', { name: 'Points history' });
    await expect(table.getByRole('row').nth(1)).toContainText('+1,250');
    expect(await seriousViolations()).toEqual([]);
    await fitsSmallPhone(page, 'points history');
    await home();
  });

  await test.step('the passbook', async () => {
    await page.getByRole('link', { name: `Passbook of scheme ${schemeid}` }).click();
    const table = page.getByRole('table', { name: 'Installments paid' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('row').nth(1)).toContainText('Cash');
    expect(await seriousViolations()).toEqual([]);
    await fitsSmallPhone(page, 'passbook');
    await home();
  });

  let receiptNo = '';
  await test.step('pay the next installment through the checkout and print its receipt', async () => {
    await page.getByRole('link', { name: `Pay installment of scheme ${schemeid}` }).click();
    await expect(
      page.getByText(`Installment 2 of 11, for ${formatMonthName(nextMonth)}`),
    ).toBeVisible();
    await fitsSmallPhone(page, 'pay page');
    await page.getByRole('button', { name: 'Pay ₹1,500' }).click();
    const checkout = page.frameLocator('iframe[title="Razorpay Checkout"]');
    await expect(checkout.getByText('Amount ₹1500.00')).toBeVisible();
    // The payment id the gateway hands the checkout, read on its way to the page.
    let paymentId = '';
    await page.route('**/_fake/checkout/pay', async (route) => {
      const response = await route.fetch();
      paymentId = ((await response.json()) as { razorpay_payment_id: string }).razorpay_payment_id;
      await route.fulfill({ response });
    });
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible();
    expect(paymentId).toMatch(/^pay_/);
    await expect(page.getByRole('status')).toHaveText('Payment received. Thank you.');
    const receipt = page.getByRole('region', { name: 'Installment receipt' });
    await expect(receipt).toContainText('₹1,500');
    await expect(receipt).toContainText('Online');
    await expect(receipt).toContainText('2 of 11');
    await expect(receipt).toContainText(`For the month${formatMonthName(nextMonth)}`);
    await expect(receipt).toContainText(`Payment id${paymentId}`);
    await fitsSmallPhone(page, 'payment receipt');
    receiptNo = (await receipt.locator('dd').first().textContent()) ?? '';
    expect(receiptNo).toMatch(/^[A-Z0-9]+-\d{6}$/);
    expect(await seriousViolations()).toEqual([]);

    await page.getByRole('button', { name: 'Print receipt' }).click();
    expect(await printed()).toBe(1);
    // Printed, the receipt is all there is on the page.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print receipt' })).toBeHidden();
    await expect(receipt).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    await home();
    await expect(page.getByRole('region', { name: 'My schemes' })).toContainText(
      '2 of 11 installments paid',
    );
  });

  await test.step('nothing due: no Pay, and the day the next installment falls due', async () => {
    const schemes = page.getByRole('region', { name: 'My schemes' });
    const nextDue = slashDate(monthsAfter(today, 2));
    await expect(schemes).toContainText(
      `Nothing to pay now. Your next installment is due on ${nextDue}.`,
    );
    await expect(
      page.getByRole('link', { name: `Pay installment of scheme ${schemeid}` }),
    ).toHaveCount(0);
    // The pay page, opened by its address, says the same and offers no Pay.
    await page.goto(`/my/schemes/${schemeid}/pay`);
    await expect(
      page.getByText(`Nothing to pay now. Your next installment is due on ${nextDue}.`),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
    expect(await seriousViolations()).toEqual([]);
    await home();
  });

  await test.step('consents, with the server’s message', async () => {
    await page.getByRole('link', { name: 'What the shop may send me on WhatsApp' }).click();
    const offers = page.getByRole('switch', { name: 'Offers and news' });
    await expect(offers).not.toBeChecked();
    await offers.check();
    await expect(page.getByRole('status')).toHaveText(
      'Offers and marketing messages consent recorded.',
    );
    await expect(offers).toBeChecked();
    expect(await seriousViolations()).toEqual([]);
  });

  await test.step('sign out: the token is gone and the sign-in screen says so', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('status')).toHaveText('Signed out.');
    await expect(page.getByLabel('Mobile number')).toBeVisible();
    const kept = await page.evaluate(
      (prefix) => Object.keys(window.localStorage).filter((key) => key.startsWith(prefix)),
      STORAGE_PREFIX,
    );
    expect(kept).toEqual([]);
  });

  await test.step('the staff’s statement shows the installment paid online', async () => {
    const staff = await browser.newContext({
      storageState: adminState,
      baseURL: process.env.KANAK_E2E_BASE_URL,
    });
    const statement = await staff.newPage();
    await statement.goto(`/home/scheme-statement?schemeid=${schemeid}`);
    const row = statement
      .getByRole('table', { name: 'Scheme statement' })
      .getByRole('row')
      .filter({ hasText: receiptNo });
    await expect(row).toContainText('Installment 2 of 11 · Online');
    await staff.close();
  });
});
