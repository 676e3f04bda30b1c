import type { APIRequestContext, Page } from '@playwright/test';
import { LEDGER_TEXTS, MESSAGES, PAGE_TITLES, SIDEBAR_LABELS, UI_TEXTS } from '@kanak/contract';
import { DESKTOP, PHONE } from './support/env';
import {
  adminToken,
  expect,
  newCustomer,
  newStaff,
  postAs,
  seriousViolationsOn,
  signIn,
  slashDate,
  storeToday,
  test,
  uniqueMobile,
} from './support/fixtures';
import { pageOverflow } from './support/geometry';

/**
 * A cashier redeems a customer's points at the counter: the balance, its worth and the minimum
 * on screen; too few or too many refused in the server's own words with nothing taken; one
 * redemption however often REDEEM is pressed; a slip to print; all of it by keyboard, axe
 * clean, and in view on the counter PC and on a phone.
 */

const texts = LEDGER_TEXTS.redeem;

interface Terms {
  balance: number;
  value: number;
  pointValue: number;
  minRedeemPoints: number;
}

async function customerWithPoints(request: APIRequestContext, token: string, points: number) {
  const mobileno = uniqueMobile('9');
  const custname = `Redeem ${mobileno.slice(-4)}`;
  await newCustomer(request, token, { mobileno, custname });
  await postAs(request, token, '/api/customers/update-points', {
    formData: {
      CUSTNAME: custname,
      MOBILENO: mobileno,
      POINTS: String(points),
      NARRATION: '',
      INVDATE: storeToday(),
      CASHCR: 'CR',
    },
  });
  return { mobileno, custname };
}

const termsOf = async (request: APIRequestContext, token: string, mobile: string) =>
  (await postAs<Terms>(request, token, '/api/points/redeem-terms', { mobile })).data;

const pointsField = (page: Page) => page.getByRole('textbox', { name: texts.points });

/** Chooses the customer by keyboard: types the mobile, Enter on the highlighted match. */
async function chooseByKeyboard(page: Page, customer: { mobileno: string; custname: string }) {
  const search = page.getByRole('combobox', { name: texts.search });
  await expect(search).toBeFocused();
  await page.keyboard.type(customer.mobileno);
  await expect(
    page.getByRole('option', { name: `${customer.custname} (+91) ${customer.mobileno}` }),
  ).toBeVisible();
  await page.keyboard.press('Enter');
}

const inViewport = (page: Page) =>
  page.evaluate(() => {
    const paper = document.querySelector('.MuiDialog-paper');
    if (!paper) return false;
    const box = paper.getBoundingClientRect();
    return box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight;
  });

