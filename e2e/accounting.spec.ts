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
 * The owner's hand-off to the accountant on the Accounting screen: the Tally company and ledger
 * names saved, this month's vouchers downloaded as a Tally import file (well formed, the
 * customer's name escaped), then sent to the fake Tally the e2e setup starts (TALLY_URL) —
 * created the first time, altered the second — with Tally's answer on the screen. The screen
 * is accessible and fits a 390 px phone.
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
  await page.getByLabel(ACCOUNTING_TEXTS.company, { exact: true }).fill(company);
  await page.getByLabel(TALLY_LEDGERS.cashLedger.label).fill('Cash');
  await page.getByRole('button', { name: ACCOUNTING_TEXTS.save, exact: true }).click();
  await expect(page.getByText('Accounting settings saved.')).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: ACCOUNTING_TEXTS.exportFile }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tally-vouchers-\d{4}-\d{2}-\d{2}.*\.xml$/);
  const xml = await fs.readFile((await download.path())!, 'utf8');
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
