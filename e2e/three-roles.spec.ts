import type { Page } from '@playwright/test';
import {
  MESSAGES,
  POINTS_RULES_TEXTS,
  SCHEME_TEXTS,
  SIDEBAR_LABELS,
  STAFF_TEXTS,
  UI_TEXTS,
} from '@kanak/contract';
import config from '../playwright.config';
import { ADMIN, DESKTOP, SIDEBAR } from './support/env';
import {
  adminToken,
  expect,
  newCustomer,
  newStaff,
  pickCustomer,
  seriousViolationsOn,
  signIn,
  startScheme,
  storeToday,
  test,
  uniqueMobile,
} from './support/fixtures';
import { misfits, pageOverflow } from './support/geometry';

/**
 * A day's walk as each role, at the counter PC's 1366×768: where they land, every screen of
 * their sidebar (no sideways scroll; for the owner, who sees them all, every table's headers and
 * cells inside their columns and axe clean), and only the actions their role may take: Delete and Activate on a new scheme, the
 * Points Rules, staff management, the redeem screen.
 */

type Role = 'cashier' | 'manager' | 'owner';

// Scrollbars take room, as on the counter's PC (headless Chromium hides them by default).
test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--hide-scrollbars'] },
});
test.describe.configure({ timeout: 240_000 });
test.use({ actionTimeout: 20_000 });

const mobileno = uniqueMobile('9');
const custname = `Three Roles ${mobileno.slice(-4)}`;
let schemeid = 0;

/** The sidebar, not the counter home's quick actions (a navigation too). */
const sidebar = (page: Page) =>
  page.getByRole('navigation', { name: UI_TEXTS.layout.mainNavigation });

test.beforeAll(async ({ request }) => {
  const admin = await adminToken(request);
  const custid = await newCustomer(request, admin, { mobileno, custname });
  // Started, not yet paid: Inactive, so both Delete and Activate apply to it.
  schemeid = await startScheme(request, admin, {
    custid,
    mobileno,
    custname,
    startdt: storeToday(),
    amount: 2500,
  });
});

/**
 * Every screen of the sidebar, each opened as the counter PC shows it. The owner sees every
 * screen, so the owner's walk also measures each table and runs axe on each screen; the other
 * roles' walks say what they are shown and that it opens whole.
 */
async function walkTheSidebar(page: Page, role: Role) {
  const links = sidebar(page).getByRole('link');
  // The role's own screens join the list once the server has said who is signed in.
  await expect(
    sidebar(page).getByRole('link', { name: SIDEBAR_LABELS.redeemPoints }),
  ).toBeVisible();
  const screens = await links.evaluateAll((all) =>
    all.map((link) => ({ name: link.textContent ?? '', href: link.getAttribute('href') ?? '' })),
  );
  for (const screen of screens) {
    const where = `${role}: ${screen.name}`;
    await sidebar(page).getByRole('link', { name: screen.name, exact: true }).click();
    // A cashier's Dashboard entry opens their counter home.
    const landing = role === 'cashier' && screen.href === '/home' ? '/home/counter' : screen.href;
    await expect(page, where).toHaveURL(new RegExp(`${landing}$`));
    await expect(page.getByRole('heading', { level: 1 }), where).toBeVisible();
    // The entry chosen is marked current (a cashier's Dashboard opens another screen).
    if (landing === screen.href)
      await expect(
        sidebar(page).getByRole('link', { name: screen.name, exact: true }),
        where,
      ).toHaveAttribute('aria-current', 'page');
    const title = SIDEBAR.find((entry) => entry.name === screen.name)?.title;
    if (role === 'owner' && title)
      await expect(page.getByRole('heading', { level: 1, name: title }), where).toBeVisible();
    await expect(page.getByRole('progressbar'), where).toHaveCount(0);
    await expect(page.getByText(MESSAGES.notAllowed), where).toHaveCount(0);
    await expect.poll(() => pageOverflow(page), { message: where }).toBeLessThanOrEqual(0);
    if (role !== 'owner') continue;
    await expect.poll(() => misfits(page.getByRole('table')), { message: where }).toEqual([]);
    expect(await seriousViolationsOn(page), where).toEqual([]);
  }
  return screens.map((screen) => screen.name);
}

