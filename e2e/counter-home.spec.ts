import {
  COUNTER_TEXTS,
  LEDGER_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  SIDEBAR_LABELS,
  financialYearStart,
  formatSchemeDate,
} from '@kanak/contract';
import { DESKTOP, PHONE } from './support/env';
import {
  addDays,
  adminToken,
  dateField,
  expect,
  newCustomer,
  newStaff,
  pickCustomer,
  postAs,
  seriousViolationsOn,
  signIn,
  slashDate,
  startScheme,
  storeToday,
  test,
  uniqueMobile,
} from './support/fixtures';
import { pageOverflow } from './support/geometry';

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

  for (const size of [DESKTOP, PHONE]) {
    test(`Take an installment lists every scheme of the customer, one started before 1 April too (${size.width} wide)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(size);
      const admin = await adminToken(request);
      const cashier = await newStaff(request, admin, 'cashier');
      const mobileno = uniqueMobile('9');
      const custname = `Old Scheme ${mobileno.slice(-4)}`;
      const custid = await newCustomer(request, admin, { mobileno, custname });
      // Started in January of the last financial year, signed on paper and entered by the owner,
      // its installments still being paid: the summary's own From (1 April) leaves it out.
      const startdt = addDays(financialYearStart(today), -86);
      const backdateReason = 'Scheme signed on paper, entered late';
      const { data: old } = await postAs<{ schemeid: number }>(
        request,
        admin,
        '/api/scheme/generate',
        {
          custid,
          mobileno,
          custname,
          startdt,
          amount: 2500,
          backdateReason,
        },
      );
      await postAs(request, admin, '/api/scheme/activate', {
        schemeid: old.schemeid,
        date: startdt,
        mode: 'cash',
        backdateReason,
      });
      // And one started today, awaiting its first installment.
      const fresh = await startScheme(request, admin, {
        custid,
        mobileno,
        custname,
        startdt: today,
        amount: 1000,
      });
      // Another customer's scheme is not theirs.
      const otherMobile = uniqueMobile('9');
      const otherId = await newCustomer(request, admin, {
        mobileno: otherMobile,
        custname: `Not Theirs ${otherMobile.slice(-4)}`,
      });
      const other = await startScheme(request, admin, {
        custid: otherId,
        mobileno: otherMobile,
        custname: `Not Theirs ${otherMobile.slice(-4)}`,
        startdt: today,
        amount: 1000,
      });

      await page.goto('/');
      await signIn(page, cashier);
      await expect(page).toHaveURL(/\/home\/counter$/);
      await pickCustomer(
        page.getByRole('combobox', { name: COUNTER_TEXTS.search }),
        mobileno,
        custname,
      );
      await page
        .getByRole('navigation', { name: COUNTER_TEXTS.actions })
        .getByRole('link', { name: COUNTER_TEXTS.takeInstallment })
        .click();

      await expect(page.getByRole('heading', { name: PAGE_TITLES.schemeSummary })).toBeVisible();
      await expect(page.getByRole('combobox', { name: SCHEME_TEXTS.summary.search })).toHaveValue(
        `${custname} (+91) ${mobileno}`,
      );
      // Listed at once, no Generate Summary to press: the old scheme and the new one.
      const table = page.getByRole('table', { name: SCHEME_TEXTS.summary.table });
      const oldRow = table.getByRole('row').filter({
        has: page.getByRole('link', { name: SCHEME_TEXTS.statement.open(old.schemeid) }),
      });
      await expect(oldRow).toContainText(formatSchemeDate(startdt));
      await expect(oldRow).toContainText('Active');
      await expect(
        table.getByRole('link', { name: SCHEME_TEXTS.statement.open(fresh) }),
      ).toBeVisible();
      await expect(
        table.getByRole('link', { name: SCHEME_TEXTS.statement.open(other) }),
      ).toHaveCount(0);
      await expect(page.getByText(MESSAGES.noSummaryResults)).toHaveCount(0);
      await expect
        .poll(() => pageOverflow(page), { message: `summary at ${size.width}` })
        .toBeLessThanOrEqual(0);

      // Scheme Summary from the menu keeps its own From: the financial year's start.
      await page.goto('/home/scheme-summary');
      await expect(page.getByRole('heading', { name: PAGE_TITLES.schemeSummary })).toBeVisible();
      await expect(dateField(page, SCHEME_TEXTS.summary.from).locator('input')).toHaveValue(
        slashDate(financialYearStart(today)),
      );
    });
  }
});
