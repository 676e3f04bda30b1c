import {
  COUNTER_TEXTS,
  LEDGER_TEXTS,
  PAGE_TITLES,
  SCHEME_TEXTS,
  SIDEBAR_LABELS,
} from '@kanak/contract';
import {
  adminToken,
  expect,
  newCustomer,
  newStaff,
  pickCustomer,
  seriousViolationsOn,
  signIn,
  startScheme,
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

test.describe('the counter home', () => {
  test.setTimeout(120_000);

  test("a cashier lands on it, the search focused and today's receipt listed; a manager keeps the dashboard", async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    const cashier = await newStaff(request, admin, 'cashier');
    const mobileno = uniqueMobile('9');
    const custname = `Counter Home ${mobileno.slice(-4)}`;
    const custid = await newCustomer(request, admin, { mobileno, custname });
    // The cashier starts the scheme and takes its first installment today.
    await startScheme(
      request,
      cashier.token,
      { custid, mobileno, custname, startdt: today, amount: 1500 },
      { date: today, mode: 'cash' },
    );

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

  test('the quick actions carry the customer chosen: each screen opens with them', async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    const cashier = await newStaff(request, admin, 'cashier');
    const mobileno = uniqueMobile('9');
    const custname = `Deep Link ${mobileno.slice(-4)}`;
    await newCustomer(request, admin, { mobileno, custname });
    const chosen = `${custname} (+91) ${mobileno}`;

    await page.goto('/');
    await signIn(page, cashier);
    await expect(page).toHaveURL(/\/home\/counter$/);
    await pickCustomer(
      page.getByRole('combobox', { name: COUNTER_TEXTS.search }),
      mobileno,
      custname,
    );
    const actions = page.getByRole('navigation', { name: COUNTER_TEXTS.actions });
    for (const [action, path, search] of [
      [COUNTER_TEXTS.redeemPoints, '/home/redeem-points', LEDGER_TEXTS.redeem.search],
      [COUNTER_TEXTS.startScheme, '/home/scheme-generation', SCHEME_TEXTS.generation.search],
      [COUNTER_TEXTS.creditPoints, '/home/loyalty-points', LEDGER_TEXTS.loyaltyPoints.search],
      [COUNTER_TEXTS.takeInstallment, '/home/scheme-summary', SCHEME_TEXTS.summary.search],
    ] as const) {
      await actions.getByRole('link', { name: action }).click();
      await expect(page).toHaveURL(`${path}?customer=${mobileno}`);
      await expect(page.getByRole('combobox', { name: search })).toHaveValue(chosen);
      await page.goBack();
      await expect(actions.getByRole('link', { name: action })).toBeVisible();
    }
    // A number no customer has: the screen opens as without it.
    await page.goto(`/home/redeem-points?customer=${uniqueMobile('8')}`);
    await expect(page.getByRole('heading', { name: PAGE_TITLES.redeemPoints })).toBeVisible();
    await expect(page.getByRole('combobox', { name: LEDGER_TEXTS.redeem.search })).toHaveValue('');
  });
});
