import {
  API_PATHS,
  IMPORT_TEXTS,
  csvLine,
  type ImportKind,
  type ImportResult,
  type importResponse,
  LIMITS,
} from '@kanak/contract';
import { api, expectSuccess, newIdempotencyKey, type Answer } from '../../lib/api';
import { saveFile } from '../../components/saveFile';

const PATHS: Record<ImportKind, string> = {
  customers: API_PATHS.importCustomers,
  schemes: API_PATHS.importSchemes,
};

/**
 * POST /api/import/<kind> (owner): the file checked (`dryRun`) or imported. `onProgress` hears
 * the upload's share sent; the import itself follows once the file is on the server.
 */
export async function sendImport(
  kind: ImportKind,
  file: File,
  dryRun: boolean,
  onProgress: (share: number) => void,
): Promise<ImportResult> {
  const form = new FormData();
  form.append('dryRun', String(dryRun));
  form.append('file', file, file.name);
  const { data } = await api.post<Answer<typeof importResponse>>(PATHS[kind], form, {
    // Replaces the client's JSON default; the browser then adds the multipart boundary. A
    // new key each press: a check and the import of the same file are two changes.
    headers: { 'Content-Type': 'multipart/form-data', 'Idempotency-Key': newIdempotencyKey() },
    timeout: LIMITS.importTimeoutMs,
    onUploadProgress: (event) => {
      const share = event.total ? event.loaded / event.total : event.progress;
      if (share !== undefined) onProgress(Math.min(1, share));
    },
  });
  return expectSuccess(data).data;
}

/** The report's bad rows as a CSV the owner can open beside the file and correct. */
export function downloadReport(result: ImportResult) {
  const header = [IMPORT_TEXTS.row, IMPORT_TEXTS.column, IMPORT_TEXTS.message];
  const rows = result.errors.map((error) => [String(error.row), error.column, error.message]);
  saveFile([header, ...rows].map(csvLine).join(''), IMPORT_TEXTS.reportFile);
}
