import type { Locator, Page } from '@playwright/test';
import { MESSAGES, NOTICE_EVENT_LABELS, TEMPLATE_TEXTS } from '@kanak/contract';
import {
  apiPost,
  expect,
  login,
  pageTitle,
  pickCustomer,
  seriousViolationsOn,
  signedIn,
  test,
  uniqueMobile,
} from './support/fixtures';

/**
 * The counter's words and small things, in the browser: a server that cannot be reached, the
 * keyboard's focus ring, read-only fields off the Tab order, a dialog's Save on a 768 px screen.
 */

/** The focus ring as drawn right now: no waiting for any animation. */
const ringOf = (control: Locator) =>
  control.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });

async function openPointsWithCustomer(page: Page, request: Parameters<typeof apiPost>[1]) {
  const mobile = uniqueMobile();
  await page.goto('/home/loyalty-points');
  await expect(pageTitle(page, /^Edit customer balance$/)).toBeVisible();
  await apiPost(page, request, '/api/customers/update-customer-data', {
    formData: { custid: null, mobileno: mobile, custname: 'Farah Qureshi' },
  });
  await pickCustomer(
    page.getByRole('combobox', { name: 'Search customer Mob no' }),
    mobile,
    'Farah Qureshi',
  );
  await expect(page.getByLabel('Mobile no.')).toHaveValue(mobile);
  return mobile;
}

test('sign-in with the server unreachable says so, not as a wrong password', async ({ page }) => {
  await page.goto('/');
  await page.route('**/api/login/verify', (route) => route.abort('connectionrefused'));
  await login.username(page).fill('admin');
  await login.password(page).fill('whatever-1A');
  await login.button(page).click();
  await expect(
    page.getByText(`${MESSAGES.loginFailed} ${MESSAGES.loginUnreachable}`),
  ).toBeVisible();
  await expect(page.getByText(MESSAGES.invalidCredentials)).toHaveCount(0);
});

signedIn(
  'a points update the server never got says so after the fixed text; the entry waits on the screen',
  async ({ page, request }) => {
    const mobile = await openPointsWithCustomer(page, request);
    await page.getByRole('textbox', { name: 'Loyalty Points' }).fill('250');
    await page.getByRole('button', { name: 'Points Allocation' }).click();
    await page.route('**/api/customers/update-points', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'UPDATE' }).click();
    await expect(
      page.getByText(`${MESSAGES.pointsUpdateFailed} ${MESSAGES.serverUnreachable}`),
    ).toBeVisible();

    await page.getByRole('navigation').getByRole('link', { name: 'Customer Profile' }).click();
    await expect(pageTitle(page, /^Customer Profile$/)).toBeVisible();
    await page.getByRole('navigation').getByRole('link', { name: 'Loyalty Points' }).click();
    await expect(page.getByLabel('Mobile no.')).toHaveValue(mobile);
    await expect(page.getByRole('textbox', { name: 'Loyalty Points' })).toHaveValue('250');
    await expect(page.getByRole('button', { name: 'Points Allocation' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  },
);

signedIn(
  'keyboard focus: a clear ring at once on toggles and filled buttons; read-only fields are skipped',
  async ({ page, request }) => {
    await openPointsWithCustomer(page, request);
    // From the search, Tab goes past the read-only Mobile no. and Name.
    await page.getByRole('combobox', { name: 'Search customer Mob no' }).focus();
    await page.keyboard.press('Tab');
    const focused = () =>
      page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? '');
    expect(await focused()).not.toBe('MOBILENO');
    expect(await focused()).not.toBe('CUSTNAME');

    // Back from Loyalty Points to the toggle: its ring is there at once, solid and thick.
    await page.getByRole('textbox', { name: 'Loyalty Points' }).focus();
    await page.keyboard.press('Shift+Tab');
    const toggle = page
      .getByRole('group', { name: 'Allocation or deduction' })
      .locator('button:focus');
    await expect(toggle).toHaveCount(1);
    expect(await ringOf(toggle)).toEqual({ style: 'solid', width: 3 });

    // The filled UPDATE button, reached by Tab from Narration.
    await page.getByRole('textbox', { name: 'Narration' }).focus();
    await page.keyboard.press('Tab');
    const update = page.getByRole('button', { name: 'UPDATE' });
    await expect(update).toBeFocused();
    expect(await ringOf(update)).toEqual({ style: 'solid', width: 3 });
    expect(await seriousViolationsOn(page)).toEqual([]);
  },
);

signedIn('the template dialog’s Save is on screen at 1366 × 768', async ({ page }) => {
  await page.goto('/home/message-templates');
  const label = NOTICE_EVENT_LABELS.pointsEarned;
  await page.getByRole('button', { name: TEMPLATE_TEXTS.edit(label) }).click();
  const dialog = page.getByRole('dialog', { name: TEMPLATE_TEXTS.editTitle(label) });
  await expect(dialog).toBeVisible();
  // A long text: the text box grows to its most rows, and the preview with it.
  await dialog
    .getByRole('textbox', { name: TEMPLATE_TEXTS.text })
    .fill(
      Array.from({ length: 14 }, (_, i) => `Line ${i + 1}: Dear {name}, {points} points.`).join(
        '\n',
      ),
    );
  const save = dialog.getByRole('button', { name: new RegExp(`${TEMPLATE_TEXTS.save}$`) });
  await expect(save).toBeInViewport({ ratio: 1 });
  const box = (await save.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(768);
  expect(await seriousViolationsOn(page)).toEqual([]);
});

/** How many lines a piece of text takes where it is drawn. */
const linesOf = (text: Locator) =>
  text.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });

signedIn(
  'consent history: "Withdrawn" on one line; Audit Trail: the time never runs into the name',
  async ({ page, request }) => {
    const mobile = uniqueMobile();
    await page.goto('/home/customer-profile');
    const saved = await apiPost<{ custid: number }>(
      page,
      request,
      '/api/customers/update-customer-data',
      { formData: { custid: null, mobileno: mobile, custname: 'Zoya Khan' } },
    );
    for (const granted of [true, false]) {
      await apiPost(page, request, '/api/customers/consent', {
        custid: saved.data!.custid,
        purpose: 'marketing',
        granted,
      });
    }
    await page.getByRole('combobox', { name: 'Enter mob no.' }).fill(mobile);
    await page.getByRole('option', { name: /Zoya Khan/ }).click();
    const history = page.getByRole('table', { name: 'Consent history' });
    const withdrawn = history.getByText('Withdrawn', { exact: true });
    await expect(withdrawn).toBeVisible();
    expect(await linesOf(withdrawn)).toBe(1);

    await page.goto('/home/audit');
    const row = page
      .getByRole('table', { name: 'Changes' })
      .getByRole('row')
      .filter({ hasText: mobile })
      .first();
    await expect(row).toBeVisible();
    const [when, who] = [row.getByRole('cell').nth(0), row.getByRole('cell').nth(1)];
    const whenText = await when.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return Math.max(...[...range.getClientRects()].map((rect) => rect.right));
    });
    const whoBox = (await who.boundingBox())!;
    // The time's text ends before the next cell starts ("21:16priya" no more).
    expect(whenText).toBeLessThanOrEqual(whoBox.x);
    expect(await seriousViolationsOn(page)).toEqual([]);
  },
);
