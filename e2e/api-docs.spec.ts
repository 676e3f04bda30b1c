import { expect, test } from './support/fixtures';

/**
 * The API docs page at /api/docs, in Chromium, under the server's real Content-Security-Policy:
 * no token needed, nothing loaded from elsewhere, nothing blocked, and "Try it out" reaches
 * the API.
 */
test('the API docs page works without a token under the CSP, all from this server', async ({
  page,
  baseURL,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  const origins = new Set<string>();
  page.on('request', (request) => {
    if (!request.url().startsWith('data:')) origins.add(new URL(request.url()).origin);
  });
  // The browser reports a CSP violation as this DOM event (and as a console error).
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Kanak API/ })).toBeVisible();
  const login = page.locator('.opblock').filter({ hasText: 'Sign in; answers a bearer token' });
  await expect(login).toBeVisible();
  await expect(login).toContainText('/api/login/verify');

  // "Try it out" on the health check: the page's own fetch reaches the API.
  const health = page.locator('.opblock').filter({ hasText: '/api/health' });
  await health.locator('.opblock-summary').click();
  await health.getByRole('button', { name: 'Try it out' }).click();
  await health.getByRole('button', { name: 'Execute' }).click();
  await expect(health.locator('.live-responses-table tbody .response-col_status')).toHaveText(
    '200',
  );
  // Shown as JSON on the page, not offered as a file (API answers are attachments).
  await expect(
    health.locator('.live-responses-table tbody .response-col_description'),
  ).toContainText('"success": true');

  expect(problems).toEqual([]);
  expect([...origins]).toEqual([new URL(baseURL!).origin]);
});
