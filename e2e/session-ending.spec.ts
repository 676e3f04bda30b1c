import { ADMIN, TEXT } from './support/env';
import {
  apiLogin,
  apiUpdatePassword,
  expect,
  login,
  signIn,
  test,
  topBar,
} from './support/fixtures';
import { profile } from './support/profile';

/**
 * My Profile's successful password change. It bumps the admin's token version, which ends every
 * other session, so this file runs in its own project after all the others (playwright.config.ts).
 */
test.describe.configure({ mode: 'serial' });
// Two sign-ins, two password changes (argon2) and a 3-second alert: allow for a busy machine.
test.setTimeout(60_000);

test.afterAll(async ({ playwright }) => {
  // Whatever happened above, leave the admin with the known password.
  const request = await playwright.request.newContext({
    baseURL: process.env.KANAK_E2E_BASE_URL,
  });
  const original = await apiLogin(request, ADMIN.username, ADMIN.password);
  const changed =
    original.status === 200
      ? undefined
      : await apiLogin(request, ADMIN.username, ADMIN.otherPassword);
  if (changed?.status === 200 && changed.body.accessToken) {
    await apiUpdatePassword(request, changed.body.accessToken, {
      username: ADMIN.username,
      oldpassword: ADMIN.otherPassword,
      newpassword: ADMIN.password,
    });
  }
  await request.dispose();
});

test('a password change keeps this session, ends the others, and can be changed back', async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  // Another session of the same user, signed in before the change.
  const other = await browser.newContext(baseURL ? { baseURL } : {});
  const otherPage = await other.newPage();
  await otherPage.goto('/');
  await signIn(otherPage, { username: ADMIN.username, password: ADMIN.password, stay: true });
  await expect(otherPage).toHaveURL(/\/home$/);

  await page.goto('/');
  await signIn(page, { username: ADMIN.username, password: ADMIN.password });
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/home/user');

  await profile.oldPassword(page).fill(ADMIN.password);
  await profile.newPassword(page).fill(ADMIN.otherPassword);
  await profile.submit(page).click();
  const updated = page.getByText(TEXT.passwordUpdated, { exact: true });
  await expect(updated).toBeVisible();
  // Success resets the form.
  await expect(profile.oldPassword(page)).toHaveValue('');
  await expect(profile.newPassword(page)).toHaveValue('');

  // The new password signs in (an API sign-in, so no browser session is disturbed).
  const fresh = await apiLogin(request, ADMIN.username, ADMIN.otherPassword);
  expect(fresh.status, 'the new password signs in').toBe(200);

  // The changing session got a fresh token: it goes on working.
  await page.reload();
  await expect(page).toHaveURL(/\/home\/user$/);
  await expect(topBar(page)).toContainText(ADMIN.username);

  // The other session has ended: its first call (who is signed in) is a 401, which returns it
  // to the login screen before anything can be typed.
  await otherPage.goto('/home/user');
  await expect(otherPage).toHaveURL(/\/$/);
  await expect(otherPage.getByText(TEXT.sessionExpired, { exact: true })).toBeVisible();
  await expect(login.button(otherPage)).toBeVisible();
  await other.close();

  // The success alert has gone by itself (3 s).
  await expect(updated).toBeHidden({ timeout: 6_000 });

  // Change it back, from the same (still valid) session.
  await profile.oldPassword(page).fill(ADMIN.otherPassword);
  await profile.newPassword(page).fill(ADMIN.password);
  await profile.submit(page).click();
  await expect(updated).toBeVisible();
  const back = await apiLogin(request, ADMIN.username, ADMIN.password);
  expect(back.status, 'the original password signs in again').toBe(200);
});
