import { randomInt, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { needsBackdateReason } from '@kanak/contract';
import { ADMIN, STORAGE_PREFIX } from './env';

export { expect };

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

interface WorkerFixtures {
  /** Browser storage of a session signed in as the admin (once per worker, Stay logged in). */
  adminState: StorageState;
}

/** An accessibility violation axe found, as a failed check lists it. */
export interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

interface PageFixtures {
  /**
   * axe on the test's page as it is now: its serious and critical violations (WCAG 2 A/AA and
   * best practices). A screen passes with `expect(await seriousViolations()).toEqual([])`.
   */
  seriousViolations: () => Promise<Violation[]>;
  /**
   * The browser's print dialog replaced, on every page the test opens, by a count: how many
   * times the page has asked to print since it loaded.
   */
  printed: () => Promise<number>;
}

/**
 * Waits until the page is still: nothing loading (no `aria-busy` region) and no transition
 * running. A dialog fading in is half transparent, and a button enabled again as its data
 * arrives passes through paler colours: both fail axe's contrast check until they end. Endless
 * animations (a spinner) are let be.
 */
export async function untilStill(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector('[aria-busy="true"]') === null &&
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getTiming().iterations === Infinity,
        ),
  );
}

/** Axe's serious and critical findings (WCAG 2 A/AA and best practices) once the page is still. */
export const seriousViolationsOn = (page: Page) => violationsOn(page, ['serious', 'critical']);

/**
 * Every axe finding, minor and moderate ones too (a label given a button's role is minor), for
 * a screen that has been made clean of them all.
 */
export const everyViolationOn = (page: Page) =>
  violationsOn(page, ['minor', 'moderate', 'serious', 'critical']);

async function violationsOn(page: Page, impacts: readonly string[]): Promise<Violation[]> {
  await untilStill(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => impacts.includes(violation.impact ?? ''))
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}