test.describe('counter redemption', () => {
  test.setTimeout(120_000);

  test('a cashier redeems by keyboard: refusals change nothing, a double press takes once, the slip shows the points, the cash book holds it', async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    const cashier = await newStaff(request, admin, 'cashier');
    const customer = await customerWithPoints(request, admin, 1000);
    const rules = await termsOf(request, admin, customer.mobileno);
    const worth = (points: number) =>
      `₹${(points * rules.pointValue).toLocaleString('en-IN', { maximumFractionDigits: 2 })}`;

    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await signIn(page, cashier);
    // The sidebar's entry: the counter home the cashier lands on has a "Redeem points" of its own.
    await page
      .getByRole('navigation', { name: UI_TEXTS.layout.mainNavigation })
      .getByRole('link', { name: SIDEBAR_LABELS.redeemPoints, exact: true })
      .click();
    await expect(page.getByRole('heading', { name: PAGE_TITLES.redeemPoints })).toBeVisible();
    await chooseByKeyboard(page, customer);
    const balance = page.getByRole('status', { name: texts.balance });
    await expect(balance).toContainText(texts.balanceValue('1,000', worth(1000)));
    await expect(balance).toContainText(
      texts.minimum(rules.minRedeemPoints.toLocaleString('en-IN')),
    );
    expect(await seriousViolationsOn(page), 'redeem points').toEqual([]);

    // Too few, then more than the balance: refused in the server's words, nothing sent.
    await page.keyboard.press('Tab');
    await expect(pointsField(page)).toBeFocused();
    await page.keyboard.type(String(rules.minRedeemPoints - 1));
    await page.keyboard.press('Enter');
    await expect(page.getByText(MESSAGES.redeemBelowMinimum(rules.minRedeemPoints))).toBeVisible();
    await pointsField(page).fill('1001');
    await page.keyboard.press('Enter');
    await expect(page.getByText(MESSAGES.insufficientPoints(1000))).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Another counter takes 300 meanwhile: the server refuses what the screen still allowed.
    await postAs(request, admin, '/api/points/redeem', {
      mobile: customer.mobileno,
      points: 300,
    });
    await pointsField(page).fill('800');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: texts.confirmTitle });
    await expect(confirm.getByRole('button', { name: texts.cancel })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(confirm.getByRole('alert')).toHaveText(MESSAGES.insufficientPoints(700));
    expect((await termsOf(request, admin, customer.mobileno)).balance).toBe(700);
    expect(await seriousViolationsOn(page), 'refusal in the confirmation').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();

    // 250 of the 700 left, REDEEM pressed twice: taken once.
    await pointsField(page).fill('250');
    await page.getByRole('textbox', { name: texts.invoiceNo }).fill('B-2041');
    await pointsField(page).press('Enter');
    await expect(confirm).toContainText(
      texts.confirmQuestion('250', worth(250), `${customer.custname} (+91) ${customer.mobileno}`),
    );
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const slip = page.getByRole('dialog', { name: texts.slip.title });
    await expect(slip).toContainText(texts.slip.pointsValue('250'));
    await expect(slip).toContainText(worth(250));
    await expect(slip).toContainText(texts.slip.pointsValue('450'));
    await expect(slip).toContainText('B-2041');
    expect((await termsOf(request, admin, customer.mobileno)).balance).toBe(450);
    expect(await seriousViolationsOn(page), 'redemption slip').toEqual([]);

    // In view at the counter PC and on a phone, the slip and the screen behind it.
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await expect.poll(() => inViewport(page), `slip at ${size.width}`).toBe(true);
      // Asked until the layout has settled at the new width (the sidebar changes its kind).
      await expect
        .poll(() => pageOverflow(page), { message: `slip at ${size.width}` })
        .toBeLessThanOrEqual(0);
    }
    // On paper: the slip alone.
    await page.evaluate(() => document.body.classList.add('kanak-print-receipt'));
    await page.emulateMedia({ media: 'print' });
    await expect(slip).toContainText(texts.slip.pointsValue('250'));
    await expect(page.getByRole('heading', { name: PAGE_TITLES.redeemPoints })).toBeHidden();
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => document.body.classList.remove('kanak-print-receipt'));

    await slip.getByRole('button', { name: texts.slip.close }).click();
    await expect(slip).toBeHidden();
    await expect(balance).toContainText(texts.balanceValue('450', worth(450)));

    // The owner's cash book holds both, each once: who redeemed, the bill, points and worth.
    const book = await request.post('/api/reports/collections', {
      data: { format: 'csv' },
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(book.status()).toBe(200);
    const day = slashDate(storeToday());
    const redeemed = (staff: string, bill: string, points: number) =>
      new RegExp(
        `^${day},\\d\\d:\\d\\d,[A-Z]+,${staff},Points redeemed,${bill},,${customer.custname},${customer.mobileno},Points,${points * rules.pointValue},${points},${day},$`,
      );
    const lines = (await book.text())
      .split('\r\n')
      .filter((line) => line.includes(`,${customer.mobileno},`));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(redeemed('[^,]+', '', 300));
    expect(lines[1]).toMatch(redeemed('Counter cashier', 'B-2041', 250));

    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await expect
        .poll(() => pageOverflow(page), { message: `screen at ${size.width}` })
        .toBeLessThanOrEqual(0);
    }
  });
});
