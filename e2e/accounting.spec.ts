import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ACCOUNTING_TEXTS, TALLY_LEDGERS } from '@kanak/contract';
import { PHONE } from './support/env';
import {
  adminPage,
  apiPost,
  expect,
  signedIn as test,
  startScheme,
  storedToken,
  storeToday,
  uniqueMobile,
} from './support/fixtures';

/**
 * The owner's hand-off to the accountant on the Accounting screen: the month's download comes
 * first, then how to import the file in TallyPrime (its menu path, each ledger's group), then
 * the one-time ledger set-up; the Tally company and ledger names saved, this month's vouchers
 * downloaded as a Tally import file (well formed, the customer's name escaped, Razorpay's
 * payouts read from the fake Razorpay the e2e setup starts), then sent to the fake Tally
 * (TALLY_URL) — created the first time, altered the second — with Tally's answer on the
 * screen. The screen is accessible and fits a 390 px phone.
 */

const today = storeToday();
const mobile = uniqueMobile('8');
const custname = `A&B <Jewels> ${mobile.slice(-4)}`;
const company = `Kanak Jewellers ${mobile.slice(-4)}`;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async ({ browser, adminState }) => {
  const { page, request, close } = await adminPage(browser, adminState);
  const saved = await apiPost<{ custid: number }>(
    page,
    request,
    '/api/customers/update-customer-data',
    { formData: { custid: null, mobileno: mobile, custname } },
  );
  await startScheme(
    request,
    await storedToken(page),
    { custid: saved.data!.custid, mobileno: mobile, custname, startdt: today, amount: 2_500 },
    { date: today, mode: 'upi', reference: 'UTR-TALLY-E2E' },
  );
  await close();
});

/** Tally's counts as the answer on the screen words them. */
async function tallyAnswer(page: Page) {
  const answer = page.getByRole('status', { name: ACCOUNTING_TEXTS.resultHeading });
  await expect(answer).toBeVisible();
  const text = (await answer.textContent()) ?? '';
  const [, created, altered] = /(\d+) created, (\d+) altered/.exec(text) ?? [];
  return { text, created: Number(created), altered: Number(altered) };
}

async function push(page: Page) {
  await page.getByRole('button', { name: ACCOUNTING_TEXTS.push }).click();
  const dialog = page.getByRole('dialog', { name: ACCOUNTING_TEXTS.confirmTitle });
  await dialog.getByRole('button', { name: ACCOUNTING_TEXTS.confirm }).click();
  await expect(dialog).toBeHidden();
  return tallyAnswer(page);
}

test('the owner names the ledgers, downloads the Tally file and sends it to Tally twice', async ({
  page,
  seriousViolations,
}) => {
  await page.goto('/home/accounting');
  const download = page.getByRole('button', { name: ACCOUNTING_TEXTS.exportFile });
  const help = page.getByRole('region', { name: ACCOUNTING_TEXTS.helpHeading });
  const setUp = page.getByRole('button', {
    name: new RegExp(`^${ACCOUNTING_TEXTS.ledgersHeading.replace(/[()]/g, '\\$&')}`),
  });
  await expect(download).toBeVisible();
  await expect(help).toContainText('Gateway of Tally → Import → Transactions');
  await expect(help.getByRole('row', { name: /^Scheme advances/ })).toContainText(
    'Current Liabilities',
  );
  await expect(
    help.getByRole('row', { name: /^Online installments until Razorpay/ }),
  ).toContainText('Current Assets');
  // The month's download first, the help next, the one-time set-up last: as the page reads.
  const top = async (element: typeof download) => (await element.boundingBox())!.y;
  expect(await top(download)).toBeLessThan(await top(help));
  expect(await top(help)).toBeLessThan(await top(setUp));

  if ((await setUp.getAttribute('aria-expanded')) !== 'true') await setUp.click();
  await page.getByLabel(ACCOUNTING_TEXTS.company, { exact: true }).fill(company);
  await page.getByLabel(TALLY_LEDGERS.cashLedger.label).fill('Cash');
  await page.getByRole('button', { name: ACCOUNTING_TEXTS.save, exact: true }).click();
  await expect(page.getByText('Accounting settings saved.')).toBeVisible();

  const downloading = page.waitForEvent('download');
  await download.click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^tally-vouchers-\d{4}-\d{2}-\d{2}.*\.xml$/);
  // The e2e server has Razorpay's keys: the file says how many payouts it holds.
  await expect(page.getByText(/^Downloaded, with \d+ Razorpay payouts?\.$/)).toBeVisible();
  const xml = await fs.readFile((await file.path())!, 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  const tree = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === 'TALLYMESSAGE',
  }).parse(xml);
  const importData = tree.ENVELOPE.BODY.IMPORTDATA;
  expect(importData.REQUESTDESC.STATICVARIABLES.SVCURRENTCOMPANY).toBe(company);
  const narrations = (
    importData.REQUESTDATA.TALLYMESSAGE as { VOUCHER: { NARRATION: string } }[]
  ).map((message) => String(message.VOUCHER.NARRATION));
  // The name as typed, once the file is read: escaped in it, never breaking it.
  expect(narrations.some((narration) => narration.includes(custname))).toBe(true);
  expect(xml).toContain('A&amp;B &lt;Jewels&gt;');

  const first = await push(page);
  expect(first.text).toMatch(/Tally imported \d+ vouchers/);
  expect(first.created).toBeGreaterThan(0);
  const again = await push(page);
  expect(again.altered).toBeGreaterThanOrEqual(first.created);
  expect(await seriousViolations(), 'Accounting').toEqual([]);

  await page.setViewportSize(PHONE);
  await expect(page.getByRole('button', { name: ACCOUNTING_TEXTS.push })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: 'Accounting: wider than the phone by this many px',
    })
    .toBeLessThanOrEqual(0);
  expect(await seriousViolations(), 'Accounting at 390 px').toEqual([]);
});
