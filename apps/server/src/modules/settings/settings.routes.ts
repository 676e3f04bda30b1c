import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_PATHS,
  MESSAGES,
  SHOP_SETTINGS_LIMITS,
  SHOP_SETTINGS_MESSAGES,
  shopSettingsForm,
  shopSettingsResponse,
} from '@kanak/contract';
import { sha256 } from '../../lib/crypto.js';
import { InvalidInputError, NotFoundError, UnsupportedMediaTypeError } from '../../lib/errors.js';
import { acceptOneFile } from '../../lib/one-file-upload.js';
import type { SettingsService } from './settings.service.js';

const M = SHOP_SETTINGS_MESSAGES;

/**
 * What the logo upload validates and its Idempotency-Key is bound to: the SHA-256 of the
 * file's bytes (set by `readLogo`; the bytes wait in `logos`). The same file again with the
 * same key replays; another file with that key is 409.
 */
const logoBody = z.object({ file: z.string({ error: M.logoRequired }) });
const logos = new WeakMap<FastifyRequest, Buffer>();

/** The multipart body's `file`, read before validation; the bytes are judged in the service. */
async function readLogo(request: FastifyRequest, uploadError: (error: unknown) => unknown) {
  if (!request.isMultipart()) throw new UnsupportedMediaTypeError(MESSAGES.unsupportedContentType);
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      const buffer = await part.toBuffer();
      if (part.fieldname === 'file' && buffer.length > 0) bytes = buffer;
    }
  } catch (error) {
    throw uploadError(error);
  }
  request.body = { file: bytes && sha256(bytes) };
  if (bytes) logos.set(request, bytes);
}

/** If-None-Match: `*` or a list of (possibly weak) entity tags, compared weakly. */
const etagMatches = (header: string, digest: string) =>
  header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === `"${digest}"`);

/** The owner's shop settings, and the shop's logo for everyone. */
export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  app.get(
    API_PATHS.shopSettings,
    {
      schema: { response: { 200: shopSettingsResponse } },
      config: { access: 'shopSettings' },
    },
    async () => ({ success: true, data: await settings.get() }),
  );

  app.put(
    API_PATHS.saveShopSettings,
    {
      schema: { body: shopSettingsForm, response: { 200: shopSettingsResponse } },
      config: { idempotent: true, access: 'saveShopSettings' },
    },
    async (request) => ({
      success: true,
      message: M.saved,
      data: await settings.save(request.staff, request.body),
    }),
  );

  // In its own scope: every other route keeps refusing multipart bodies (415).
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    const uploadError = await acceptOneFile(plain, {
      maxBytes: SHOP_SETTINGS_LIMITS.logoMaxBytes,
      tooLarge: M.logoTooLarge(SHOP_SETTINGS_LIMITS.logoMaxBytes / 1024),
      oneFile: M.oneLogo,
    });
    scope.post(
      API_PATHS.uploadShopLogo,
      {
        schema: { body: logoBody, response: { 200: shopSettingsResponse } },
        config: { idempotent: true, access: 'uploadShopLogo' },
        preValidation: (request) => readLogo(request, uploadError),
      },
      async (request) => {
        const bytes = logos.get(request);
        if (!bytes) throw new InvalidInputError(M.logoRequired);
        return {
          success: true,
          message: M.logoSaved,
          data: await settings.setLogo(request.staff, bytes),
        };
      },
    );
  });

  app.delete(
    API_PATHS.removeShopLogo,
    {
      schema: { response: { 200: shopSettingsResponse } },
      config: { idempotent: true, access: 'removeShopLogo' },
    },
    async (request) => ({
      success: true,
      message: M.logoRemoved,
      data: await settings.removeLogo(request.staff),
    }),
  );

  // Public: the sign-in page and the portal show it before anyone signs in. Its address
  // changes with the logo (?v=); the browser asks again each time and mostly hears 304.
  // Its answer is the image's bytes, described in the API docs by hand; `?v=` is not read.
  app.get(API_PATHS.shopLogo, { schema: {}, config: { public: true } }, async (request, reply) => {
    const ifNoneMatch = request.headers['if-none-match'];
    const logo = await settings.logo(
      ifNoneMatch ? (digest) => etagMatches(ifNoneMatch, digest) : undefined,
    );
    if (!logo) throw new NotFoundError(M.noLogo);
    reply
      .header('etag', `"${logo.sha256}"`)
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff');
    if (logo.data === null) return reply.code(304).send();
    return reply.type(logo.mime).send(logo.data);
  });
};