/** Delete and Activate on the Inactive scheme, as Scheme Initiation shows it to this role. */
async function schemeActions(page: Page) {
  await sidebar(page).getByRole('link', { name: SIDEBAR_LABELS.schemeGeneration }).click();
  await pickCustomer(
    page.getByRole('combobox', { name: SCHEME_TEXTS.generation.search }),
    mobileno,
    custname,
  );
  await expect(page.getByRole('table').getByText(String(schemeid)).first()).toBeVisible();
  return {
    activate: await page
      .getByRole('button', { name: SCHEME_TEXTS.activation.action(schemeid) })
      .count(),
    delete: await page
      .getByRole('button', { name: SCHEME_TEXTS.generation.deleteAction(schemeid) })
      .count(),
  };
}

async function signInAs(page: Page, role: Role) {
  const request = page.request;
  const who = role === 'owner' ? ADMIN : await newStaff(request, await adminToken(request), role);
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  await signIn(page, who);
}

test('a cashier: the counter home, the counter screens only, no Delete on a scheme', async ({
  page,
}) => {
  await signInAs(page, 'cashier');
  await expect(page).toHaveURL(/\/home\/counter$/);
  expect(await seriousViolationsOn(page)).toEqual([]);
  const screens = await walkTheSidebar(page, 'cashier');
  expect(screens).toContain(SIDEBAR_LABELS.redeemPoints);
  for (const owners of [
    SIDEBAR_LABELS.staff,
    SIDEBAR_LABELS.pointsRules,
    SIDEBAR_LABELS.branches,
    SIDEBAR_LABELS.audit,
    SIDEBAR_LABELS.collectionsReport,
  ]) {
    expect(screens).not.toContain(owners);
  }
  expect(await schemeActions(page)).toEqual({ activate: 1, delete: 0 });
  // Typed in by hand, a screen not theirs says so and offers nothing.
  await page.goto('/home/points-rules');
  await expect(page.getByText(MESSAGES.notAllowed)).toBeVisible();
  await expect(page.getByRole('button', { name: POINTS_RULES_TEXTS.save })).toHaveCount(0);
  await page.goto('/home/staff');
  await expect(page.getByText(MESSAGES.notAllowed)).toBeVisible();
  await expect(page.getByRole('button', { name: STAFF_TEXTS.add })).toHaveCount(0);
});

test('a manager: the dashboard, the staff, no settings of the owner', async ({ page }) => {
  await signInAs(page, 'manager');
  await expect(page).toHaveURL(/\/home$/);
  const screens = await walkTheSidebar(page, 'manager');
  expect(screens).toEqual(
    expect.arrayContaining([SIDEBAR_LABELS.staff, SIDEBAR_LABELS.redeemPoints]),
  );
  expect(screens).not.toContain(SIDEBAR_LABELS.pointsRules);
  expect(screens).not.toContain(SIDEBAR_LABELS.branches);
  expect(await schemeActions(page)).toEqual({ activate: 1, delete: 1 });
  await sidebar(page).getByRole('link', { name: SIDEBAR_LABELS.staff }).click();
  await expect(page.getByRole('button', { name: STAFF_TEXTS.add })).toBeVisible();
  await page.goto('/home/points-rules');
  await expect(page.getByText(MESSAGES.notAllowed)).toBeVisible();
  await expect(page.getByRole('button', { name: POINTS_RULES_TEXTS.save })).toHaveCount(0);
});

test('an owner: the dashboard and every screen, the Points Rules to edit', async ({ page }) => {
  await signInAs(page, 'owner');
  await expect(page).toHaveURL(/\/home$/);
  const screens = await walkTheSidebar(page, 'owner');
  expect(screens).toEqual(
    expect.arrayContaining([
      SIDEBAR_LABELS.staff,
      SIDEBAR_LABELS.pointsRules,
      SIDEBAR_LABELS.branches,
      SIDEBAR_LABELS.redeemPoints,
    ]),
  );
  expect(await schemeActions(page)).toEqual({ activate: 1, delete: 1 });
  await sidebar(page).getByRole('link', { name: SIDEBAR_LABELS.pointsRules }).click();
  await expect(page.getByRole('button', { name: POINTS_RULES_TEXTS.save })).toBeVisible();
  await sidebar(page).getByRole('link', { name: SIDEBAR_LABELS.staff }).click();
  await expect(page.getByRole('button', { name: STAFF_TEXTS.add })).toBeVisible();
});
