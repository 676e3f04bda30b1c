import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@kanak/contract';
import { AppError, InvalidInputError, PayloadTooLargeError } from './errors.js';

/**
 * Multipart bodies of one file and a few short fields, taken in `scope` only: every route
 * outside it keeps refusing multipart bodies (415). Answers how the parser's failures are said
 * to the person uploading: `tooLarge` for a file over `maxBytes`, `oneFile` for a second file.
 */
export async function acceptOneFile(
  scope: FastifyInstance,
  { maxBytes, tooLarge, oneFile }: { maxBytes: number; tooLarge: string; oneFile: string },
): Promise<(error: unknown) => unknown> {
  await scope.register(multipart, {
    limits: {
      fileSize: maxBytes,
      files: 1,
      fields: 4,
      parts: 5,
      fieldSize: 1024,
      headerPairs: 100,
    },
  });
  return (error) => {
    const errors = scope.multipartErrors;
    if (error instanceof errors.RequestFileTooLargeError) return new PayloadTooLargeError(tooLarge);
    if (error instanceof errors.FilesLimitError) return new InvalidInputError(oneFile);
    if (error instanceof errors.PartsLimitError || error instanceof errors.FieldsLimitError)
      return new PayloadTooLargeError(MESSAGES.bodyTooLarge);
    if (error instanceof AppError) return error;
    // Anything else here is a malformed or cut-off multipart body.
    return new InvalidInputError(MESSAGES.invalidUpload);
  };
}