/** Base test: baseURL from the global setup; axe and the print stub for the test's page. */
export const test = base.extend<PageFixtures, WorkerFixtures>({
  baseURL: async ({ baseURL }, use) => {
    await use(process.env.KANAK_E2E_BASE_URL ?? baseURL);
  },
  seriousViolations: async ({ page }, use) => {
    await use(() => seriousViolationsOn(page));
  },
  printed: async ({ page }, use) => {
    await page.addInitScript(() => {
      const counted = window as unknown as { kanakPrinted: number };
      counted.kanakPrinted = 0;
      window.print = () => {
        counted.kanakPrinted += 1;
      };
    });
    await use(() =>
      page.evaluate(() => (window as unknown as { kanakPrinted: number }).kanakPrinted),
    );
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
    { scope: 'worker', timeout: 60_000 },
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

/**
 * A 10-digit mobile no other test uses: random, not time-based, so two workers starting a test
 * in the same millisecond do not share a customer.
 */
export const uniqueMobile = (first: '8' | '9' = '9') =>
  `${first}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;

/** Picks a customer in a search box as staff do: types the mobile, clicks the matching option. */
export async function pickCustomer(box: Locator, mobile: string, name: string): Promise<void> {
  await box.fill(mobile);
  try {
    await box
      .page()
      .getByRole('option', { name: `${name} (+91) ${mobile}` })
      .click();
  } catch (error) {
    // What the box showed instead: its text, whether it kept the focus and its list, and the
    // options drawn (a once-in-a-while miss must say which of those went wrong).
    const shown = await box
      .evaluate((input: HTMLInputElement) => ({
        text: input.value,
        focused: document.activeElement === input,
        expanded: input.getAttribute('aria-expanded'),
        busy:
          input.closest('.MuiAutocomplete-root')?.querySelector('[role="progressbar"]') !== null,
        helper: input.closest('.MuiFormControl-root')?.querySelector('p')?.textContent ?? null,
        options: [...document.querySelectorAll('[role="option"]')].map((o) => o.textContent),
      }))
      .catch((why: unknown) => String(why));
    throw new Error(`${String(error)}\nthe search box showed: ${JSON.stringify(shown)}`);
  }
}

/** The texts of a table row's cells. */
export const cells = (row: Locator) => row.getByRole('cell').allTextContents();

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

/** Today in the store's time zone (Asia/Kolkata), `YYYY-MM-DD`. */
export const storeToday = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Kolkata',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

/** `YYYY-MM-DD` moved by `days` days (back when negative). */
export const addDays = (iso: string, days: number) => {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/** '2026-04-01' -> '01/04/2026', as a date field shows it; `isoDate` back. */
export const slashDate = (iso: string) => iso.split('-').reverse().join('/');
export const isoDate = (shown: string) => shown.split('/').reverse().join('-');

// ---- Layout checks --------------------------------------------------------------------------

/** What `expectNothingCut` found: each number split over lines, each field that cuts its value. */
export interface CutProblem {
  kind: 'wrapped number' | 'cut field';
  text: string;
  where: string;
}

/**
 * Every number in view on one line, and every field showing all of its value: a mobile number,
 * amount or date broken over two lines ("800000003 / 8"), or a field that shows "11/24/202",
 * is misread at the counter. A number is a run of digits with its ₹, separators and slashes
 * ("₹1,25,000", "9876543210", "02-05-2025"); a field is a text input holding such a value, or
 * a date field's DD/MM/YYYY sections. Names in a text field may scroll, as text fields do.
 */
export async function cutProblems(page: Page): Promise<CutProblem[]> {
  return page.evaluate(() => {
    const problems: { kind: 'wrapped number' | 'cut field'; text: string; where: string }[] = [];
    const where = (element: Element) => {
      const named = element.closest('[aria-label], [aria-labelledby]');
      const ids = named?.getAttribute('aria-labelledby')?.split(' ') ?? [];
      const name =
        named?.getAttribute('aria-label') ??
        ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      const tag = element.tagName.toLowerCase();
      return name ? `${tag} in "${name.trim()}"` : tag;
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden';
    };
    const NUMBER = /₹?\d[\d,./:-]*\d|\d/g;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !shown(parent) || parent.closest('[aria-hidden="true"], .print-only')) {
        continue;
      }
      const text = node.textContent ?? '';
      for (const match of text.matchAll(NUMBER)) {
        if (match[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        );
        if (lines.size > 1)
          problems.push({ kind: 'wrapped number', text: match[0], where: where(parent) });
      }
    }
    const NUMERIC_VALUE = /^[₹+\d\s,./:()-]*\d[₹+\d\s,./:()-]*$/;
    for (const input of document.querySelectorAll<HTMLInputElement>('input')) {
      if (!shown(input) || input.getAttribute('aria-hidden') === 'true') continue;
      if (['checkbox', 'radio', 'file', 'hidden', 'range'].includes(input.type)) continue;
      if (!NUMERIC_VALUE.test(input.value)) continue;
      if (input.scrollWidth > input.clientWidth + 1) {
        problems.push({ kind: 'cut field', text: input.value, where: where(input) });
      }
    }
    // A date field shows its value as sections (day, month, year) in a clipped row.
    for (const sections of document.querySelectorAll<HTMLElement>('.MuiPickersSectionList-root')) {
      if (!shown(sections)) continue;
      const row = sections.getBoundingClientRect();
      const spins = [...sections.querySelectorAll('[role="spinbutton"]')];
      const last = spins.at(-1)?.getBoundingClientRect();
      if (sections.scrollWidth > sections.clientWidth + 1 || (last && last.right > row.right + 1)) {
        problems.push({
          kind: 'cut field',
          text: sections.textContent ?? '',
          where: where(sections),
        });
      }
    }
    return problems;
  });
}

/** No number wraps and no field cuts its value on the page as it is now. */
export async function expectNothingCut(page: Page, screen: string): Promise<void> {
  // Asked again until the layout has settled: a screen just resized is laid out anew.
  await expect
    .poll(() => cutProblems(page), {
      message: `${screen} at ${page.viewportSize()?.width ?? '?'} px`,
    })
    .toEqual([]);
}

/**
 * A page signed in as the admin outside any test, for a `beforeAll` that makes a spec's data
 * through the API (with `apiPost`); `close` when done.
 */
export async function adminPage(browser: Browser, adminState: StorageState) {
  const context = await browser.newContext({
    storageState: adminState,
    baseURL: process.env.KANAK_E2E_BASE_URL,
  });
  const page = await context.newPage();
  await page.goto('/home');
  return { page, request: context.request, close: () => context.close() };
}

/** POST to the API as the holder of `token`; expects 200 and answers the body. */
export async function postAs<T = Record<string, unknown>>(
  request: APIRequestContext,
  token: string,
  url: string,
  data: unknown,
): Promise<{ success: boolean; data: T; message?: string }> {
  const response = await request.post(url, {
    data,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
  });
  const body = (await response.json()) as { success: boolean; data: T; message?: string };
  expect(response.status(), `${url}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** POST to the API as the page's signed-in user; expects 200 and answers the body. */
export async function apiPost<T = unknown>(
  page: Page,
  request: APIRequestContext,
  url: string,
  data: unknown,
): Promise<{ success: boolean; data?: T; message?: string }> {
  return postAs<T>(request, await storedToken(page), url, data);
}

/** The admin's bearer token, signed in through the API. */
export const adminToken = async (request: APIRequestContext) =>
  (await apiLogin(request, ADMIN.username, ADMIN.password)).body.accessToken!;

/**
 * Staff of `role` added by the holder of `token`, their temporary password already changed for
 * their own: what signs them in, and a token of theirs for the API.
 */
export async function newStaff(
  request: APIRequestContext,
  token: string,
  role: 'cashier' | 'manager',
) {
  const username = `${role}-${randomUUID().slice(0, 6)}`;
  const { data } = await postAs<{ temporaryPassword: string }>(request, token, '/api/staff/add', {
    username,
    name: `Counter ${role}`,
    role,
  });
  const password = `Own@${randomUUID().slice(0, 7)}`;
  const first = await apiLogin(request, username, data.temporaryPassword);
  const changed = await apiUpdatePassword(request, first.body.accessToken!, {
    username,
    oldpassword: data.temporaryPassword,
    newpassword: password,
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  const signedIn = await apiLogin(request, username, password);
  return { username, password, token: signedIn.body.accessToken! };
}

/** A customer with just a mobile number and a name, made through the API; answers its id. */
export async function newCustomer(
  request: APIRequestContext,
  token: string,
  customer: { mobileno: string; custname: string },
) {
  const { data } = await postAs<{ custid: number }>(
    request,
    token,
    '/api/customers/update-customer-data',
    { formData: { custid: null, ...customer } },
  );
  return data.custid;
}

/**
 * The owner's reason for a scheme entry dated `date`, sent as the scheme screens send it: only
 * for a date further back than staff may date one themselves.
 */
export const lateEntryReason = (date: string) =>
  needsBackdateReason(date, storeToday()) ? { backdateReason: 'Paper slip entered late' } : {};

/**
 * A scheme started through the API, Inactive; with `paid`, activated by that first installment.
 * Answers its id. An old date is entered as the owner enters it, with a reason.
 */
export async function startScheme(
  request: APIRequestContext,
  token: string,
  scheme: { custid: number; mobileno: string; custname: string; startdt: string; amount: number },
  paid?: { date: string; mode: string; reference?: string },
) {
  const { data } = await postAs<{ schemeid: number }>(request, token, '/api/scheme/generate', {
    ...scheme,
    ...lateEntryReason(scheme.startdt),
  });
  if (paid)
    await postAs(request, token, '/api/scheme/activate', {
      schemeid: data.schemeid,
      ...paid,
      ...lateEntryReason(paid.date),
    });
  return data.schemeid;
}
