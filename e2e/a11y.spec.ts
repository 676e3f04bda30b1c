import { expect, login, signedIn, test } from './support/fixtures';

test('the login screen has no serious or critical accessibility violation', async ({
  page,
  seriousViolations,
}) => {
  await page.goto('/');
  await expect(login.button(page)).toBeVisible();
  expect(await seriousViolations()).toEqual([]);
});

signedIn(
  'the dashboard has no serious or critical accessibility violation',
  async ({ page, seriousViolations }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { name: /^Dashboard$/ })).toBeVisible();
    expect(await seriousViolations()).toEqual([]);
  },
);
