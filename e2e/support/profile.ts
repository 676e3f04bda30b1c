import type { Locator, Page } from '@playwright/test';

/** My Profile (/home/user): username (read-only), old password, new password, two buttons. */
export const profile = {
  username: (page: Page): Locator => page.getByLabel(/^user ?name/i),
  oldPassword: (page: Page): Locator => page.getByLabel(/^old password/i),
  newPassword: (page: Page): Locator => page.getByLabel(/^new password/i),
  submit: (page: Page): Locator =>
    page.getByRole('main').getByRole('button', { name: /^(update|save|submit|change)/i }),
};
