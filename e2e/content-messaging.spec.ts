import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import {
  API_PATHS,
  API_PREFIX,
  CONTENT_TEXTS,
  DELIVERY_LOG_TEXTS,
  LIMITS,
  MESSAGES,
  MESSAGING_TEXTS,
  NOTICE_MESSAGES,
  NOTICE_STATUS_LABELS,
  PAGE_TITLES,
  TEST_MESSAGE_TEXTS,
  panelConfigForm,
  type ImageRecord,
  type ImageType,
  type PanelConfig,
} from '@kanak/contract';
import { PHONE } from './support/env';
import { expect, pageTitle, signedIn as test, storedToken, uniqueMobile } from './support/fixtures';

/**
 * Mobile Integration and Message Configuration against the real server. Images are global
 * (one database for the whole e2e run): this spec counts what exists first and deletes every
 * image it added, whatever happens.
 */

const MOBILE_APP = '/home/mobile-app';
const MESSAGE_CONFIGURATION = '/home/message-configuration';
const kinds = CONTENT_TEXTS.kinds;

// ---- Helpers ------------------------------------------------------------------------------

interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A small valid image drawn by the browser's canvas (PNG or JPEG bytes). */
async function drawImage(
  page: Page,
  name: string,
  mimeType: 'image/png' | 'image/jpeg',
  label: string,
): Promise<FilePayload> {
  const dataUrl = await page.evaluate(
    ({ type, text }) => {
      const canvas = document.createElement('canvas');
      canvas.width = 240;
      canvas.height = 96;
      const g = canvas.getContext('2d');
      if (!g) throw new Error('no 2d canvas');
      const gradient = g.createLinearGradient(0, 0, 240, 96);
      gradient.addColorStop(0, '#7b1e2b');
      gradient.addColorStop(1, '#c9a227');
      g.fillStyle = gradient;
      g.fillRect(0, 0, 240, 96);
      g.fillStyle = '#fff';
      g.font = 'bold 20px sans-serif';
      g.fillText(text, 16, 56);
      return canvas.toDataURL(type, 0.85);
    },
    { type: mimeType, text: label },
  );
  const buffer = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  return { name, mimeType, buffer };
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function listImages(
  request: APIRequestContext,
  token: string,
  type: ImageType,
): Promise<ImageRecord[]> {
  const response = await request.post(API_PREFIX + API_PATHS.getFiles, {
    data: { type },
    headers: auth(token),
  });
  expect(response.status(), `get-files ${type}`).toBe(200);
  return ((await response.json()) as { data: ImageRecord[] }).data;
}

async function deleteImage(request: APIRequestContext, token: string, image: ImageRecord) {
  await request.post(API_PREFIX + API_PATHS.deleteFile, {
    data: { id: image.ID, path: image.PATH },
    headers: { ...auth(token), 'Idempotency-Key': randomUUID() },
  });
}

const section = (page: Page, type: ImageType): Locator =>
  page.getByRole('region', { name: kinds[type].section });

/** The stored images shown in a section's list (not the upload card's preview). */
const listedImages = (page: Page, type: ImageType): Locator =>
  section(page, type).getByRole('img', { name: new RegExp(`^${kinds[type].label} image \\d`) });

/** The newest transient alert with this text. */
const alertWith = (page: Page, text: string): Locator =>
  page.getByRole('alert').filter({ hasText: text }).last();

/** Chooses a file through the section's button and the browser's file dialog, then uploads. */
async function uploadThroughCard(page: Page, type: ImageType, file: FilePayload, expected: number) {
  const card = section(page, type);
  const chooser = page.waitForEvent('filechooser');
  await card.getByRole('button', { name: CONTENT_TEXTS.chooseImage }).click();
  await (await chooser).setFiles(file);
  await expect(card.getByRole('img', { name: CONTENT_TEXTS.previewAlt(file.name) })).toBeVisible();
  const upload = card.getByRole('button', { name: CONTENT_TEXTS.upload });
  await expect(upload).toBeEnabled();
  await upload.click();

  await expect(alertWith(page, MESSAGES.imageUploaded)).toBeVisible();
  // Reset card; the list fetched again with the new image first.
  await expect(card.getByText(CONTENT_TEXTS.noFileChosen)).toBeVisible();
  await expect(upload).toBeDisabled();
  await expect(listedImages(page, type)).toHaveCount(expected);
  const newest = listedImages(page, type).first();
  await expect(newest).toHaveAccessibleName(CONTENT_TEXTS.imageAlt(kinds[type].label, 1, expected));
  // Served by its public URL and decoded by the browser.
  await expect
    .poll(() => newest.evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBe(240);
}

/** The page does not scroll sideways (only the image rows do). */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'page wider than the screen').toBeLessThanOrEqual(0);
}

