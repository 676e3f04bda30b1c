import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { GifReader } from 'omggif';
import {
  ACCEPTED_IMAGE_MIME,
  imageUrl,
  LIMITS,
  MESSAGES,
  type AppContent,
  type ImageRecord,
  type ImageType,
} from '@kanak/contract';
import type { Db } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { sha256 } from '../../lib/crypto.js';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../../lib/errors.js';
import type { StaffIdentity } from '../../plugins/types.js';
import { contentRepo, type ImageMeta } from './content.repo.js';

export type ContentService = ReturnType<typeof createContentService>;
export type AcceptedMime = (typeof ACCEPTED_IMAGE_MIME)[number];

/**
 * The image format the bytes themselves say (magic numbers), whatever the file's name or its
 * declared type: PNG (animated PNG included), JPEG, GIF or WebP; anything else is 415. An
 * image whose header declares more pixels than a phone can spare memory for is 413.
 */
export async function judgeImage(bytes: Buffer): Promise<AcceptedMime> {
  const mime = await detectImageMime(bytes);
  checkImageDimensions(bytes);
  if (mime === 'image/gif') checkGifFrames(bytes);
  return mime;
}

async function detectImageMime(bytes: Buffer): Promise<AcceptedMime> {
  const detected = await fileTypeFromBuffer(bytes);
  const mime = detected?.mime === 'image/apng' ? 'image/png' : detected?.mime;
  if (!mime || !(ACCEPTED_IMAGE_MIME as readonly string[]).includes(mime)) {
    throw new UnsupportedMediaTypeError(MESSAGES.imageFormat);
  }
  return mime as AcceptedMime;
}

/** A few hundred kilobytes of PNG can declare 20000 × 20000 pixels: 1.6 GB to show. */
function checkImageDimensions(bytes: Buffer): void {
  let pixels: number;
  try {
    const { width, height } = imageSize(bytes);
    pixels = width * height;
  } catch {
    throw new UnsupportedMediaTypeError(MESSAGES.imageFormat);
  }
  if (!(pixels > 0)) throw new UnsupportedMediaTypeError(MESSAGES.imageFormat);
  if (pixels > LIMITS.imageMaxPixels) throw new PayloadTooLargeError(MESSAGES.imageTooManyPixels);
}

/**
 * A GIF's header gives only its screen: each frame has its own size and place, and a frame of
 * 65535 × 65535 may sit in a 10 × 10 screen (decoders allocate for the frame, or grow the
 * screen to hold it). The picture counted is the screen grown to hold every frame, and the
 * animation that screen drawn once a frame; a GIF whose frames cannot be read is no image we
 * accept. Only the frames' descriptors are read (omggif walks the blocks), no pixel is decoded.
 */
function checkGifFrames(bytes: Buffer): void {
  let width: number;
  let height: number;
  let frames: number;
  try {
    const gif = new GifReader(bytes);
    ({ width, height } = gif);
    frames = gif.numFrames();
    for (let i = 0; i < frames; i++) {
      const frame = gif.frameInfo(i);
      width = Math.max(width, frame.x + frame.width);
      height = Math.max(height, frame.y + frame.height);
    }
  } catch {
    throw new UnsupportedMediaTypeError(MESSAGES.imageFormat);
  }
  if (width * height > LIMITS.imageMaxPixels)
    throw new PayloadTooLargeError(MESSAGES.imageTooManyPixels);
  if (frames > LIMITS.gifMaxFrames)
    throw new PayloadTooLargeError(MESSAGES.gifTooManyFrames(LIMITS.gifMaxFrames));
  // Each frame is drawn on the whole (grown) screen, and some phones keep every one decoded.
  if (width * height * frames > LIMITS.gifMaxAnimationPixels)
    throw new PayloadTooLargeError(MESSAGES.gifTooManyAnimationPixels);
}

/** The record's PATH: an opaque key. Nothing on disk has this name. */
const newStorageKey = () => `img_${randomBytes(16).toString('hex')}`;

export function createContentService({ db }: { db: Db }) {
  return {
    /**
     * Stores an image of a type. The per-type count is taken inside the insert's transaction,
     * under a lock on the type, so concurrent uploads can never hold more than 5 of a type.
     */
    async upload(actor: StaffIdentity, type: ImageType, bytes: Buffer): Promise<ImageRecord> {
      if (bytes.length === 0) throw new InvalidInputError(MESSAGES.imageRequired);
      if (bytes.length > LIMITS.imageMaxBytes)
        throw new PayloadTooLargeError(MESSAGES.imageTooLarge);
      const mime = await judgeImage(bytes);
      const digest = sha256(bytes);
      return db.transaction(async (tx) => {
        await contentRepo.lockType(tx, type);
        if ((await contentRepo.countOfType(tx, type)) >= LIMITS.imagesPerType) {
          throw new ConflictError(MESSAGES.maxImages);
        }
        const row = await contentRepo.insert(tx, {
          type,
          mime,
          sizeBytes: bytes.length,
          sha256: digest,
          data: bytes,
          storageKey: newStorageKey(),
          createdBy: actor.id,
        });
        await recordAudit(tx, {
          userId: actor.id,
          action: 'image.upload',
          entity: 'app_image',
          entityId: row.id,
          detail: { type, mime, sizeBytes: row.sizeBytes, sha256: digest, path: row.storageKey },
        });
        return toImageRecord(row);
      });
    },

    /** The images of a type, newest first. */
    async list(type: ImageType): Promise<ImageRecord[]> {
      return (await contentRepo.list(db, type)).map(toImageRecord);
    },

    /** Deletes by id; the caller's `path` must be that record's storage key (else 400). */
    async delete(actor: StaffIdentity, id: number, path: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await contentRepo.findForUpdate(tx, id);
        if (!row) throw new NotFoundError(MESSAGES.imageNotFound);
        if (row.storageKey !== path) throw new InvalidInputError(MESSAGES.imagePathMismatch);
        await contentRepo.delete(tx, row.id, row.storageKey);
        await recordAudit(tx, {
          userId: actor.id,
          action: 'image.delete',
          entity: 'app_image',
          entityId: row.id,
          detail: { type: row.type, mime: row.mime, sha256: row.sha256, path: row.storageKey },
        });
      });
    },

    /** The mobile app's content: image URLs of each kind, newest first. */
    async appContent(): Promise<AppContent> {
      const rows = await contentRepo.list(db);
      const urlsOf = (type: ImageType) =>
        rows.filter((row) => row.type === type).map((row) => imageUrl(row.id));
      return { banners: urlsOf('banner'), catalogue: urlsOf('card') };
    },

    /**
     * One image for serving. With `isCached` (the client sent If-None-Match), the bytes are
     * read only when the client's copy is not the stored one; `data: null` means "not
     * modified". Undefined when there is no such image.
     */
    async image(
      id: number,
      isCached?: (sha256: string) => boolean,
    ): Promise<{ mime: string; sha256: string; data: Buffer | null } | undefined> {
      if (isCached) {
        const meta = await contentRepo.findMeta(db, id);
        if (!meta) return undefined;
        if (isCached(meta.sha256)) return { ...meta, data: null };
      }
      return contentRepo.findWithData(db, id);
    },
  };
}

export function toImageRecord(row: ImageMeta): ImageRecord {
  return {
    ID: row.id,
    URL: imageUrl(row.id),
    PATH: row.storageKey,
    TYPE: row.type as ImageType,
  };
}
