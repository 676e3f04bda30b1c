import {
  COUNTER_HUB_TEXTS,
  COUNTER_TEXTS,
  LEDGER_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  addMonths,
  formatMonthName,
  formatRupees,
  monthAfter,
} from '@kanak/contract';
import { DESKTOP, PHONE } from './support/env';
import {
  addDays,
  adminToken,
  expect,
  expectNothingCut,
  newCustomer,
  newStaff,
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
 * The counter home as a hub: the cashier types the mobile, Enter picks the customer, Tab
 * reaches the due scheme's "Take ₹X for <month>", Enter opens its dialog with the amount and
 * month filled in and "Save and print" focused, Enter saves: the receipt opens and prints, and
 * the day's list holds it. Three presses after the number. A whole number nobody has offers
 * "Add customer", which opens Customer Profile with the number typed in. At a laptop's and a
 * phone's width, with nothing cut and no sideways scroll.
 */

const today = storeToday();
const hub = COUNTER_HUB_TEXTS;
const LAPTOP = { width: 1280, height: 720 } as const;

test.describe('the counter hub', () => {
  test.setTimeout(120_000);

  for (const size of [DESKTOP, PHONE]) {
    test(`finds the customer, takes the due installment and prints its receipt in three presses (${size.width}×${size.height})`, async ({
      page,
      request,
      printed,
    }) => {
      await page.setViewportSize(size);
      const admin = await adminToken(request);
      const cashier = await newStaff(request, admin, 'cashier');
      const mobileno = uniqueMobile('9');
      const custname = `Hub Customer ${mobileno.slice(-4)}`;
      const custid = await newCustomer(request, admin, { mobileno, custname });
      // Started five weeks ago and paid for its first month then: this month's is due.
      const startdt = addDays(today, -35);
      const schemeid = await startScheme(
        request,
        admin,
        { custid, mobileno, custname, startdt, amount: 1500 },
        { date: startdt, mode: 'cash' },
      );
      // Points: some earned long enough ago to expire within the month, some today.
      const rules = await request.get('/api/settings/points', {
        headers: { Authorization: `Bearer ${admin}` },
      });
      expect(rules.status()).toBe(200);
      const months = ((await rules.json()) as { data: { current: { expiryMonths: number } } }).data
        .current.expiryMonths;
      const oldDate = months > 0 ? addMonths(addDays(today, 10), -months) : today;
      for (const [points, date] of [
        [120, oldDate],
        [400, today],
      ] as const) {
        await postAs(request, admin, '/api/customers/update-points', {
          formData: {
            MOBILENO: mobileno,
            POINTS: String(points),
            INVDATE: date,
            CASHCR: 'CR',
            NARRATION: '',
          },
        });
      }

      await page.goto('/');
      await signIn(page, cashier);
      await expect(page).toHaveURL(/\/home\/counter$/);
      const search = page.getByRole('combobox', { name: COUNTER_TEXTS.search });
      await expect(search).toBeFocused();
      await search.pressSequentially(mobileno);
      const option = LEDGER_TEXTS.customerSearch.optionLabel({
        CUSTNAME: custname,
        MOBILENO: mobileno,
      });
      await expect(page.getByRole('option', { name: option })).toBeVisible();
      // Press 1: Enter picks the customer listed.
      await search.press('Enter');
      const section = page.getByRole('region', { name: hub.region(custname) });
      await expect(section.getByText(hub.balance('520'))).toBeVisible();
      await expect(section.getByText(/worth ₹[\d,]+/)).toBeVisible();
      if (months > 0) {
        await expect(section).toContainText(
          hub.expiringOn('120', slashDate(addMonths(oldDate, months))),
        );
      }
      const thisMonth = today.slice(0, 7);
      const take = section.getByRole('button', {
        name: hub.take(formatRupees(1500), formatMonthName(thisMonth)),
      });
      await expect(take).toBeVisible();
      await expect(section.getByRole('listitem')).toContainText(hub.paid(1, 11));
      // Tab from the search reaches the scheme's button first.
      await search.press('Tab');
      await expect(take).toBeFocused();
      await expect.poll(() => pageOverflow(page), { message: 'hub' }).toBeLessThanOrEqual(0);
      await expectNothingCut(page, 'counter hub');
      expect(await seriousViolationsOn(page), 'counter hub').toEqual([]);
      if (size === DESKTOP) {
        await page.setViewportSize(LAPTOP);
        await expect.poll(() => pageOverflow(page), { message: 'hub 1280' }).toBeLessThanOrEqual(0);
        await expectNothingCut(page, 'counter hub');
        await page.setViewportSize(size);
        await take.focus();
      }

      // Press 2: the dialog, the amount and month filled in, cash chosen, Save and print focused.
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: hub.dialog.title(schemeid) });
      await expect(dialog).toContainText(formatRupees(1500));
      await expect(dialog).toContainText(formatMonthName(thisMonth));
      await expect(dialog.getByLabel(SCHEME_TEXTS.installment.mode)).toHaveValue('cash');
      const save = dialog.getByRole('button', { name: hub.dialog.save });
      await expect(save).toBeFocused();
      await expect.poll(() => pageOverflow(page), { message: 'dialog' }).toBeLessThanOrEqual(0);
      expect(await seriousViolationsOn(page), 'take dialog').toEqual([]);

      // Press 3: saved, the receipt opens and prints.
      await page.keyboard.press('Enter');
      const receipt = page.getByRole('dialog', { name: SCHEME_TEXTS.receipt.title('') });
      await expect(receipt).toContainText(custname);
      await expect(receipt).toContainText(formatRupees(1500));
      await expect.poll(printed, { message: 'the receipt printed' }).toBe(1);
      const title = (await receipt.getByRole('heading').first().textContent()) ?? '';
      const receiptNo = title.replace(SCHEME_TEXTS.receipt.title(''), '').trim();
      expect(receiptNo).not.toBe('');
      await receipt.getByRole('button', { name: SCHEME_TEXTS.receipt.close }).click();

      // The day's list holds it, and the scheme now offers next month's in advance.
      const todays = page.getByRole('table', { name: COUNTER_TEXTS.today });
      await expect(todays.getByRole('row', { name: new RegExp(custname) })).toContainText(
        formatRupees(1500),
      );
      await expect(todays).toContainText(receiptNo);
      await expect(
        section.getByRole('button', {
          name: hub.takeAdvance(formatRupees(1500), formatMonthName(monthAfter(thisMonth))),
        }),
      ).toBeVisible();
      await expect(section.getByRole('listitem')).toContainText(hub.paid(2, 11));
    });

    test(`offers to add a customer for a number nobody has (${size.width}×${size.height})`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(size);
      const admin = await adminToken(request);
      const cashier = await newStaff(request, admin, 'cashier');
      const mobileno = uniqueMobile('8');

      await page.goto('/');
      await signIn(page, cashier);
      await expect(page).toHaveURL(/\/home\/counter$/);
      const search = page.getByRole('combobox', { name: COUNTER_TEXTS.search });
      await search.pressSequentially(mobileno);
      const add = page.getByRole('link', { name: hub.addCustomer });
      await expect(add).toBeVisible();
      await expect.poll(() => pageOverflow(page), { message: 'add' }).toBeLessThanOrEqual(0);
      await add.click();
      await expect(page).toHaveURL(`/home/customer-profile?customer=${mobileno}`);
      await expect(
        page.getByRole('heading', { name: PAGE_TITLES.customerProfile, exact: true }),
      ).toBeVisible();
      await expect(
        page.getByRole('combobox', { name: LEDGER_TEXTS.customerProfile.search }),
      ).toHaveValue(mobileno);
      // Saved with a name, the customer is on file with that number.
      await page
        .getByLabel(LEDGER_TEXTS.customerProfile.name, { exact: true })
        .fill('New Hub Customer');
      await page
        .getByRole('button', { name: LEDGER_TEXTS.customerProfile.save, exact: true })
        .click();
      await expect(
        page.getByRole('alert').filter({ hasText: MESSAGES.customerSaved }),
      ).toBeVisible();
    });
  }
});
