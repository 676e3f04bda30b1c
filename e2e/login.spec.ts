import type { Page } from '@playwright/test';
import { ADMIN, STORAGE_KEYS, TEXT } from './support/env';
import { expect, kanakStorage, login, signIn, signedIn, test, topBar } from './support/fixtures';

/** The error must sit right under the password field on the login screen. */
async function expectUnderPasswordField(page: Page, text: string) {
  const error = page.getByText(text, { exact: true });
  await expect(error).toBeVisible();
  const field = await login.password(page).boundingBox();
  const message = await error.boundingBox();
  expect(field, 'password field box').not.toBeNull();
  expect(message, 'error text box').not.toBeNull();
  if (!field || !message) return;
  // Below the input, within a line or two of it, and horizontally inside the form's column.
  expect(message.y).toBeGreaterThanOrEqual(field.y + field.height - 2);
  expect(message.y - (field.y + field.height)).toBeLessThan(60);
  expect(message.x).toBeGreaterThanOrEqual(field.x - 20);
  expect(message.x).toBeLessThan(field.x + field.width);
}

test.describe('Login screen', () => {
  test('shows the branding, the form and Stay logged in', async ({ page, request }) => {
    const branding = (await (await request.get('/api/app/branding')).json()) as {
      data: { companyName: string; companyTagline: string };
    };
    await page.goto('/');
    await expect(page.getByText(branding.data.companyName).first()).toBeVisible();
    await expect(page.getByText(branding.data.companyTagline).first()).toBeVisible();
    await expect(login.username(page)).toBeVisible();
    await expect(login.password(page)).toHaveAttribute('type', 'password');
    await expect(login.stayLoggedIn(page)).toBeVisible();
    await expect(login.button(page)).toBeEnabled();
  });

  test('signs in to /home with the username in the top bar; unticked keeps the token in sessionStorage', async ({
    page,
  }) => {
    await page.goto('/');
    // Hold the answer back a moment to see the pending state: spinner and a disabled button.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/login/verify', async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, { username: ADMIN.username, password: ADMIN.password, stay: false });
    await expect(login.button(page)).toBeDisabled();
    await expect(page.getByRole('progressbar')).toBeVisible();
    release();

    await expect(page).toHaveURL(/\/home$/);
    await expect(topBar(page)).toContainText(ADMIN.username);

    const storage = await kanakStorage(page);
    expect(
      storage.session[STORAGE_KEYS.accessToken],
      `token in sessionStorage: ${JSON.stringify(storage)}`,
    ).toBeTruthy();
    expect(storage.local[STORAGE_KEYS.accessToken], 'no token in localStorage').toBeUndefined();
    const stay =
      storage.session[STORAGE_KEYS.stayLoggedIn] ?? storage.local[STORAGE_KEYS.stayLoggedIn];
    expect(stay, 'stayLoggedIn saved as JSON').toBe('false');
    const user = storage.session[STORAGE_KEYS.user] ?? storage.local[STORAGE_KEYS.user];
    expect(user, 'username stored').toContain(ADMIN.username);
  });

  test('Stay logged in ticked keeps the token in localStorage; Enter submits', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await login.username(page).fill(ADMIN.username);
    await login.stayLoggedIn(page).check();
    await login.password(page).fill(ADMIN.password);
    await login.password(page).press('Enter');
    await expect(page).toHaveURL(/\/home$/);

    const storage = await kanakStorage(page);
    expect(storage.local[STORAGE_KEYS.accessToken], 'token in localStorage').toBeTruthy();
    expect(storage.session[STORAGE_KEYS.accessToken], 'no token in sessionStorage').toBeUndefined();
    expect(storage.local[STORAGE_KEYS.stayLoggedIn], 'stayLoggedIn saved as JSON').toBe('true');

    // A new tab of the same browser profile opens straight on /home.
    const second = await context.newPage();
    await second.goto('/');
    await expect(second).toHaveURL(/\/home$/);
    await expect(topBar(second)).toContainText(ADMIN.username);
  });

  // Lockout is 5 failures per username in 15 minutes: one wrong try for 'admin' only.
  test('a wrong password shows Invalid credentials. under the password field; editing clears it', async ({
    page,
  }) => {
    await page.goto('/');
    await signIn(page, { username: ADMIN.username, password: 'wrong-pass-1' });
    await expectUnderPasswordField(page, TEXT.invalidCredentials);
    await expect(page).toHaveURL(/\/$/);
    const storage = await kanakStorage(page);
    expect(storage.local[STORAGE_KEYS.accessToken]).toBeUndefined();
    expect(storage.session[STORAGE_KEYS.accessToken]).toBeUndefined();

    await login.password(page).fill('x');
    await expect(page.getByText(TEXT.invalidCredentials, { exact: true })).toBeHidden();
  });

  test('an unknown username also shows Invalid credentials.', async ({ page }) => {
    await page.goto('/');
    await signIn(page, { username: 'nobody-e2e', password: 'whatever-1' });
    await expectUnderPasswordField(page, TEXT.invalidCredentials);
    await login.username(page).fill('nobody-e2e2');
    await expect(page.getByText(TEXT.invalidCredentials, { exact: true })).toBeHidden();
  });

  test('/home without a token redirects to the login screen', async ({ page }) => {
    for (const path of ['/home', '/home/user', '/home/scheme-summary']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(login.button(page)).toBeVisible();
    }
  });
});

signedIn.describe('With a saved token', () => {
  signedIn('the login screen is skipped', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
    await expect(topBar(page)).toContainText(ADMIN.username);
  });
});
