import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, login, signedIn, test } from './support/fixtures';

/** axe: no serious or critical violation (WCAG 2 A/AA and best practices). */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}

test('the login screen has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expect(login.button(page)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

signedIn('the dashboard has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: /^Dashboard$/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
