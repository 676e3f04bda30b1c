import type { Page } from '@playwright/test';
import { ADMIN, DESKTOP, PHONE, SIDEBAR, STORAGE_PREFIX } from './support/env';
import {
  drawerCloseButton,
  expect,
  kanakStorage,
  login,
  menuButton,
  sidebar,
  sidebarEntry,
  signedIn as test,
  topBar,
} from './support/fixtures';

/** The whole URL ends with exactly this path (no query, no hash). */
const pathRe = (path: string) => new RegExp(`^https?://[^/]+${path}$`);

async function expectSignedOut(page: Page) {
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

  test('the fixed 250 px sidebar navigates to every entry', async ({ page }) => {
    await page.goto('/home');
    await expect(topBar(page)).toContainText(ADMIN.username);
    const nav = sidebar(page);
    await expect(nav).toBeVisible();
    const box = await nav.boundingBox();
    expect(box?.width, 'sidebar width').toBeGreaterThanOrEqual(249);
    expect(box?.width, 'sidebar width').toBeLessThanOrEqual(251);

    for (const entry of SIDEBAR) {
      await sidebarEntry(page, entry.name).click();
      await expect(page, entry.name).toHaveURL(pathRe(entry.path));
      await expect(page.getByRole('heading', { name: entry.title }), entry.name).toBeVisible();
      // Fixed sidebar: still there after choosing.
      await expect(nav).toBeVisible();
    }
  });

  test('the second group sits below a divider, and Logout is in the sidebar', async ({ page }) => {
    await page.goto('/home');
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

  test("the user menu's Logout returns to / and clears storage", async ({ page }) => {
    await page.goto('/home');
    await topBar(page)
      .getByRole('button', { name: new RegExp(`${ADMIN.username}|account|user`, 'i') })
      .click();
    await page.getByRole('menuitem', { name: /^log ?out$/i }).click();
    await expectSignedOut(page);
  });

  test("the sidebar's Logout returns to / and clears storage", async ({ page }) => {
    await page.goto('/home/user');
    await sidebarEntry(page, 'Logout').click();
    await expectSignedOut(page);
  });
});

test.describe('Layout at 390x844', () => {
  test.use({ viewport: PHONE });

  test('the drawer opens from the menu button and closes on choosing each entry', async ({
    page,
  }) => {
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

  test("the drawer's Logout returns to / and clears storage", async ({ page }) => {
    await page.goto('/home');
    await menuButton(page).click();
    await sidebarEntry(page, 'Logout').click();
    await expectSignedOut(page);
  });
});
