import { CONNECTION_TEXTS, PAGE_TITLES, SCHEME_TEXTS } from '@kanak/contract';
import { DESKTOP, PHONE } from './support/env';
import { expect, signedIn as test } from './support/fixtures';

/**
 * A counter PC or phone that loses its connection: every screen says so at once, and says so
 * again when it is back, having read again what it could not load meanwhile.
 */

const texts = CONNECTION_TEXTS;

for (const size of [DESKTOP, PHONE]) {
  test(`Scheme Statement says the connection is lost and back (${size.width}×${size.height})`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize(size);
    await page.goto('/home/scheme-statement');
    await expect(page.getByRole('heading', { name: PAGE_TITLES.schemeStatement })).toBeVisible();
    await expect(page.getByText(texts.offline)).toHaveCount(0);

    await context.setOffline(true);
    const banner = page.getByRole('status').filter({ hasText: texts.offline });
    await expect(banner).toBeVisible();
    await expect(banner).toBeInViewport();
    // Asked while offline: the statement's own failure does not hide the banner.
    await page.getByRole('textbox', { name: SCHEME_TEXTS.statement.schemeId }).fill('1');
    await page.getByRole('button', { name: SCHEME_TEXTS.statement.generate }).click();
    await expect(banner).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByRole('status').filter({ hasText: texts.back })).toBeVisible();
    await expect(page.getByText(texts.offline)).toHaveCount(0);
  });
}
