import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  PAGE_TITLES,
  SHOP_SETTINGS_MESSAGES,
  SHOP_SETTINGS_TEXTS,
  SIDEBAR_LABELS,
  type ShopSettings,
} from '@kanak/contract';
import { forgetBranding } from '../../lib/branding';
import { PATHS } from '../../lib/paths';
import { deferred, fakeServer, testBranding } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = SHOP_SETTINGS_TEXTS;
const M = SHOP_SETTINGS_MESSAGES;
const saved: ShopSettings = {
  companyName: testBranding.companyName,
  tagline: 'Since 1928',
  gstin: '27AAPFU0939F1ZV',
  supportPhone: '+91 80 4718 2200',
  poweredBy: 'Kanak Technologies',
  logoUrl: null,
};

/** A fake of the settings calls that keeps what was saved, as the server does. */
function settingsServer() {
  let stored = saved;
  const server = fakeServer()
    .on('GET', API_PATHS.shopSettings, () => ({
      status: 200,
      body: { success: true, data: stored },
    }))
    .on('PUT', API_PATHS.saveShopSettings, (request) => {
      stored = { ...stored, ...(request.body as Partial<ShopSettings>) };
      return { status: 200, body: { success: true, message: M.saved, data: stored } };
    })
    .on('POST', API_PATHS.uploadShopLogo, () => {
      stored = { ...stored, logoUrl: '/api/app/logo?v=0123456789abcdef' };
      return { status: 200, body: { success: true, message: M.logoSaved, data: stored } };
    });
  // The shell's branding follows what was saved.
  return server.on('GET', API_PATHS.branding, () => ({
    status: 200,
    body: {
      success: true,
      data: { ...testBranding, companyName: stored.companyName, gstin: stored.gstin },
    },
  }));
}

async function openScreen() {
  setScreenWidth(390);
  signedInAs('admin');
  renderApp(PATHS.shopSettings);
  await screen.findByRole(
    'heading',
    { name: PAGE_TITLES.shopSettings, level: 1 },
    { timeout: 20_000 },
  );
  await screen.findByDisplayValue(saved.gstin, {}, { timeout: 20_000 });
  return userEvent.setup();
}

const field = (label: string) => screen.getByRole('textbox', { name: label });

beforeEach(() => {
  forgetBranding();
  URL.createObjectURL = vi.fn(() => 'blob:logo-preview');
  URL.revokeObjectURL = vi.fn();
});

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Shop Settings', { timeout: 60_000 }, () => {
  it('shows the saved settings, and refuses a GSTIN whose check digit is wrong before sending it', async () => {
    const server = settingsServer();
    const user = await openScreen();
    expect(field(texts.companyName)).toHaveValue(saved.companyName);
    expect(screen.getByText(texts.noLogo)).toBeInTheDocument();

    await user.clear(field(texts.gstin));
    await user.type(field(texts.gstin), '27aapfu0939f1za');
    expect(field(texts.gstin)).toHaveValue('27AAPFU0939F1ZA');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await screen.findByText(M.gstinCheckDigit)).toBeInTheDocument();
    expect(field(texts.gstin)).toHaveAttribute('aria-invalid', 'true');
    expect(server.sent('PUT', API_PATHS.saveShopSettings)).toHaveLength(0);
  });

  it('saves with an Idempotency-Key, says so, and the top bar shows the new name', async () => {
    const server = settingsServer();
    const user = await openScreen();
    await user.clear(field(texts.companyName));
    await user.type(field(texts.companyName), 'Swarna Mahal');
    await user.clear(field(texts.gstin));
    await user.click(screen.getByRole('button', { name: texts.save }));

    await waitFor(() => expect(server.sent('PUT', API_PATHS.saveShopSettings)).toHaveLength(1));
    const [put] = server.sent('PUT', API_PATHS.saveShopSettings);
    const { logoUrl: _logoUrl, ...fields } = saved;
    expect(put!.body).toEqual({ ...fields, companyName: 'Swarna Mahal', gstin: '' });
    expect(put!.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('banner')).toHaveTextContent('Swarna Mahal'));
    expect(field(texts.companyName)).toHaveValue('Swarna Mahal');
  });

  it('shows the server’s refusal under the form, and a spinner while saving', async () => {
    const answer = deferred();
    const server = settingsServer().on('PUT', API_PATHS.saveShopSettings, answer.handler);
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await screen.findByRole('progressbar', { name: texts.saving })).toBeInTheDocument();
    answer.release({ status: 400, body: { success: false, message: M.supportPhone } });
    expect(await screen.findByRole('alert')).toHaveTextContent(M.supportPhone);
    expect(server.sent('PUT', API_PATHS.saveShopSettings)).toHaveLength(1);
  });

  it('previews a chosen logo, refuses an SVG at once, and uploads a PNG', async () => {
    const server = settingsServer();
    const user = await openScreen();
    const picker = screen.getByTestId('logo-picker');

    // The file dialog offers PNG and JPEG only; a file dropped past it is still refused.
    await userEvent
      .setup({ applyAccept: false })
      .upload(picker, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(M.logoFormat);
    expect(screen.queryByRole('button', { name: texts.uploadLogo })).toBeNull();

    await user.upload(picker, new File([new Uint8Array(64)], 'logo.png', { type: 'image/png' }));
    const preview = await screen.findByRole('img', { name: texts.chosenLogo('logo.png') });
    expect(preview).toHaveAttribute('src', 'blob:logo-preview');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: texts.uploadLogo }));

    await waitFor(() => expect(server.sent('POST', API_PATHS.uploadShopLogo)).toHaveLength(1));
    const [sent] = server.sent('POST', API_PATHS.uploadShopLogo);
    expect(sent!.body).toBeInstanceOf(FormData);
    expect(sent!.headers[IDEMPOTENCY_HEADER]).toBeTruthy();
    const logo = await screen.findByRole('img', { name: texts.currentLogo });
    expect(logo).toHaveAttribute('src', '/api/app/logo?v=0123456789abcdef');
    expect(screen.getByRole('button', { name: texts.removeLogo })).toBeInTheDocument();
  });

  it('sits in the owner’s sidebar', async () => {
    settingsServer();
    setScreenWidth(1366);
    signedInAs('admin');
    renderApp(PATHS.shopSettings);
    const nav = await screen.findByRole('navigation', {}, { timeout: 20_000 });
    expect(
      await within(nav).findByRole('link', { name: SIDEBAR_LABELS.shopSettings }),
    ).toHaveAttribute('href', PATHS.shopSettings);
  });
});
