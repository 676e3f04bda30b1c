import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { ADMIN, STORAGE_PREFIX } from './env';

export { expect };

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

interface WorkerFixtures {
  /** Browser storage of a session signed in as the admin (once per worker, Stay logged in). */
  adminState: StorageState;
}

/** Base test: baseURL from the global setup. */
export const test = base.extend<object, WorkerFixtures>({
  baseURL: async ({ baseURL }, use) => {
    await use(process.env.KANAK_E2E_BASE_URL ?? baseURL);
  },
  adminState: [
    async ({ browser }, use) => {
      const baseURL = process.env.KANAK_E2E_BASE_URL;
      const context = await browser.newContext(baseURL ? { baseURL } : {});
      const page = await context.newPage();
      await page.goto('/');
      await signIn(page, { username: ADMIN.username, password: ADMIN.password, stay: true });
      await expect(page).toHaveURL(/\/home$/);
      const state = await context.storageState();
      await context.close();
      await use(state);
    },
    { scope: 'worker', timeout: 30_000 },
  ],
});

/** A test that starts signed in as the admin (the worker's saved session). */
export const signedIn = test.extend({
  storageState: async ({ adminState }, use) => {
    await use(adminState);
  },
});

// ---- Login screen -------------------------------------------------------------------------

export const login = {
  username: (page: Page) => page.getByLabel(/^username/i),
  password: (page: Page) => page.getByLabel(/^password/i),
  stayLoggedIn: (page: Page) => page.getByRole('checkbox', { name: /stay logged in/i }),
  // While pending, the spinner's label ('Signing in') joins the button's name.
  button: (page: Page) => page.getByRole('button', { name: /\blog ?in$/i }),
};

export async function signIn(
  page: Page,
  { username, password, stay = false }: { username: string; password: string; stay?: boolean },
): Promise<void> {
  await login.username(page).fill(username);
  await login.password(page).fill(password);
  if (stay) await login.stayLoggedIn(page).check();
  else await login.stayLoggedIn(page).uncheck();
  await login.button(page).click();
}

// ---- Layout -------------------------------------------------------------------------------

/** The visible sidebar's navigation (fixed on large screens, the open drawer on small ones). */
export const sidebar = (page: Page): Locator => page.getByRole('navigation');

/** The drawer's close button (small screens; it sits in the drawer's header, beside the nav). */
export const drawerCloseButton = (page: Page): Locator =>
  page.getByRole('button', { name: /^close (menu|navigation|drawer|sidebar)/i });

export const sidebarEntry = (page: Page, name: string): Locator =>
  sidebar(page)
    .getByRole('link', { name, exact: true })
    .or(sidebar(page).getByRole('button', { name, exact: true }));

export const topBar = (page: Page): Locator => page.getByRole('banner');

/** The top bar's menu button that opens the drawer on small screens. */
export const menuButton = (page: Page): Locator =>
  topBar(page).getByRole('button', {
    name: /(open|toggle|show).*(menu|navigation|drawer|sidebar)|^menu$/i,
  });

/** The page's title: the main region's first heading. */
export const pageTitle = (page: Page, title: RegExp): Locator =>
  page.getByRole('main').getByRole('heading', { name: title });

// ---- Storage and API ----------------------------------------------------------------------

export interface KanakStorage {
  local: Record<string, string>;
  session: Record<string, string>;
}

/** The `kanak.` keys in localStorage and sessionStorage of the page's origin. */
export async function kanakStorage(page: Page): Promise<KanakStorage> {
  return page.evaluate((prefix) => {
    const pick = (storage: Storage) => {
      const out: Record<string, string> = {};
      for (let i = 0; i < storage.length; i += 1) {
        const key = storage.key(i);
        if (key?.startsWith(prefix)) out[key] = storage.getItem(key) ?? '';
      }
      return out;
    };
    return { local: pick(window.localStorage), session: pick(window.sessionStorage) };
  }, STORAGE_PREFIX);
}

export async function apiLogin(
  request: APIRequestContext,
  username: string,
  password: string,
): Promise<{
  status: number;
  body: { success?: boolean; accessToken?: string; message?: string };
}> {
  const response = await request.post('/api/login/verify', {
    data: { USERNAME: username, PASSWORD: password, stayLoggedIn: false },
    headers: { 'Idempotency-Key': randomUUID() },
  });
  return { status: response.status(), body: await response.json() };
}

/** POST /api/user/update-current-user with a bearer token, as the web app sends it. */
export async function apiUpdatePassword(
  request: APIRequestContext,
  token: string,
  form: { username: string; oldpassword: string; newpassword: string },
): Promise<{
  status: number;
  body: { success?: boolean; accessToken?: string; message?: string };
}> {
  const response = await request.post('/api/user/update-current-user', {
    data: form,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  return { status: response.status(), body: await response.json() };
}

/** The token the page holds, wherever the web app keeps it. */
export async function storedToken(page: Page): Promise<string> {
  const { local, session } = await kanakStorage(page);
  const raw = local['kanak.accessToken'] ?? session['kanak.accessToken'] ?? '';
  // Saved either as the bare token or as a JSON string.
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
}

// ---- Files ----------------------------------------------------------------------------------

/**
 * A downloaded CSV's text. Every CSV starts with the UTF-8 byte-order mark (so that Excel shows
 * ₹ and Indian scripts): checked on the bytes, then left out of the text.
 */
export async function csvText(file: string): Promise<string> {
  const bytes = await readFile(file);
  expect([...bytes.subarray(0, 3)], `${file} starts with the UTF-8 byte-order mark`).toEqual([
    0xef, 0xbb, 0xbf,
  ]);
  return bytes.subarray(3).toString('utf8');
}

// ---- Date fields ----------------------------------------------------------------------------

/** A DD/MM/YYYY date field: the group of its day, month and year sections. */
export const dateField = (scope: Page | Locator, label: string | RegExp): Locator =>
  scope.getByRole('group', { name: label });

/** What a date field holds, as it shows it ('DD/MM/YYYY'; '' when empty). */
export const dateShown = (field: Locator): Promise<string> => field.locator('input').inputValue();

/** Types `DD/MM/YYYY` into a date field as staff do, over what it held. */
export async function typeDate(field: Locator, shown: string): Promise<void> {
  await field.getByRole('spinbutton', { name: 'Day' }).click();
  await field.page().keyboard.type(shown.replaceAll('/', ''));
}

/** '2026-04-01' -> '01/04/2026', as a date field shows it; `isoDate` back. */
export const slashDate = (iso: string) => iso.split('-').reverse().join('/');
export const isoDate = (shown: string) => shown.split('/').reverse().join('-');
