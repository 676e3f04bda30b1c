import type { Page } from '@playwright/test';
import {
  API_PATHS,
  GOLD_RATE_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  TIER_MESSAGES,
  TIERS_TEXTS,
  type TiersSettings,
} from '@kanak/contract';
import { DESKTOP } from './support/env';
import {
  addDays,
  adminToken,
  dateField,
  expect,
  signedIn,
  slashDate,
  storeToday,
  typeDate,
} from './support/fixtures';

/**
 * The owner types amounts as an Indian shop writes them, "2,00,000" and "7,904", on the counter
 * PC, and they are saved as those numbers and shown back as ₹2,00,000 and ₹7,904.
 */

async function api(page: Page, method: 'GET' | 'POST', path: string, data?: unknown) {
  const headers = {
    Authorization: `Bearer ${await adminToken(page.request)}`,
    'Idempotency-Key': crypto.randomUUID(),
  };
  const answer =
    method === 'GET'
      ? await page.request.get(`/api${path}`, { headers })
      : await page.request.post(`/api${path}`, { headers, data });
  return (await answer.json()) as { success: boolean; data: unknown };
}

/** A past date with no rate yet, nor one in the month before it: the rates outlive each run. */
async function freeDate(page: Page): Promise<string> {
  for (;;) {
    const date = addDays(storeToday(), -(400 + Math.floor(Math.random() * 3000)));
    const near = await api(
      page,
      'GET',
      `${API_PATHS.goldRates}?from=${addDays(date, -40)}&to=${date}`,
    );
    if ((near.data as unknown[]).length === 0) return date;
  }
}

signedIn(
  'Tiers take "2,00,000" and Gold rate "7,904", saved and shown in rupees',
  async ({ page }) => {
    signedIn.setTimeout(120_000);
    await page.setViewportSize(DESKTOP);
    const before = (await api(page, 'GET', API_PATHS.tiers)).data as TiersSettings;
    try {
      await page.goto('/home/tiers');
      await expect(page.getByRole('heading', { name: PAGE_TITLES.tiers, level: 1 })).toBeVisible();
      await page.getByRole('button', { name: TIERS_TEXTS.add }).click();
      const tier = page.getByRole('group', { name: TIERS_TEXTS.tier(before.tiers.length + 1) });
      await tier.getByLabel(TIERS_TEXTS.code).fill('E2EGRP');
      await tier.getByLabel(TIERS_TEXTS.name).fill('Grouped');
      // Typed key by key, as at the counter.
      await tier.getByLabel(TIERS_TEXTS.minSpend).pressSequentially('2,00,000');
      await expect(tier.getByText('₹2,00,000')).toBeVisible();
      await page.getByRole('button', { name: TIERS_TEXTS.save }).click();
      await expect(page.getByText(TIER_MESSAGES.saved)).toBeVisible();

      const saved = (await api(page, 'GET', API_PATHS.tiers)).data as TiersSettings;
      expect(saved.tiers.find((t) => t.code === 'E2EGRP')?.minSpend).toBe(200_000);
      // Read back after a reload: the spend in rupees beside its tier.
      await page.reload();
      const shown = page.getByRole('group', {
        name: TIERS_TEXTS.tier(saved.tiers.findIndex((t) => t.code === 'E2EGRP') + 1),
      });
      await expect(shown.getByLabel(TIERS_TEXTS.code)).toHaveValue('E2EGRP');
      await expect(shown.getByText('₹2,00,000')).toBeVisible();
    } finally {
      // The ladder as it was: other specs' sales earn by it.
      await api(page, 'POST', API_PATHS.tiers, before);
    }

    const date = await freeDate(page);
    await page.goto('/home/gold-rate');
    await expect(page.getByRole('heading', { name: PAGE_TITLES.goldRate, level: 1 })).toBeVisible();
    await typeDate(dateField(page, GOLD_RATE_TEXTS.date), slashDate(date));
    await page.getByLabel(GOLD_RATE_TEXTS.rate22k).pressSequentially('7,904');
    await page.getByLabel(GOLD_RATE_TEXTS.rate24k).pressSequentially('8,623');
    await page.getByRole('button', { name: GOLD_RATE_TEXTS.save }).click();
    await expect(page.getByText(MESSAGES.goldRateSaved(date))).toBeVisible();

    const rates = (await api(page, 'GET', `${API_PATHS.goldRates}?from=${date}&to=${date}`))
      .data as { rate22k: number; rate24k: number }[];
    expect(rates).toMatchObject([{ rate22k: 7904, rate24k: 8623 }]);
    await typeDate(dateField(page, GOLD_RATE_TEXTS.from), slashDate(date));
    await typeDate(dateField(page, GOLD_RATE_TEXTS.to), slashDate(date));
    await page.getByRole('button', { name: GOLD_RATE_TEXTS.show }).click();
    const history = page.getByRole('table', { name: GOLD_RATE_TEXTS.historyTable });
    await expect(history).toContainText('₹7,904');
    await expect(history).toContainText('₹8,623');
  },
);
