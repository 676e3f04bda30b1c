import type { Page } from '@playwright/test';
import { GOLD_RATE_TEXTS, MESSAGES, PAGE_TITLES } from '@kanak/contract';
import { DESKTOP, PHONE } from './support/env';
import {
  addDays,
  adminToken,
  dateField,
  expect,
  seriousViolationsOn,
  signedIn,
  slashDate,
  storeToday,
  typeDate,
} from './support/fixtures';
import { misfits, pageOverflow } from './support/geometry';

/**
 * The owner enters a day's gold rate, is refused bad rates in words, and corrects the rate only
 * after confirming; the screen fits the counter PC and a phone, axe clean.
 */

const texts = GOLD_RATE_TEXTS;

/** A past date with no rate yet: the rates are one per date and outlive each run. */
async function freeDate(page: Page): Promise<string> {
  const token = await adminToken(page.request);
  for (;;) {
    const date = addDays(storeToday(), -(400 + Math.floor(Math.random() * 3000)));
    const answer = await page.request.get(`/api/gold-rates?from=${date}&to=${date}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = (await answer.json()) as { data: unknown[] };
    if (body.data.length === 0) return date;
  }
}

async function fits(page: Page, where: string) {
  await expect.poll(() => pageOverflow(page), { message: where }).toBeLessThanOrEqual(0);
  for (const table of await page.getByRole('table').all()) {
    expect(await misfits(table), where).toEqual([]);
  }
  expect(await seriousViolationsOn(page), where).toEqual([]);
}

signedIn('enters a rate, refuses bad ones, corrects only once confirmed', async ({ page }) => {
  // Two viewports and three axe runs: longer than one look at a screen.
  signedIn.setTimeout(180_000);
  const date = await freeDate(page);
  await page.setViewportSize(DESKTOP);
  await page.goto('/home/gold-rate');
  await expect(page.getByRole('heading', { name: PAGE_TITLES.goldRate, level: 1 })).toBeVisible();
  const rate22k = page.getByLabel(texts.rate22k);
  const rate24k = page.getByLabel(texts.rate24k);
  const save = page.getByRole('button', { name: texts.save });
  const history = page.getByRole('table', { name: texts.historyTable });

  // Bad input: said under each field, nothing sent.
  await rate22k.fill('7250.555');
  await rate24k.fill('-1');
  await save.click();
  await expect(page.getByText('22K rate can have at most 2 decimals (whole paise).')).toBeVisible();
  await expect(page.getByText('24K rate must be more than zero.')).toBeVisible();
  await typeDate(dateField(page, texts.date), slashDate(addDays(storeToday(), 1)));
  await rate22k.fill('7250.5');
  await rate24k.fill('7910');
  await save.click();
  await expect(page.getByRole('alert').filter({ hasText: MESSAGES.goldRateFuture })).toBeVisible();

  // A new date's rate is saved at once.
  await typeDate(dateField(page, texts.date), slashDate(date));
  await save.click();
  await expect(page.getByText(MESSAGES.goldRateSaved(date))).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The history of that date shows it.
  await typeDate(dateField(page, texts.from), slashDate(date));
  await typeDate(dateField(page, texts.to), slashDate(date));
  await page.getByRole('button', { name: texts.show }).click();
  await expect(history).toContainText('₹7,250.50');
  await fits(page, 'Gold rate at 1366×768');

  // The same date again is a correction: asked first, both rates shown.
  await rate22k.fill('7260');
  await rate24k.fill('7920.25');
  await save.click();
  const dialog = page.getByRole('dialog', { name: texts.confirmTitle });
  await expect(dialog).toContainText(
    texts.confirmQuestion(
      slashDate(date),
      texts.ratePair('₹7,250.50', '₹7,910'),
      texts.ratePair('₹7,260', '₹7,920.25'),
    ),
  );
  expect(await seriousViolationsOn(page), 'correction dialog').toEqual([]);
  await dialog.getByRole('button', { name: texts.cancel }).click();
  await expect(dialog).toBeHidden();
  await expect(history).toContainText('₹7,250.50');
  await save.click();
  await dialog.getByRole('button', { name: texts.confirm }).click();
  await expect(page.getByText(MESSAGES.goldRateCorrected(date))).toBeVisible();
  await expect(history).toContainText('₹7,920.25');
  await expect(history).not.toContainText('₹7,250.50');

  await page.setViewportSize(PHONE);
  await fits(page, 'Gold rate at 390×844');
});
