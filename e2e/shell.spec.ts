import type { Page, Response } from '@playwright/test';
import { ADMIN, DESKTOP, PHONE, SIDEBAR, STORAGE_PREFIX, TEXT } from './support/env';
import {
  drawerCloseButton,
  expect,
  kanakStorage,
  login,
  menuButton,
  sidebar,
  sidebarEntry,
  signIn,
  signedIn as test,
  storedToken,
  topBar,
} from './support/fixtures';

/** The whole URL ends with exactly this path (no query, no hash). */
const pathRe = (path: string) => new RegExp(`^https?://[^/]+${path}$`);

/**
 * Logout ends its token on the server, so a Logout test must not use the worker's shared
 * session: it signs in afresh and returns the token it got.
 */
async function signInOwnSession(page: Page, stay: boolean): Promise<string> {
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto('/');
  await signIn(page, { username: ADMIN.username, password: ADMIN.password, stay });
  await expect(page).toHaveURL(/\/home$/);
  return storedToken(page);
}

/** Resolves when the web app has told the server about the Logout (it does so after leaving). */
const logoutAnswered = (page: Page) =>
  page.waitForResponse((response) => new URL(response.url()).pathname === '/api/logout');

async function expectSignedOut(page: Page, token: string, answered: Promise<Response>) {
  // The token worked before; the server has ended it, not just the browser forgotten it.
  expect((await answered).status()).toBe(200);
  const probe = await page.request.get('/api/customers/get-fyear', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(probe.status(), 'the old token after Logout').toBe(401);
  expect(await probe.json()).toEqual({ success: false, message: TEXT.sessionExpired });
  await expect(page).toHaveURL(/\/$/);
  await expect(login.button(page)).toBeVisible();
  const { local, session } = await kanakStorage(page);
  expect(Object.keys(local), `no ${STORAGE_PREFIX}* keys in localStorage`).toEqual([]);
  expect(Object.keys(session), `no ${STORAGE_PREFIX}* keys in sessionStorage`).toEqual([]);
  // And the layout is closed to it now.
  await page.goto('/home');
  await expect(page).toHaveURL(/\/$/);
}

test.describe('Layout at 1366x768', () => {
  test.use({ viewport: DESKTOP });

  // Choosing each entry (its screen, its title, the entry marked current, the sidebar still
  // there) is the owner's walk in three-roles.spec.ts, which opens every screen anyway.
  test('the fixed 250 px sidebar holds every entry, each to its screen', async ({ page }) => {
    await page.goto('/home');
    await expect(topBar(page)).toContainText(ADMIN.username);
    const nav = sidebar(page);
    await expect(nav).toBeVisible();
    const box = await nav.boundingBox();
    expect(box?.width, 'sidebar width').toBeGreaterThanOrEqual(249);
    expect(box?.width, 'sidebar width').toBeLessThanOrEqual(251);
    for (const entry of SIDEBAR) {
      await expect(sidebarEntry(page, entry.name), entry.name).toHaveAttribute('href', entry.path);
    }
  });

  test('the second group sits below a divider, and Logout is in the sidebar', async ({ page }) => {
    await page.goto('/home');
    // The owner's entries show once GET /api/me has answered: measure the list as it then is.
    await expect(sidebarEntry(page, 'Audit Trail')).toBeVisible();
    const nav = sidebar(page);
    const divider = nav.getByRole('separator').first();
    await expect(divider).toBeAttached();
    const dividerY = (await divider.boundingBox())?.y ?? NaN;
    const firstGroupLast = (await sidebarEntry(page, 'My Profile').boundingBox())?.y ?? NaN;
    const secondGroupFirst = (await sidebarEntry(page, 'Points Statement').boundingBox())?.y ?? NaN;
    expect(firstGroupLast).toBeLessThan(dividerY);
    expect(secondGroupFirst).toBeGreaterThan(dividerY);
    await expect(sidebarEntry(page, 'Logout')).toBeVisible();
  });

  test('the footer shows powered-by and the support phone', async ({ page, request }) => {
    const branding = (await (await request.get('/api/app/branding')).json()) as {
      data: { poweredBy: string; supportPhone: string };
    };
    await page.goto('/home');
    await expect(page.getByText(branding.data.poweredBy).first()).toBeVisible();
    await expect(page.getByText(branding.data.supportPhone).first()).toBeVisible();
  });

  test('an unknown /home path shows a not-found page inside the layout', async ({ page }) => {
    await page.goto('/home/xyz');
    await expect(page).toHaveURL(/\/home\/xyz$/);
    await expect(page.getByText(/not found/i).first()).toBeVisible();
    await expect(sidebar(page)).toBeVisible();
    await expect(topBar(page)).toContainText(ADMIN.username);
  });

  test("the user menu's Logout returns to /, clears storage and ends the token on the server", async ({
    page,
  }) => {
    const token = await signInOwnSession(page, true);
    await expect(
      await page.request.get('/api/customers/get-fyear', {
        headers: { Authorization: `Bearer ${token}` },
      }),
    ).toBeOK();
    const answered = logoutAnswered(page);
    await topBar(page)
      .getByRole('button', { name: new RegExp(`${ADMIN.username}|account|user`, 'i') })
      .click();
    await page.getByRole('menuitem', { name: /^log ?out$/i }).click();
    await expectSignedOut(page, token, answered);
  });

  test("the sidebar's Logout returns to /, clears storage and ends the token on the server", async ({
    page,
  }) => {
    const token = await signInOwnSession(page, false);
    await page.goto('/home/user');
    const answered = logoutAnswered(page);
    await sidebarEntry(page, 'Logout').click();
    await expectSignedOut(page, token, answered);
  });
});

test.describe('Layout at 390x844', () => {
  test.use({ viewport: PHONE });

  test('the drawer opens from the menu button and closes on choosing each entry', async ({
    page,
  }) => {
    // Two dozen screens, each loaded on first use: allow for a busy machine.
    test.setTimeout(90_000);
    await page.goto('/home');
    await expect(topBar(page)).toContainText(ADMIN.username);
    await expect(sidebar(page)).toBeHidden();

    for (const entry of SIDEBAR) {
      await menuButton(page).click();
      await expect(sidebar(page), `drawer open for ${entry.name}`).toBeVisible();
      await sidebarEntry(page, entry.name).click();
      await expect(page, entry.name).toHaveURL(pathRe(entry.path));
      await expect(sidebar(page), `drawer closed after ${entry.name}`).toBeHidden();
      await expect(page.getByRole('heading', { name: entry.title }), entry.name).toBeVisible();
    }
  });

  test('the drawer closes on an outside click and on its close button', async ({ page }) => {
    await page.goto('/home/user');
    await menuButton(page).click();
    await expect(sidebar(page)).toBeVisible();
    // Right of the 250 px drawer: the backdrop.
    await page.mouse.click(PHONE.width - 40, PHONE.height / 2);
    await expect(sidebar(page)).toBeHidden();
    await expect(page).toHaveURL(/\/home\/user$/);

    await menuButton(page).click();
    await expect(sidebar(page)).toBeVisible();
    await drawerCloseButton(page).click();
    await expect(sidebar(page)).toBeHidden();
    await expect(page).toHaveURL(/\/home\/user$/);
  });

  test("the drawer's Logout returns to /, clears storage and ends the token on the server", async ({
    page,
  }) => {
    const token = await signInOwnSession(page, true);
    const answered = logoutAnswered(page);
    await menuButton(page).click();
    await sidebarEntry(page, 'Logout').click();
    await expectSignedOut(page, token, answered);
  });
});
