import type { Locator, Page } from '@playwright/test';
import {
  DEFAULT_NOTICE_TEXTS,
  DELIVERY_LOG_TEXTS,
  NOTICE_EVENTS,
  NOTICE_EVENT_LABELS,
  NOTICE_SAMPLE_VALUES,
  PAGE_TITLES,
  TEMPLATE_TEXTS,
  renderNotice,
} from '@kanak/contract';
import { PHONE } from './support/env';
import {
  apiPost,
  dateField,
  expect,
  expectNothingCut,
  pageTitle,
  signedIn as test,
  slashDate,
  typeDate,
  uniqueMobile,
} from './support/fixtures';

/**
 * Notices to customers, seen by the owner: Message Templates edits an event's text (in Tamil)
 * with its preview and switches an event off and on again; the Delivery Log shows the notice a
 * points credit wrote, found through its filters. Both screens are accessible and fit a 390 px
 * phone. Each test puts back what it changed: the templates are the shop's, shared by the run.
 */

const TEMPLATES = '/home/message-templates';
const DELIVERY_LOG = '/home/delivery-log';
const t = TEMPLATE_TEXTS;
const log = DELIVERY_LOG_TEXTS;

const TAMIL = 'அன்புள்ள {name}, உங்கள் தங்க சேமிப்புத் திட்டம் {shop} இல் நிறைவடைந்தது. நன்றி!';

const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });

const templatesTable = (page: Page) => page.getByRole('table', { name: t.table });
const templateRow = (page: Page, label: string) =>
  templatesTable(page).getByRole('row').filter({ hasText: label });
const sendSwitch = (page: Page, label: string) =>
  page.getByRole('switch', { name: t.switchLabel(label) });

async function openTemplate(page: Page, label: string) {
  await page.getByRole('button', { name: t.edit(label) }).click();
  const dialog = page.getByRole('dialog', { name: t.editTitle(label) });
  await expect(dialog).toBeVisible();
  return { dialog, text: dialog.getByRole('textbox', { name: t.text }) };
}

/** Saves the open template dialog and waits for it to close. */
async function saveTemplate(dialog: Locator) {
  await dialog.getByRole('button', { name: new RegExp(`${t.save}$`) }).click();
  await expect(dialog).toBeHidden();
}

test.describe('Message Templates', () => {
  test('an event’s text in Tamil, previewed and saved; an event switched off and on', async ({
    page,
    seriousViolations,
  }) => {
    test.setTimeout(90_000);
    const closed = NOTICE_EVENT_LABELS.schemeClosed;
    const matured = NOTICE_EVENT_LABELS.schemeMatured;
    await page.goto(TEMPLATES);
    await expect(pageTitle(page, new RegExp(`^${PAGE_TITLES.messageTemplates}$`))).toBeVisible();
    // The header row and one row an event.
    await expect(templatesTable(page).getByRole('row')).toHaveCount(1 + NOTICE_EVENTS.length);
    expect(await seriousViolations(), 'Message Templates').toEqual([]);

    await test.step('a Tamil text with its preview', async () => {
      const { dialog, text } = await openTemplate(page, closed);
      const preview = dialog.getByRole('region', { name: t.preview });
      await text.fill(`${TAMIL} {nmae}`);
      await expect(dialog.getByRole('alert')).toHaveText(t.unknownPlaceholders(['nmae']));
      expect(await seriousViolations(), 'The template dialog').toEqual([]);
      await text.fill(TAMIL);
      await expect(dialog.getByRole('alert')).toHaveCount(0);
      await expect(preview).toContainText(renderNotice(TAMIL, NOTICE_SAMPLE_VALUES));
      await saveTemplate(dialog);
      await expect(templateRow(page, closed)).toContainText(TAMIL);
      await expect(templateRow(page, closed)).toContainText(t.customised);
    });

    await test.step('kept by the server', async () => {
      await page.reload();
      await expect(templateRow(page, closed)).toContainText(TAMIL);
    });

    await test.step('the default text put back', async () => {
      const { dialog, text } = await openTemplate(page, closed);
      await expect(text).toHaveValue(TAMIL);
      await dialog.getByRole('button', { name: t.restoreDefault }).click();
      await expect(text).toHaveValue(DEFAULT_NOTICE_TEXTS.schemeClosed);
      await saveTemplate(dialog);
      await expect(templateRow(page, closed)).toContainText(DEFAULT_NOTICE_TEXTS.schemeClosed);
      await expect(templateRow(page, closed)).not.toContainText(t.customised);
    });

    await test.step('an event switched off, and on again', async () => {
      await expect(sendSwitch(page, matured)).toBeChecked();
      // By keyboard, as the switch is a checkbox: Space turns it.
      await sendSwitch(page, matured).focus();
      await page.keyboard.press('Space');
      await expect(sendSwitch(page, matured)).not.toBeChecked();
      await expect(sendSwitch(page, matured)).toBeEnabled();
      await page.reload();
      await expect(sendSwitch(page, matured)).not.toBeChecked();
      await expect(templateRow(page, matured)).toContainText(t.off);
      await sendSwitch(page, matured).click();
      await expect(sendSwitch(page, matured)).toBeChecked();
      await expect(sendSwitch(page, matured)).toBeEnabled();
    });
  });
});

