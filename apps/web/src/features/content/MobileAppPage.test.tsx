import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  CONTENT_TEXTS,
  IDEMPOTENCY_HEADER,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  imageUrl,
  type ImageRecord,
  type ImageType,
  SIGN_IN_MESSAGES,
} from '@kanak/contract';
import { queryClient } from '../../lib/query-client';
import { deferred, fakeServer, type Reply, type SeenRequest } from '../../test/fake-server';
import { renderApp, signedInAs } from '../../test/render';

const texts = CONTENT_TEXTS;
const kinds = texts.kinds;

const record = (type: ImageType, id: number): ImageRecord => ({
  ID: id,
  URL: imageUrl(id),
  PATH: `img_${String(id).padStart(32, '0')}`,
  TYPE: type,
});

const png = (name = 'diwali-banner.png', size = 64) =>
  new File([new Uint8Array(size)], name, { type: 'image/png' });

/**
 * A fake of the content API that holds images like the server does: get-files lists them
 * newest first, upload adds one, delete removes one. Each route can be overridden.
 */
function contentServer(initial: Partial<Record<ImageType, ImageRecord[]>> = {}) {
  const held: Record<ImageType, ImageRecord[]> = {
    banner: [...(initial.banner ?? [])],
    card: [...(initial.card ?? [])],
  };
  let nextId = 500;
  const server = fakeServer()
    .on('POST', API_PATHS.getFiles, (request) => {
      const { type } = request.body as { type: ImageType };
      return { status: 200, body: { success: true, data: [...held[type]] } };
    })
    .on('POST', API_PATHS.uploadFile, (request) => {
      const type = (request.body as FormData).get('type') as ImageType;
      const image = record(type, nextId++);
      held[type].unshift(image);
      return { status: 200, body: { success: true, message: MESSAGES.imageUploaded, data: image } };
    })
    .on('POST', API_PATHS.deleteFile, (request) => {
      const { id } = request.body as { id: number };
      for (const type of ['banner', 'card'] as const) {
        held[type] = held[type].filter((image) => image.ID !== id);
      }
      return { status: 200, body: { success: true, message: MESSAGES.imageDeleted } };
    });
  const listRequests = (type: ImageType) =>
    server
      .sent('POST', API_PATHS.getFiles)
      .filter((request) => (request.body as { type: string }).type === type);
  return { server, held, listRequests };
}

async function openScreen() {
  signedInAs('meera');
  renderApp('/home/mobile-app');
  await screen.findByRole('heading', { name: PAGE_TITLES.mobileApp, level: 1 });
  return userEvent.setup();
}

/** The "Customize Banner" or "Customize e-catalogue" section. */
const section = (type: ImageType) => screen.getByRole('region', { name: kinds[type].section });
const inSection = (type: ImageType) => within(section(type));
const picker = (type: ImageType) => screen.getByTestId(`image-picker-${type}`);
const chooseButton = (type: ImageType) =>
  inSection(type).getByRole('button', { name: texts.chooseImage });
const uploadButton = (type: ImageType) =>
  inSection(type).getByRole('button', { name: texts.upload });
const removeButton = (type: ImageType) =>
  inSection(type).getByRole('button', { name: texts.remove });
const preview = (type: ImageType, name: string) =>
  inSection(type).queryByRole('img', { name: texts.previewAlt(name) });
const alertWith = async (text: string) =>
  (await screen.findByText(text, { selector: '.MuiAlert-message' })).closest('.MuiAlert-root');

