import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import {
  BACKUP_MESSAGES,
  BACKUP_WARNING_TEXTS,
  BACKUPS_TEXTS,
  PAGE_TITLES,
  SIDEBAR_LABELS,
} from '@kanak/contract';
import { ADMIN, DESKTOP, PHONE } from './support/env';
import { pageOverflow } from './support/geometry';
import { OwnServer } from './support/own-server';
import {
  expect,
  expectNothingCut,
  seriousViolationsOn,
  sidebarEntry,
  signIn,
  test,
} from './support/fixtures';

/**
 * Backups seen from the browser, on a fresh install of its own (its jobs off, so that no
 * catch-up backup runs behind the test's back): the owner's dashboard warns that there is no
 * backup, "Back up now" makes one that shows as Good, it downloads as the gzip file it is, the
 * restore command names it, and the warning is gone, at the counter's 1366×768 and a phone's
 * 390×844.
 */

const texts = BACKUPS_TEXTS;
const warning = (page: Page) => page.getByText(BACKUP_WARNING_TEXTS.none);
const heading = (page: Page, title: string) => page.getByRole('heading', { level: 1, name: title });
const table = (page: Page) => page.getByRole('table', { name: texts.table });

test('a fresh install warns of no backup; Back up now makes a good one, downloaded and named for restore; the warning goes', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const root = path.dirname(testInfo.config.configFile ?? path.resolve('playwright.config.ts'));
  const server = await OwnServer.create(root, { JOBS: 'off' });
  const context = await browser.newContext({ baseURL: server.baseURL, acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await signIn(page, { username: ADMIN.username, password: ADMIN.password });
    await expect(page).toHaveURL(/\/home$/);

    // ---- A phone, then the counter's PC: the dashboard warns, with the way to Backups ----
    await expect(warning(page)).toBeVisible();
    await expect.poll(() => pageOverflow(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize(DESKTOP);
    await expect(warning(page)).toBeVisible();
    expect(await seriousViolationsOn(page)).toEqual([]);
    await page.getByRole('link', { name: BACKUP_WARNING_TEXTS.open }).click();
    await expect(page).toHaveURL(/\/home\/backups$/);
    await expect(heading(page, PAGE_TITLES.backups)).toBeVisible();
    await expect(sidebarEntry(page, SIDEBAR_LABELS.backups)).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(table(page).getByText(texts.empty)).toBeVisible();
    await expect(page.getByText(texts.restoreNone)).toBeVisible();

    // ---- Back up now: pending, then Good -------------------------------------------------
    const backUp = page.getByRole('button', { name: texts.backUpNow });
    await backUp.click();
    await expect(page.getByText(BACKUP_MESSAGES.started)).toBeVisible();
    const row = table(page)
      .getByRole('row')
      .filter({ hasText: texts.resultLabel('good') });
    await expect(row).toHaveCount(1, { timeout: 30_000 });
    await expect(backUp).toBeEnabled();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).toMatch(/^\d[\d,]*\.\d\d? MB$/);
    expect(cells[2]).toMatch(/^\d+\.\d s$|^\d+ s$/);
    expect(cells[4]).toBe(ADMIN.username);
    expect(await seriousViolationsOn(page)).toEqual([]);
    await expectNothingCut(page, 'Backups (one backup)');

    // ---- Download: the browser fetches the file by its single-use link --------------------
    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: new RegExp(texts.download) }).click();
    const download = await downloading;
    const fileName = download.suggestedFilename();
    expect(fileName).toMatch(/^kanak-backup-\d{8}-\d{6}\.gz$/);
    const saved = testInfo.outputPath(fileName);
    await download.saveAs(saved);
    const lines = gunzipSync(await readFile(saved))
      .toString('utf8')
      .split('\n');
    expect(lines[0]).toBe('KANAK-BACKUP 1');
    expect(JSON.parse(lines[1]!)).toMatchObject({ format: 1 });

    // ---- The command that restores it, as `npm run restore` takes it ----------------------
    const file = path.join(server.dataDir, 'backups', fileName);
    await expect(
      page
        .getByRole('region', { name: texts.restoreHeading })
        .getByText(`npm run restore -- ${file}`),
    ).toBeVisible();

    // ---- The warning is gone, at both sizes; the screen fits a phone ----------------------
    await sidebarEntry(page, SIDEBAR_LABELS.dashboard).click();
    await expect(heading(page, PAGE_TITLES.dashboard)).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(warning(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: BACKUP_WARNING_TEXTS.open })).toHaveCount(0);
    await page.setViewportSize(PHONE);
    await expect(warning(page)).toHaveCount(0);
    await page.goto('/home/backups');
    await expect(heading(page, PAGE_TITLES.backups)).toBeVisible();
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('button', { name: new RegExp(texts.download) })).toBeVisible();
    await expect.poll(() => pageOverflow(page)).toBeLessThanOrEqual(0);
    await expectNothingCut(page, 'Backups on a phone');
  } finally {
    await context.close();
    await server.dispose();
  }
});
