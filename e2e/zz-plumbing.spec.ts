import { ADMIN } from './support/env';
import { apiLogin, expect, test } from './support/fixtures';
test('plumbing a', async ({ page, request, baseURL }) => {
  console.log('baseURL', baseURL, process.env.KANAK_E2E_BASE_URL);
  const r = await apiLogin(request, ADMIN.username, ADMIN.password);
  expect(r.status).toBe(200);
  await page.goto('/api/health');
  await expect(page.locator('body')).toContainText('success');
});
test('plumbing b', async ({ page, baseURL }) => {
  console.log('baseURL b', baseURL);
  await page.goto('/api/health');
  await expect(page.locator('body')).toContainText('true');
});