// ---- Mobile Integration ------------------------------------------------------------------

test.describe('Mobile Integration', () => {
  test('upload, list, delete, the empty text, and the five-image limit', async ({
    page,
    request,
    seriousViolations,
  }) => {
    test.setTimeout(120_000);
    await page.goto(MOBILE_APP);
    await expect(pageTitle(page, new RegExp(`^${PAGE_TITLES.mobileApp}$`))).toBeVisible();
    const token = await storedToken(page);
    const before = {
      banner: await listImages(request, token, 'banner'),
      card: await listImages(request, token, 'card'),
    };
    const known = new Set([...before.banner, ...before.card].map((image) => image.ID));

    try {
      expect(before.card, 'this spec needs an empty e-catalogue to start').toHaveLength(0);
      expect(before.banner.length, 'room for one more banner').toBeLessThan(LIMITS.imagesPerType);

      await test.step('both lists are fetched on opening', async () => {
        await expect(section(page, 'card').getByText(MESSAGES.noCatalogueImages)).toBeVisible();
        if (before.banner.length === 0) {
          await expect(section(page, 'banner').getByText(MESSAGES.noBannerImages)).toBeVisible();
        } else {
          await expect(listedImages(page, 'banner')).toHaveCount(before.banner.length);
        }
      });

      await test.step('upload a banner PNG and an e-catalogue JPEG; both lists show them', async () => {
        const png = await drawImage(page, 'e2e-banner.png', 'image/png', 'Banner 1');
        await uploadThroughCard(page, 'banner', png, before.banner.length + 1);
        const jpeg = await drawImage(page, 'e2e-catalogue.jpg', 'image/jpeg', 'Catalogue');
        await uploadThroughCard(page, 'card', jpeg, 1);

        await expect(section(page, 'card').getByText(MESSAGES.noCatalogueImages)).toBeHidden();
        await expect(section(page, 'banner').getByText(MESSAGES.noBannerImages)).toBeHidden();
        const stored = await listImages(request, token, 'card');
        expect(stored).toHaveLength(1);
        expect(stored[0]?.URL).toBe(`/api/app/images/${stored[0]?.ID}`);
      });

      await test.step('axe: the screen with images shown', async () => {
        expect(await seriousViolations()).toEqual([]);
      });

      await test.step('delete the e-catalogue image after confirming; the empty text returns', async () => {
        await section(page, 'card')
          .getByRole('button', {
            name: CONTENT_TEXTS.deleteImage(CONTENT_TEXTS.imageAlt(kinds.card.label, 1, 1)),
          })
          .click();
        const dialog = page.getByRole('dialog', { name: CONTENT_TEXTS.confirmDeleteTitle });
        await expect(dialog).toBeVisible();
        await expect(dialog).toContainText(CONTENT_TEXTS.confirmDeleteText);
        await dialog.getByRole('button', { name: CONTENT_TEXTS.confirmDeleteConfirm }).click();

        await expect(alertWith(page, MESSAGES.imageDeleted)).toBeVisible();
        await expect(dialog).toBeHidden();
        await expect(section(page, 'card').getByText(MESSAGES.noCatalogueImages)).toBeVisible();
        await expect(listedImages(page, 'card')).toHaveCount(0);
        expect(await listImages(request, token, 'card')).toHaveLength(0);
      });

      await test.step('up to five banners; choosing a sixth warns and opens no file dialog', async () => {
        for (let count = before.banner.length + 2; count <= LIMITS.imagesPerType; count += 1) {
          const png = await drawImage(
            page,
            `e2e-banner-${count}.png`,
            'image/png',
            `Banner ${count}`,
          );
          await uploadThroughCard(page, 'banner', png, count);
        }
        await expect(listedImages(page, 'banner')).toHaveCount(LIMITS.imagesPerType);

        let dialogs = 0;
        const countDialogs = () => {
          dialogs += 1;
        };
        page.on('filechooser', countDialogs);
        await section(page, 'banner')
          .getByRole('button', { name: CONTENT_TEXTS.chooseImage })
          .click();
        await expect(alertWith(page, MESSAGES.maxImages)).toBeVisible();
        page.off('filechooser', countDialogs);
        expect(dialogs, 'no file dialog while five are held').toBe(0);
        await expect(
          section(page, 'banner').getByRole('button', { name: CONTENT_TEXTS.upload }),
        ).toBeDisabled();

        // The limit is per type: the e-catalogue still opens its file dialog.
        const chooser = page.waitForEvent('filechooser', { timeout: 5_000 });
        await section(page, 'card')
          .getByRole('button', { name: CONTENT_TEXTS.chooseImage })
          .click();
        await (await chooser).setFiles([]);
      });

      await test.step('the mobile app reads the banners without a token', async () => {
        const response = await request.get(API_PREFIX + API_PATHS.content);
        expect(response.status()).toBe(200);
        const body = (await response.json()) as {
          data: { banners: string[]; catalogue: string[] };
        };
        expect(body.data.banners).toHaveLength(LIMITS.imagesPerType);
        expect(body.data.catalogue).toHaveLength(0);
      });
    } finally {
      // Leave the images as they were for the rest of the run.
      for (const type of ['banner', 'card'] as const) {
        for (const image of await listImages(request, token, type)) {
          if (!known.has(image.ID)) await deleteImage(request, token, image);
        }
      }
    }
  });

  test('axe: no serious or critical violation, empty lists included', async ({
    page,
    seriousViolations,
  }) => {
    await page.goto(MOBILE_APP);
    await expect(pageTitle(page, new RegExp(`^${PAGE_TITLES.mobileApp}$`))).toBeVisible();
    await expect(
      section(page, 'card')
        .getByText(MESSAGES.noCatalogueImages)
        .or(listedImages(page, 'card').first()),
    ).toBeVisible();
    expect(await seriousViolations()).toEqual([]);
  });

  test('phone (390 px): the sections stack, the page does not scroll sideways', async ({
    page,
    seriousViolations,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto(MOBILE_APP);
    await expect(pageTitle(page, new RegExp(`^${PAGE_TITLES.mobileApp}$`))).toBeVisible();
    await expect(
      section(page, 'card').getByRole('button', { name: CONTENT_TEXTS.upload }),
    ).toBeVisible();
    await expectNoSidewaysScroll(page);
    const banner = await section(page, 'banner').boundingBox();
    const card = await section(page, 'card').boundingBox();
    expect(banner && card && card.y >= banner.y + banner.height).toBeTruthy();
    expect(await seriousViolations()).toEqual([]);
  });
});

// ---- Message Configuration ----------------------------------------------------------------

test.describe('Message Configuration', () => {
  const field = {
    instanceId: (page: Page) => page.getByLabel(MESSAGING_TEXTS.instanceId, { exact: true }),
    token: (page: Page) => page.getByLabel(MESSAGING_TEXTS.token, { exact: true }),
    panel: (page: Page) => page.getByRole('combobox', { name: MESSAGING_TEXTS.panel }),
    phone: (page: Page) => page.getByLabel(MESSAGING_TEXTS.phone, { exact: true }),
  };
  const button = (page: Page, name: string) =>
    page.getByRole('main').getByRole('button', { name: new RegExp(`${name}$`) });

  async function choosePanel(page: Page, panel: number) {
    await field.panel(page).click();
    await page.getByRole('option', { name: MESSAGING_TEXTS.panelOption(panel) }).click();
    await expect(field.panel(page)).toHaveText(MESSAGING_TEXTS.panelOption(panel));
  }

  async function expectForm(page: Page, config: PanelConfig) {
    await expect(field.instanceId(page)).toHaveValue(config.instanceid);
    await expect(field.token(page)).toHaveValue(config.token);
    await expect(field.panel(page)).toHaveText(MESSAGING_TEXTS.panelOption(Number(config.panel)));
    await expect(field.phone(page)).toHaveValue(config.phone);
  }

  test('SAVE stores the configuration; REVERT restores it after an edit', async ({
    page,
    request,
    seriousViolations,
  }) => {
    await page.goto(MESSAGE_CONFIGURATION);
    await expect(
      pageTitle(page, new RegExp(`^${PAGE_TITLES.messageConfiguration}$`)),
    ).toBeVisible();
    await expect(button(page, MESSAGING_TEXTS.save)).toBeEnabled();

    const suffix = randomUUID().slice(0, 8);
    const config: PanelConfig = {
      instanceid: `e2e-instance-${suffix}`,
      token: `e2e-token-${randomUUID()}`,
      panel: 2,
      phone: '9876501234',
    };

    await test.step('SAVE', async () => {
      await field.instanceId(page).fill(config.instanceid);
      await field.token(page).fill(config.token);
      await choosePanel(page, 2);
      await field.phone(page).fill(config.phone);
      await button(page, MESSAGING_TEXTS.save).click();
      await expect(alertWith(page, MESSAGES.panelSaved)).toBeVisible();

      const response = await request.get(API_PREFIX + API_PATHS.panelConfig, {
        headers: auth(await storedToken(page)),
      });
      expect(((await response.json()) as { data: PanelConfig }).data).toEqual(config);
    });

    await test.step('the saved values come back on opening; the token is hidden until shown', async () => {
      await page.reload();
      await expectForm(page, config);
      await expect(field.token(page)).toHaveAttribute('type', 'password');
      await page.getByRole('button', { name: MESSAGING_TEXTS.showToken }).click();
      await expect(field.token(page)).toHaveAttribute('type', 'text');
      await page.getByRole('button', { name: MESSAGING_TEXTS.hideToken }).click();
      await expect(field.token(page)).toHaveAttribute('type', 'password');
    });

    await test.step('change fields, then REVERT restores the saved values', async () => {
      await field.instanceId(page).fill('not-saved');
      await choosePanel(page, 3);
      await field.phone(page).fill('9000000000');
      await button(page, MESSAGING_TEXTS.revert).click();
      await expectForm(page, config);
    });

    await test.step('a field the server refuses is caught before sending', async () => {
      await field.phone(page).fill('12345');
      const saves: string[] = [];
      const onRequest = (sent: { url: () => string }) => {
        if (sent.url().includes(API_PATHS.panelSetup)) saves.push(sent.url());
      };
      page.on('request', onRequest);
      await button(page, MESSAGING_TEXTS.save).click();
      const problem = panelConfigForm.safeParse({ ...config, phone: '12345' }).error?.issues[0];
      expect(problem?.message).toBeTruthy();
      await expect(field.phone(page)).toHaveAccessibleDescription(problem?.message ?? '');
      await expect(field.phone(page)).toHaveAttribute('aria-invalid', 'true');
      page.off('request', onRequest);
      expect(saves, 'nothing sent').toEqual([]);
      await button(page, MESSAGING_TEXTS.revert).click();
      await expectForm(page, config);
    });

    await test.step('axe: no serious or critical violation', async () => {
      expect(await seriousViolations()).toEqual([]);
    });
  });

  test('Send test message goes to the provider (the run’s local fake) and shows its answer', async ({
    page,
  }) => {
    const phone = uniqueMobile();
    await page.goto(MESSAGE_CONFIGURATION);
    await field.instanceId(page).fill(`e2e-test-${randomUUID().slice(0, 8)}`);
    await field.token(page).fill(`e2e-token-${randomUUID()}`);
    await choosePanel(page, 1);
    await field.phone(page).fill(phone);
    await button(page, MESSAGING_TEXTS.save).click();
    await expect(alertWith(page, MESSAGES.panelSaved)).toBeVisible();

    await button(page, TEST_MESSAGE_TEXTS.send).click();
    const result = page.getByRole('status', { name: TEST_MESSAGE_TEXTS.result });
    await expect(result).toContainText(NOTICE_MESSAGES.testMessageSent);
    await expect(result).toContainText(NOTICE_MESSAGES.providerAccepted);
    await expect(result).not.toContainText('HTTP');

    // The provider got exactly one message for the saved phone, on panel 1's protocol.
    const received = (await (
      await page.request.get(`${process.env.KANAK_E2E_FAKE_WHATSAPP_URL}/_fake/messages`)
    ).json()) as { panel: number; mobile: string; text: string }[];
    const ours = received.filter((message) => message.mobile === phone);
    expect(ours.map(({ panel }) => panel)).toEqual([1]);
    expect(ours[0]!.text).toContain('Test message');

    // With the panel set up, a consented customer's points credit is sent by the jobs: the
    // Delivery Log shows it Sent, and the provider got its text.
    const mobile = uniqueMobile();
    const headers = auth(await storedToken(page));
    const post = async (path: string, data: unknown) => {
      const response = await page.request.post(API_PREFIX + path, {
        data,
        headers: { ...headers, 'Idempotency-Key': randomUUID() },
      });
      expect(response.status(), await response.text()).toBe(200);
      return (await response.json()) as { data?: { custid?: number } };
    };
    const saved = await post(API_PATHS.saveCustomer, {
      formData: { custid: null, mobileno: mobile, custname: `Notice Sent ${mobile.slice(-4)}` },
    });
    await post(API_PATHS.customerConsent, {
      custid: saved.data!.custid,
      purpose: 'transactional',
      granted: true,
    });
    await post(API_PATHS.updatePoints, {
      formData: {
        MOBILENO: mobile,
        POINTS: 75,
        INVDATE: new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' }),
        CASHCR: 'CR',
        NARRATION: '',
      },
    });
    await page.goto('/home/delivery-log');
    await page.getByLabel(DELIVERY_LOG_TEXTS.mobile).fill(mobile);
    const row = page
      .getByRole('table', { name: DELIVERY_LOG_TEXTS.table })
      .getByRole('row')
      .filter({ hasText: mobile });
    await expect(async () => {
      await page.getByRole('button', { name: new RegExp(`${DELIVERY_LOG_TEXTS.search}$`) }).click();
      await expect(row).toContainText(NOTICE_STATUS_LABELS.sent, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
  });

  test('phone (390 px): the form fits and stays usable', async ({ page, seriousViolations }) => {
    await page.setViewportSize(PHONE);
    await page.goto(MESSAGE_CONFIGURATION);
    await expect(button(page, MESSAGING_TEXTS.save)).toBeEnabled();
    await expect(field.instanceId(page)).toBeVisible();
    await expect(button(page, MESSAGING_TEXTS.revert)).toBeVisible();
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations()).toEqual([]);
  });
});
