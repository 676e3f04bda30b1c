import { ADMIN, TEXT } from './support/env';
import { expect, signedIn as test, storedToken } from './support/fixtures';
import { profile } from './support/profile';

test.describe('My Profile', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/home/user');
    await expect(page.getByRole('heading', { name: /^Update Profile$/ })).toBeVisible();
  });

  test('shows the username read-only and limits the inputs', async ({ page }) => {
    await expect(profile.username(page)).toHaveValue(ADMIN.username);
    const readOnly = await profile
      .username(page)
      .evaluate(
        (input) => (input as HTMLInputElement).readOnly || (input as HTMLInputElement).disabled,
      );
    expect(readOnly, 'username is read-only').toBe(true);
    await expect(profile.username(page)).toHaveAttribute('maxlength', '30');
    await expect(profile.oldPassword(page)).toHaveAttribute('maxlength', '15');
    await expect(profile.newPassword(page)).toHaveAttribute('maxlength', '15');
    await expect(profile.oldPassword(page)).toHaveAttribute('type', 'password');
    await expect(profile.newPassword(page)).toHaveAttribute('type', 'password');
  });

  test('empty fields show both warnings, each for its own field', async ({ page }) => {
    await profile.submit(page).click();
    await expect(page.getByText(TEXT.provideNewPassword, { exact: true })).toBeVisible();
    await expect(page.getByText(TEXT.provideOldPassword, { exact: true })).toBeVisible();
  });

  test('an empty new password alone warns about the new password', async ({ page }) => {
    // Nothing is sent while a field is empty.
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/user/update-current-user')) sent += 1;
    });
    await profile.oldPassword(page).fill(ADMIN.password);
    await profile.submit(page).click();
    await expect(page.getByText(TEXT.provideNewPassword, { exact: true })).toBeVisible();
    await expect(page.getByText(TEXT.provideOldPassword, { exact: true })).toBeHidden();
    expect(sent).toBe(0);
  });

  test('a wrong old password shows Old password is incorrect. under the old-password field', async ({
    page,
  }) => {
    const tokenBefore = await storedToken(page);
    await profile.oldPassword(page).fill('Not-the-one1');
    await profile.newPassword(page).fill('Kanak@e2e9');
    await profile.submit(page).click();

    const error = page.getByText(TEXT.oldPasswordIncorrect, { exact: true });
    await expect(error).toBeVisible();
    const field = await profile.oldPassword(page).boundingBox();
    const message = await error.boundingBox();
    const next = await profile.newPassword(page).boundingBox();
    expect(field && message && next, 'boxes').toBeTruthy();
    if (field && message && next) {
      expect(message.y, 'below the old-password input').toBeGreaterThanOrEqual(
        field.y + field.height - 2,
      );
      expect(message.y, 'above the new-password input').toBeLessThan(next.y);
    }
    // Nothing changed: still signed in with the same token.
    await expect(page).toHaveURL(/\/home\/user$/);
    expect(await storedToken(page)).toBe(tokenBefore);

    // Editing a field clears the inline error.
    await profile.oldPassword(page).fill('Not-the-one2');
    await expect(error).toBeHidden();
  });
});