test.describe('Delivery Log', () => {
  test('shows the notice a points credit wrote, found by its filters', async ({
    page,
    request,
    seriousViolations,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/home');
    const mobile = uniqueMobile('8');
    const custname = `Meenakshi Sundaram ${mobile.slice(-4)}`;
    const saved = await apiPost<{ custid: number }>(
      page,
      request,
      '/api/customers/update-customer-data',
      { formData: { custid: null, mobileno: mobile, custname, city: 'Madurai' } },
    );
    await apiPost(page, request, '/api/customers/consent', {
      custid: saved.data!.custid,
      purpose: 'transactional',
      granted: true,
    });
    await apiPost(page, request, '/api/customers/update-points', {
      formData: { MOBILENO: mobile, POINTS: 120, INVDATE: today(), CASHCR: 'CR', NARRATION: '' },
    });

    await page.goto(DELIVERY_LOG);
    await expect(pageTitle(page, new RegExp(`^${PAGE_TITLES.deliveryLog}$`))).toBeVisible();
    const table = page.getByRole('table', { name: log.table });
    const search = page.getByRole('button', { name: new RegExp(`${log.search}$`) });
    await page.getByLabel(log.mobile).fill(mobile);
    await search.click();
    const row = table.getByRole('row').filter({ hasText: mobile });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(custname);
    await expect(row).toContainText('120');
    expect(await seriousViolations(), 'Delivery Log').toEqual([]);

    // Its event, as the log names it, finds it; another event does not.
    const cells = await row.getByRole('cell').allTextContents();
    const event = cells[1]!;
    expect(Object.values(NOTICE_EVENT_LABELS)).toContain(event);
    const eventFilter = page.getByLabel(log.event, { exact: true });
    await eventFilter.selectOption({ label: event });
    await typeDate(dateField(page, log.from), slashDate(today()));
    await typeDate(dateField(page, log.to), slashDate(today()));
    await search.click();
    await expect(row).toHaveCount(1);
    await expect(page.getByRole('status').filter({ hasText: log.pageOf(1, 1, 1) })).toBeVisible();

    await eventFilter.selectOption({ label: NOTICE_EVENT_LABELS.schemeClosed });
    await search.click();
    await expect(table.getByText(log.empty)).toBeVisible();
    await expect(row).toHaveCount(0);

    await page.getByRole('button', { name: log.clear }).click();
    await expect(page.getByLabel(log.mobile)).toHaveValue('');
    await expect(table.getByRole('row').first()).toBeVisible();
  });
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: PHONE });

  for (const [path, title] of [
    [TEMPLATES, PAGE_TITLES.messageTemplates],
    [DELIVERY_LOG, PAGE_TITLES.deliveryLog],
  ] as const) {
    test(`${path} fits, cuts nothing and is accessible`, async ({ page, seriousViolations }) => {
      await page.goto(path);
      await expect(pageTitle(page, new RegExp(`^${title}$`))).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await expectNothingCut(page, title);
      expect(await seriousViolations(), `${title} on a phone`).toEqual([]);
    });
  }

  test('the template dialog fits a phone', async ({ page }) => {
    await page.goto(TEMPLATES);
    const { dialog } = await openTemplate(page, NOTICE_EVENT_LABELS.installmentReceived);
    await expect(dialog.getByRole('region', { name: t.preview })).toContainText(
      String(NOTICE_SAMPLE_VALUES.receipt),
    );
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await expectNothingCut(page, 'The template dialog');
    await dialog.getByRole('button', { name: t.cancel }).click();
    await expect(dialog).toBeHidden();
  });
});
