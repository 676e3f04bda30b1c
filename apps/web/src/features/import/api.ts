import {
  API_PATHS,
  IMPORT_REPORT_COLUMNS,
  IMPORT_TEMPLATES,
  IMPORT_TEXTS,
  csvLine,
  importProblemCells,
  type ImportKind,
  type ImportProgress,
  type ImportResult,
  type importProblemsCsvResponse,
  type importProgressResponse,
  type importResponse,
  LIMITS,
} from '@kanak/contract';
import { api, expectSuccess, newIdempotencyKey, type Answer } from '../../lib/api';
import { saveFile } from '../../components/saveFile';

const PATHS: Record<ImportKind, string> = {
  customers: API_PATHS.importCustomers,
  schemes: API_PATHS.importSchemes,
};

/** How often the screen asks how far an import has got. */
const PROGRESS_EVERY_MS = 1000;

/** GET /api/import/progress (owner): the caller's import sent with `key`, while it is written. */
async function importProgress(key: string): Promise<ImportProgress | null> {
  const { data } = await api.get<Answer<typeof importProgressResponse>>(API_PATHS.importProgress, {
    params: { key },
  });
  return expectSuccess(data).data;
}

/**
 * POST /api/import/<kind> (owner): the file checked (`dryRun`) or imported. `onUpload` hears
 * the upload's share sent; once the file is on the server, `onRows` hears the rows done of the
 * file's rows, asked every second until the answer comes.
 */
export async function sendImport(
  kind: ImportKind,
  file: File,
  dryRun: boolean,
  onUpload: (share: number) => void,
  onRows: (progress: ImportProgress) => void,
): Promise<ImportResult> {
  const form = new FormData();
  form.append('dryRun', String(dryRun));
  form.append('file', file, file.name);
  // A new key each press: a check and the import of the same file are two changes.
  const key = newIdempotencyKey();
  let answered = false;
  const watch = async () => {
    while (!answered) {
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS));
      // A question that fails is asked again; the import's own answer says how it went.
      const progress = answered ? null : await importProgress(key).catch(() => null);
      if (progress && !answered) onRows(progress);
    }
  };
  try {
    void watch();
    const { data } = await api.post<Answer<typeof importResponse>>(PATHS[kind], form, {
      // Replaces the client's JSON default; the browser then adds the multipart boundary.
      headers: { 'Content-Type': 'multipart/form-data', 'Idempotency-Key': key },
      timeout: LIMITS.importTimeoutMs,
      onUploadProgress: (event) => {
        const share = event.total ? event.loaded / event.total : event.progress;
        if (share !== undefined) onUpload(Math.min(1, share));
      },
    });
    return expectSuccess(data).data;
  } finally {
    answered = true;
  }
}

/**
 * Every problem of the file, as the server lists them when the answer holds only the first: the
 * file checked again (`dryRun`, nothing changes) and answered as CSV.
 */
export async function downloadAllProblems(kind: ImportKind, file: File) {
  const form = new FormData();
  form.append('dryRun', 'true');
  form.append('file', file, file.name);
  const { data } = await api.post<Answer<typeof importProblemsCsvResponse>>(PATHS[kind], form, {
    params: { format: 'csv' },
    responseType: 'text',
    headers: { 'Content-Type': 'multipart/form-data', 'Idempotency-Key': newIdempotencyKey() },
    timeout: LIMITS.importTimeoutMs,
  });
  saveFile(data, IMPORT_TEXTS.reportFile);
}

/**
 * The report's bad rows as a CSV the owner can open beside the file and correct: the same
 * columns as the server's list, names and values neutralised as every CSV cell is.
 */
export function downloadReport(result: ImportResult) {
  const rows = result.errors.map(importProblemCells);
  saveFile([[...IMPORT_REPORT_COLUMNS], ...rows].map(csvLine).join(''), IMPORT_TEXTS.reportFile);
}

/** A file of the kind to fill in: the header row the import reads and one example row. */
export function downloadTemplate(kind: ImportKind) {
  const { header, example } = IMPORT_TEMPLATES[kind];
  saveFile(csvLine(header) + csvLine(example), IMPORT_TEXTS.templateFile(kind));
}