beforeEach(() => {
  queryClient.clear();
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${++n}`);
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  queryClient.clear();
});

describe('Mobile Integration', () => {
  it('fetches both lists on opening and shows the empty texts', async () => {
    const { server } = contentServer();
    await openScreen();

    expect(screen.getByRole('heading', { name: kinds.banner.section, level: 2 })).toBeVisible();
    expect(screen.getByRole('heading', { name: kinds.card.section, level: 2 })).toBeVisible();
    expect(await inSection('banner').findByText(MESSAGES.noBannerImages)).toBeVisible();
    expect(await inSection('card').findByText(MESSAGES.noCatalogueImages)).toBeVisible();
    const types = server
      .sent('POST', API_PATHS.getFiles)
      .map((request) => (request.body as { type: string }).type)
      .sort();
    expect(types).toEqual(['banner', 'card']);
  });

  it('shows each type’s stored images from their URLs, newest first, with alt texts', async () => {
    contentServer({
      banner: [record('banner', 12), record('banner', 11)],
      card: [record('card', 3)],
    });
    await openScreen();

    const banners = await inSection('banner').findAllByRole('img', { name: /^Banner image/ });
    expect(banners.map((image) => image.getAttribute('alt'))).toEqual([
      texts.imageAlt('Banner', 1, 2),
      texts.imageAlt('Banner', 2, 2),
    ]);
    expect(banners.map((image) => image.getAttribute('src'))).toEqual([
      '/api/app/images/12',
      '/api/app/images/11',
    ]);
    const cards = inSection('card').getAllByRole('img', { name: /^e-catalogue image/ });
    expect(cards).toHaveLength(1);
    expect(cards[0]).toHaveAttribute('src', '/api/app/images/3');
    expect(screen.queryByText(MESSAGES.noBannerImages)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.noCatalogueImages)).not.toBeInTheDocument();
  });

  it('upload card: empty -> chosen (preview, upload enabled) -> uploaded and reset; the list is fetched again', async () => {
    const { server, listRequests } = contentServer();
    const user = await openScreen();
    await inSection('banner').findByText(MESSAGES.noBannerImages);

    // Empty: nothing to upload or remove, only the picker; it accepts the five types.
    expect(uploadButton('banner')).toBeDisabled();
    expect(removeButton('banner')).toBeDisabled();
    expect(inSection('banner').getByText(texts.noFileChosen)).toBeVisible();
    expect(picker('banner')).toHaveAttribute('type', 'file');
    expect(picker('banner').getAttribute('accept')?.split(',')).toEqual(
      expect.arrayContaining(['.png', '.jpeg', '.jpg', '.gif', '.webp']),
    );

    // Chosen: preview and upload enabled.
    await user.upload(picker('banner'), png('diwali-banner.png'));
    expect(preview('banner', 'diwali-banner.png')).toHaveAttribute('src', 'blob:preview-1');
    expect(inSection('banner').getByText(/diwali-banner\.png/)).toBeVisible();
    expect(uploadButton('banner')).toBeEnabled();
    expect(removeButton('banner')).toBeEnabled();
    // The other section's card is untouched.
    expect(uploadButton('card')).toBeDisabled();

    expect(listRequests('banner')).toHaveLength(1);
    await user.click(uploadButton('banner'));

    // Uploaded: the success alert, the card reset, the banner list fetched again and shown.
    const success = await alertWith(MESSAGES.imageUploaded);
    expect(success).toHaveClass('MuiAlert-colorSuccess');
    expect(preview('banner', 'diwali-banner.png')).not.toBeInTheDocument();
    expect(uploadButton('banner')).toBeDisabled();
    expect(removeButton('banner')).toBeDisabled();
    expect(inSection('banner').getByText(texts.noFileChosen)).toBeVisible();
    expect(
      await inSection('banner').findByRole('img', { name: texts.imageAlt('Banner', 1, 1) }),
    ).toHaveAttribute('src', '/api/app/images/500');
    expect(listRequests('banner')).toHaveLength(2);
    expect(listRequests('card')).toHaveLength(1);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');

    const [request] = server.sent('POST', API_PATHS.uploadFile);
    const form = request?.body as FormData;
    expect(form.get('type')).toBe('banner');
    expect((form.get('file') as File).name).toBe('diwali-banner.png');
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.headers['Content-Type']).not.toMatch(/json/);
  });

  it('uploads an e-catalogue image with the type card', async () => {
    const { server, held } = contentServer();
    const user = await openScreen();
    await inSection('card').findByText(MESSAGES.noCatalogueImages);

    await user.upload(picker('card'), new File(['x'], 'necklace.jpg', { type: 'image/jpeg' }));
    await user.click(uploadButton('card'));

    expect(
      await inSection('card').findByRole('img', { name: texts.imageAlt('e-catalogue', 1, 1) }),
    ).toBeVisible();
    expect((server.sent('POST', API_PATHS.uploadFile)[0]?.body as FormData).get('type')).toBe(
      'card',
    );
    expect(held.card).toHaveLength(1);
    expect(held.banner).toHaveLength(0);
    expect(inSection('banner').getByText(MESSAGES.noBannerImages)).toBeVisible();
  });

  it('Remove resets the card without sending anything', async () => {
    const { server } = contentServer();
    const user = await openScreen();
    await inSection('banner').findByText(MESSAGES.noBannerImages);

    await user.upload(picker('banner'), png('first.png'));
    expect(preview('banner', 'first.png')).toBeInTheDocument();
    await user.click(removeButton('banner'));

    expect(preview('banner', 'first.png')).not.toBeInTheDocument();
    expect(inSection('banner').getByText(texts.noFileChosen)).toBeVisible();
    expect(uploadButton('banner')).toBeDisabled();
    expect(removeButton('banner')).toBeDisabled();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
    expect(server.sent('POST', API_PATHS.uploadFile)).toHaveLength(0);

    // The same file can be chosen again.
    await user.upload(picker('banner'), png('first.png'));
    expect(preview('banner', 'first.png')).toBeInTheDocument();
  });

  it(`blocks choosing a file while ${LIMITS.imagesPerType} images of the type are held`, async () => {
    const five = [1, 2, 3, 4, 5].map((id) => record('banner', id));
    contentServer({ banner: five });
    const user = await openScreen();
    await inSection('banner').findAllByRole('img', { name: /^Banner image/ });

    // The button warns instead of opening the file dialog...
    const clickPicker = vi.spyOn(picker('banner'), 'click');
    await user.click(chooseButton('banner'));
    const warning = await alertWith(MESSAGES.maxImages);
    expect(warning).toHaveClass('MuiAlert-colorWarning');
    expect(clickPicker).not.toHaveBeenCalled();

    // ...and a file that reaches the picker anyway is not taken.
    await user.upload(picker('banner'), png('sixth.png'));
    expect(preview('banner', 'sixth.png')).not.toBeInTheDocument();
    expect(uploadButton('banner')).toBeDisabled();
    expect(screen.getAllByText(MESSAGES.maxImages)).toHaveLength(2);

    // The count is per type: the e-catalogue still takes a file.
    await user.click(chooseButton('card'));
    expect(screen.getAllByText(MESSAGES.maxImages)).toHaveLength(2);
    await user.upload(picker('card'), png('card.png'));
    expect(preview('card', 'card.png')).toBeInTheDocument();
  });

  it('four held images still allow a choice', async () => {
    contentServer({ banner: [1, 2, 3, 4].map((id) => record('banner', id)) });
    const user = await openScreen();
    await inSection('banner').findAllByRole('img', { name: /^Banner image/ });

    await user.upload(picker('banner'), png('fifth.png'));
    expect(preview('banner', 'fifth.png')).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.maxImages)).not.toBeInTheDocument();
  });

  it('warns about a file of another format or over 5 MB, and keeps the card empty', async () => {
    contentServer();
    signedInAs('meera');
    renderApp('/home/mobile-app');
    await screen.findByText(MESSAGES.noBannerImages);
    // Past the dialog's filter, as "All files" would let through.
    const user = userEvent.setup({ applyAccept: false });

    await user.upload(picker('banner'), new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(await alertWith(MESSAGES.imageFormat)).toHaveClass('MuiAlert-colorWarning');
    expect(uploadButton('banner')).toBeDisabled();

    await user.upload(picker('banner'), png('huge.png', LIMITS.imageMaxBytes + 1));
    expect(await alertWith(MESSAGES.imageTooLarge)).toHaveClass('MuiAlert-colorWarning');
    expect(preview('banner', 'huge.png')).not.toBeInTheDocument();
    expect(uploadButton('banner')).toBeDisabled();
  });

  it('shows upload progress and disables the card while the upload is in flight', async () => {
    const pending = deferred();
    const { server } = contentServer();
    server.on('POST', API_PATHS.uploadFile, pending.handler);
    const user = await openScreen();
    await inSection('banner').findByText(MESSAGES.noBannerImages);

    await user.upload(picker('banner'), png());
    await user.click(uploadButton('banner'));

    expect(
      await inSection('banner').findByRole('progressbar', { name: texts.uploading('banner') }),
    ).toBeVisible();
    expect(uploadButton('banner')).toBeDisabled();
    expect(removeButton('banner')).toBeDisabled();
    expect(chooseButton('banner')).toBeDisabled();

    pending.release({
      status: 200,
      body: { success: true, message: MESSAGES.imageUploaded, data: record('banner', 9) },
    });
    await alertWith(MESSAGES.imageUploaded);
    expect(inSection('banner').queryByRole('progressbar')).not.toBeInTheDocument();
    expect(chooseButton('banner')).toBeEnabled();
  });

  it.each<[string, Reply, string]>([
    [
      'a server failure (5xx)',
      { status: 500, body: { success: false } },
      MESSAGES.imageUploadFailed,
    ],
    [
      'a lost connection',
      'network-error',
      `${MESSAGES.imageUploadFailed} ${SIGN_IN_MESSAGES.serverUnreachable}`,
    ],
    [
      'a 400 refusal',
      { status: 400, body: { success: false, message: MESSAGES.invalidUpload } },
      MESSAGES.imageUploadFailed,
    ],
    [
      'the image limit (409)',
      { status: 409, body: { success: false, message: MESSAGES.maxImages } },
      MESSAGES.maxImages,
    ],
    [
      'a too large image (413)',
      { status: 413, body: { success: false, message: MESSAGES.imageTooLarge } },
      MESSAGES.imageTooLarge,
    ],
    [
      'a file that is not an image (415)',
      { status: 415, body: { success: false, message: MESSAGES.imageFormat } },
      MESSAGES.imageFormat,
    ],
  ])('on %s: an error alert, and the chosen file is kept', async (_case, reply, expected) => {
    const { server, listRequests } = contentServer();
    server.on('POST', API_PATHS.uploadFile, () => reply);
    const user = await openScreen();
    await inSection('banner').findByText(MESSAGES.noBannerImages);

    await user.upload(picker('banner'), png('keep.png'));
    await user.click(uploadButton('banner'));

    expect(await alertWith(expected)).toHaveClass('MuiAlert-colorError');
    expect(screen.queryByText(MESSAGES.imageUploaded)).not.toBeInTheDocument();
    expect(preview('banner', 'keep.png')).toBeInTheDocument();
    expect(uploadButton('banner')).toBeEnabled();
    // The list (and its count) is fetched again either way.
    await waitFor(() => expect(listRequests('banner')).toHaveLength(2));
  });

  it('asks before deleting; Cancel keeps the image', async () => {
    const { server } = contentServer({ banner: [record('banner', 7)] });
    const user = await openScreen();
    const name = texts.deleteImage(texts.imageAlt('Banner', 1, 1));

    await user.click(await inSection('banner').findByRole('button', { name }));
    const dialog = await screen.findByRole('dialog', { name: texts.confirmDeleteTitle });
    expect(dialog).toHaveAccessibleDescription(texts.confirmDeleteText);
    expect(within(dialog).getByRole('button', { name: texts.confirmDeleteCancel })).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: texts.confirmDeleteCancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.sent('POST', API_PATHS.deleteFile)).toHaveLength(0);
    // The focus goes back to the delete button.
    await waitFor(() => expect(inSection('banner').getByRole('button', { name })).toHaveFocus());
    expect(
      inSection('banner').getByRole('img', { name: texts.imageAlt('Banner', 1, 1) }),
    ).toBeVisible();

    // Escape cancels too.
    await user.click(inSection('banner').getByRole('button', { name }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.sent('POST', API_PATHS.deleteFile)).toHaveLength(0);
  });

  it('deletes after confirmation: by id and path, "Image deleted.", the list fetched again, the empty text back', async () => {
    const image = record('card', 41);
    const { server, listRequests } = contentServer({ card: [image] });
    const user = await openScreen();

    await user.click(
      await inSection('card').findByRole('button', {
        name: texts.deleteImage(texts.imageAlt('e-catalogue', 1, 1)),
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: texts.confirmDeleteTitle });
    await user.click(within(dialog).getByRole('button', { name: texts.confirmDeleteConfirm }));

    expect(await alertWith(MESSAGES.imageDeleted)).toHaveClass('MuiAlert-colorSuccess');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await inSection('card').findByText(MESSAGES.noCatalogueImages)).toBeVisible();
    // The button is gone with its image: the focus lands on the list's area.
    await waitFor(() =>
      expect(
        inSection('card').getByRole('group', { name: texts.imageList(kinds.card.label) }),
      ).toHaveFocus(),
    );
    const [request] = server.sent('POST', API_PATHS.deleteFile);
    expect(request?.body).toEqual({ id: 41, path: image.PATH });
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(listRequests('card')).toHaveLength(2);
    expect(listRequests('banner')).toHaveLength(1);
  });

  it('a failed delete shows "Error in deleting image." and keeps the image', async () => {
    const { server } = contentServer({ banner: [record('banner', 8)] });
    server.on('POST', API_PATHS.deleteFile, {
      status: 400,
      body: { success: false, message: MESSAGES.imagePathMismatch },
    });
    const user = await openScreen();

    await user.click(
      await inSection('banner').findByRole('button', {
        name: texts.deleteImage(texts.imageAlt('Banner', 1, 1)),
      }),
    );
    await user.click(await screen.findByRole('button', { name: texts.confirmDeleteConfirm }));

    expect(await alertWith(MESSAGES.imageDeleteFailed)).toHaveClass('MuiAlert-colorError');
    expect(screen.queryByText(MESSAGES.imagePathMismatch)).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      inSection('banner').getByRole('img', { name: texts.imageAlt('Banner', 1, 1) }),
    ).toBeVisible();
  });

  it('disables the dialog’s buttons while the delete is in flight', async () => {
    const pending = deferred();
    const { server } = contentServer({ banner: [record('banner', 8)] });
    server.on('POST', API_PATHS.deleteFile, pending.handler);
    const user = await openScreen();

    await user.click(
      await inSection('banner').findByRole('button', {
        name: texts.deleteImage(texts.imageAlt('Banner', 1, 1)),
      }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: texts.confirmDeleteConfirm }));

    await waitFor(() =>
      expect(
        within(dialog).getByRole('button', { name: texts.confirmDeleteCancel }),
      ).toBeDisabled(),
    );
    expect(within(dialog).getByRole('button', { name: /DELETE$/ })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    pending.release({ status: 200, body: { success: true, message: MESSAGES.imageDeleted } });
    await alertWith(MESSAGES.imageDeleted);
  });

  it('a failed list is logged only: no alert, and no empty text', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { server } = contentServer({ card: [record('card', 2)] });
    server.on('POST', API_PATHS.getFiles, (request: SeenRequest) =>
      (request.body as { type: string }).type === 'banner'
        ? { status: 500, body: { success: false, message: 'boom' } }
        : { status: 200, body: { success: true, data: [record('card', 2)] } },
    );
    await openScreen();

    await inSection('card').findByRole('img', { name: texts.imageAlt('e-catalogue', 1, 1) });
    await waitFor(() =>
      expect(errors).toHaveBeenCalledWith('Could not load the banner images', expect.anything()),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.noBannerImages)).not.toBeInTheDocument();
  });
});
