import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_PATHS,
  appContentResponse,
  deleteFileRequest,
  getFilesRequest,
  imageResponse,
  imagesResponse,
  LIMITS,
  MESSAGES,
  messageResponse,
  uploadFileFields,
} from '@kanak/contract';
import { sha256 } from '../../lib/crypto.js';
import { acceptOneFile } from '../../lib/one-file-upload.js';
import { InvalidInputError, NotFoundError, UnsupportedMediaTypeError } from '../../lib/errors.js';
import { judgeImage, type ContentService } from './content.service.js';

/** Images never change under their URL (a new upload gets a new id): cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const MAX_ID = 2_147_483_647;

/**
 * What `file/upload` validates and what its Idempotency-Key is bound to: the `type` field and
 * the SHA-256 of the file's bytes (set by `readUpload`; the bytes themselves wait in `uploads`).
 */
const uploadBody = uploadFileFields.extend({
  file: z.string({ error: MESSAGES.imageRequired }),
});

/** The bytes of each upload between its preValidation hook and its handler. */
const uploads = new WeakMap<FastifyRequest, Buffer>();

/**
 * Reads the multipart body (`file` and `type`, either order) before validation, and puts
 * `{ type, file: sha256 }` in its place. So the body schema checks `type`, and the
 * idempotency plugin (preHandler, after validation) fingerprints type + bytes: the same
 * file again with the same key replays, a different file with the same key is 409.
 * The bytes are judged here too, so that a file that is not an image is refused before any
 * Idempotency-Key is claimed, like any other invalid input.
 */
async function readUpload(request: FastifyRequest, uploadError: (error: unknown) => unknown) {
  if (!request.isMultipart()) throw new UnsupportedMediaTypeError(MESSAGES.unsupportedContentType);
  let type: unknown;
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer();
        if (part.fieldname === 'file' && buffer.length > 0) bytes = buffer;
      } else if (part.fieldname === 'type' && type === undefined) {
        type = part.value;
      }
    }
  } catch (error) {
    throw uploadError(error);
  }
  if (bytes) await judgeImage(bytes);
  request.body = { type, file: bytes && sha256(bytes) };
  if (bytes) uploads.set(request, bytes);
}

export const contentRoutes: FastifyPluginAsyncZod<{ content: ContentService }> = async (
  app,
  { content },
) => {
  // In its own scope: every other route, file/delete and file/get-files included, keeps
  // refusing multipart bodies (415).
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    const uploadError = await acceptOneFile(plain, {
      maxBytes: LIMITS.imageMaxBytes,
      tooLarge: MESSAGES.imageTooLarge,
      oneFile: MESSAGES.oneImageAtATime,
    });

    scope.post(
      API_PATHS.uploadFile,
      {
        schema: { body: uploadBody, response: { 200: imageResponse } },
        config: { idempotent: true },
        preValidation: (request) => readUpload(request, uploadError),
      },
      async (request) => {
        const bytes = uploads.get(request);
        if (!bytes) throw new InvalidInputError(MESSAGES.imageRequired);
        return {
          success: true,
          message: MESSAGES.imageUploaded,
          data: await content.upload(request.staff, request.body.type, bytes),
        };
      },
    );
  });

  app.post(
    API_PATHS.getFiles,
    { schema: { body: getFilesRequest, response: { 200: imagesResponse } } },
    async (request) => ({
      success: true,
      data: await content.list(request.body.type),
    }),
  );

  app.post(
    API_PATHS.deleteFile,
    {
      schema: { body: deleteFileRequest, response: { 200: messageResponse } },
      config: { idempotent: true },
    },
    async (request) => {
      await content.delete(request.staff, request.body.id, request.body.path);
      return { success: true, message: MESSAGES.imageDeleted };
    },
  );

  // Public (GET /api/app/*): the companion mobile app reads these without a token.
  const appContent = { response: { 200: appContentResponse } };
  app.get(
    API_PATHS.content,
    { schema: appContent, config: { public: true } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return { success: true, data: await content.appContent() };
    },
  );

  app.get(
    API_PATHS.image,
    { config: { public: true }, schema: { params: z.object({ id: z.string() }) } },
    async (request, reply) => {
      const id = /^\d{1,10}$/.test(request.params.id) ? Number(request.params.id) : 0;
      if (id < 1 || id > MAX_ID) throw new NotFoundError(MESSAGES.imageNotFound);
      const ifNoneMatch = request.headers['if-none-match'];
      const image = await content.image(
        id,
        ifNoneMatch ? (digest) => etagMatches(ifNoneMatch, digest) : undefined,
      );
      if (!image) throw new NotFoundError(MESSAGES.imageNotFound);
      reply
        .header('etag', `"${image.sha256}"`)
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff');
      if (image.data === null) return reply.code(304).send();
      return reply.type(image.mime).send(image.data);
    },
  );
};

/** If-None-Match: `*` or a list of (possibly weak) entity tags; compared weakly (RFC 9110). */
function etagMatches(header: string, digest: string): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === `"${digest}"`);
}
