import { z } from 'zod';
import { API_PREFIX, SIGN_IN_API_PATHS } from '../sign-in-paths.js';
import { IMAGE_TYPES } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { dataResponse, storableText } from './common.js';

/** `banner` (Customize Banner) or `card` (Customize e-catalogue). */
export const imageType = z.enum(IMAGE_TYPES, { error: MESSAGES.imageTypeInvalid });

/** The text field that travels beside the `file` part of a `file/upload` multipart body. */
export const uploadFileFields = z.object({ type: imageType });

export const getFilesRequest = z.object({ type: imageType });

/** The largest id of an `integer` column. */
const MAX_ID = 2_147_483_647;
const idRule = "The image's number must be a whole number.";

export const deleteFileRequest = z.object({
  id: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,10}$/, { error: idRule }),
      ],
      {
        error: idRule,
      },
    )
    .transform(Number)
    .refine((id) => Number.isInteger(id) && id > 0 && id <= MAX_ID, { error: idRule }),
  path: storableText('path', 'The image is required.')
    .trim()
    .min(1, { error: 'The image is required.' })
    .max(100, { error: "The image's key must be at most 100 characters." }),
});
export type DeleteFileRequest = z.input<typeof deleteFileRequest>;

/**
 * An image record. `URL` is the public address the mobile app loads
 * (`/api/app/images/:id`); `PATH` is the image's storage key, never a file-system path.
 */
export const imageRecord = z.object({
  ID: z.number(),
  URL: z.string(),
  PATH: z.string(),
  TYPE: imageType,
});
export type ImageRecord = z.infer<typeof imageRecord>;
export const imageResponse = dataResponse(imageRecord);
export const imagesResponse = dataResponse(z.array(imageRecord));

/** `GET /api/app/content`: the mobile app's banners and e-catalogue, newest first. */
export const appContent = z.object({
  banners: z.array(z.string()),
  catalogue: z.array(z.string()),
});
export type AppContent = z.infer<typeof appContent>;
export const appContentResponse = dataResponse(appContent);

/** The public URL of an image, relative to the server's origin. */
export const imageUrl = (id: number) =>
  `${API_PREFIX}${SIGN_IN_API_PATHS.image.replace(':id', String(id))}`;
