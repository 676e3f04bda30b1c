import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_PATHS,
  CSV_BOM,
  csvLine,
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  IMPORT_REPORT_COLUMNS,
  IMPORT_TEXTS,
  importFields,
  importProblemCells,
  importProgressQuery,
  importProgressResponse,
  importQuery,
  importResponse,
  MESSAGES,
  type ImportKind,
  type ImportProgress,
  type ImportResult,
  type ImportRowError,
} from '@kanak/contract';
import {
  InvalidInputError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../../lib/errors.js';
import { acceptOneFile } from '../../lib/one-file-upload.js';
import { reread } from '../../plugins/idempotency.js';
import type { ImportService } from './import.service.js';

/**
 * What an import validates and what its Idempotency-Key is bound to: `dryRun` and the
 * SHA-256 of the file (set by `readUpload`, the file itself waiting on disk in `uploads`).
 */
const importBody = importFields.extend({
  file: z.string({ error: IMPORT_MESSAGES.fileRequired }),
});

/** Each upload's file on disk between its preValidation hook and the end of its response. */
const uploads = new WeakMap<FastifyRequest, { dir: string; path: string; filename: string }>();

const MAX_MB = Math.round(IMPORT_MAX_BYTES / 1024 / 1024);

/** Problems a chunk of the CSV holds: the file goes out as it is written. */
const PROBLEMS_PER_CHUNK = 1000;

/**
 * The whole list of a check's problems as the screen's own report: row, name, column, value
 * and problem. The name, the file's header and its value may be anything: cells that look
 * like formulas are neutralised.
 */
function* problemsCsv(problems: ImportRowError[]) {
  yield CSV_BOM + csvLine([...IMPORT_REPORT_COLUMNS]);
  for (let start = 0; start < problems.length; start += PROBLEMS_PER_CHUNK) {
    yield problems
      .slice(start, start + PROBLEMS_PER_CHUNK)
      .map((problem) => csvLine(importProblemCells(problem)))
      .join('');
  }
}

type ImportAnswer = { success: true; data: ImportResult };

/**
 * What the replay store keeps of an import's answer: its figures and each problem's row,
 * column and reason. The names and values repeated from the file are customers' details,
 * not kept past the answer (a customer erased meanwhile would outlive it there): a repeat
 * lists the same problems without them.
 */
const replayWithoutDetails = reread(
  (answer: ImportAnswer): ImportAnswer => ({
    ...answer,
    data: {
      ...answer.data,
      errors: answer.data.errors.map((error) => ({ ...error, value: '', name: '' })),
    },
  }),
  async (kept) => kept,
);

const sendProblems = (reply: FastifyReply, problems: ImportRowError[]) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${IMPORT_TEXTS.reportFile}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(problemsCsv(problems)));

/**
 * Streams the multipart body's `file` to a temporary file, hashing it on the way (never held
 * whole in memory), and puts `{ dryRun, file: sha256 }` in the body's place.
 */
async function readUpload(request: FastifyRequest, uploadError: (error: unknown) => unknown) {
  if (!request.isMultipart()) throw new UnsupportedMediaTypeError(MESSAGES.unsupportedContentType);
  const dir = await mkdtemp(path.join(tmpdir(), 'kanak-import-'));
  const upload = { dir, path: path.join(dir, 'upload'), filename: '' };
  uploads.set(request, upload);
  let dryRun: unknown;
  let digest: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || digest !== undefined) {
          part.file.resume();
          continue;
        }
        const hash = createHash('sha256');
        const tap = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        });
        await pipeline(part.file, tap, createWriteStream(upload.path));
        if (part.file.truncated) throw new PayloadTooLargeError(IMPORT_MESSAGES.tooLarge(MAX_MB));
        upload.filename = part.filename;
        digest = hash.digest('hex');
      } else if (part.fieldname === 'dryRun' && dryRun === undefined) {
        dryRun = part.value;
      }
    }
  } catch (error) {
    throw uploadError(error);
  }
  request.body = { dryRun, file: digest };
}

export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportService }> = async (
  app,
  { imports },
) => {
  // Each import being written, by who sent it and its Idempotency-Key: the screen asks how far
  // it has got. Only this server's own imports (another instance's are not known here).
  const running = new Map<string, ImportProgress>();
  const runningKey = (staffId: number, key: string) => `${staffId} ${key}`;

  app.get(
    API_PATHS.importProgress,
    { schema: { querystring: importProgressQuery, response: { 200: importProgressResponse } } },
    async (request) => ({
      success: true as const,
      data: running.get(runningKey(request.staff.id, request.query.key)) ?? null,
    }),
  );

  // In its own scope: every other route keeps refusing multipart bodies (415).
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    const uploadError = await acceptOneFile(plain, {
      maxBytes: IMPORT_MAX_BYTES,
      tooLarge: IMPORT_MESSAGES.tooLarge(MAX_MB),
      oneFile: IMPORT_MESSAGES.fileRequired,
    });

    // The uploaded file holds customers' details: gone once the import has read it (a client
    // that went away gets no onResponse), or once a refusal is answered.
    const removeUpload = async (request: FastifyRequest) => {
      const upload = uploads.get(request);
      if (upload) await rm(upload.dir, { recursive: true, force: true });
    };
    scope.addHook('onResponse', removeUpload);

    const route = (url: string, kind: ImportKind) =>
      scope.post(
        url,
        {
          // The JSON answer; the CSV of every problem (format=csv) is a stream the serializer
          // never sees.
          schema: { querystring: importQuery, body: importBody, response: { 200: importResponse } },
          // The answer lists at most IMPORT_ERRORS_LISTED problems, kept without the names
          // and values they repeat from the file. The CSV, a stream, is not kept (the replay
          // store keeps only text); a check changes nothing, so a repeat checks again.
          config: { idempotent: true, replay: replayWithoutDetails },
          preValidation: (request) => readUpload(request, uploadError),
        },
        async (request, reply) => {
          const upload = uploads.get(request)!;
          if (request.query.format === 'csv') {
            if (!request.body.dryRun) throw new InvalidInputError(IMPORT_MESSAGES.problemsOfACheck);
            try {
              const { errors } = await imports.run(kind, request.staff, upload, {
                dryRun: true,
                listAll: true,
              });
              return sendProblems(reply, errors);
            } finally {
              await removeUpload(request);
            }
          }
          // Checked by the idempotency hook before the handler runs.
          const key = runningKey(request.staff.id, String(request.headers['idempotency-key']));
          try {
            const data = await imports.run(kind, request.staff, upload, {
              dryRun: request.body.dryRun,
              onProgress: (progress) => running.set(key, progress),
            });
            return { success: true as const, data };
          } finally {
            running.delete(key);
            await removeUpload(request);
          }
        },
      );
    route(API_PATHS.importCustomers, 'customers');
    route(API_PATHS.importSchemes, 'schemes');
  });
};
