import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { IMPORT_MESSAGES } from '@kanak/contract';
import { InvalidInputError } from '../../lib/errors.js';

/** A cell as read: text from a CSV; text, a number, a date or a formula from a workbook. */
export type Cell = string | number | boolean | Date | { formula: string } | null;

export interface SourceRow {
  /** The row's number as the spreadsheet shows it (the header is row 1 in most files). */
  line: number;
  cells: Cell[];
}

export interface Source {
  /** The sheet read, for a workbook. */
  sheet: string | null;
  /** What the caller should be told about the file as a whole. */
  notices: string[];
  header: string[];
  headerLine: number;
  rows: AsyncIterable<SourceRow>;
}

const ZIP = Buffer.from('PK\x03\x04', 'latin1');
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/**
 * Opens an import file by what its bytes are, not by its name: a zip is a workbook, an old
 * Excel file or a zip-less file named .xlsx is refused in words, anything else is read as CSV.
 * The rows are streamed: a 100,000-row file is never held whole.
 */
export async function openSource(path: string, filename: string): Promise<Source> {
  const head = Buffer.alloc(4096);
  const handle = await open(path);
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  if (bytesRead === 0) throw new InvalidInputError(IMPORT_MESSAGES.empty);
  const start = head.subarray(0, bytesRead);
  if (start.subarray(0, 4).equals(ZIP)) return openWorkbook(path);
  if (start.subarray(0, 4).equals(OLE)) throw new InvalidInputError(IMPORT_MESSAGES.oldXls);
  if (/\.xlsx?$/i.test(filename)) throw new InvalidInputError(IMPORT_MESSAGES.notXlsx);
  // Text has no NUL bytes (UTF-16 exports aside, which no jeweller's software writes).
  if (start.includes(0)) throw new InvalidInputError(IMPORT_MESSAGES.binary);
  return openCsv(path);
}

/** The header (the first row with anything in it) and the rows after it. */
async function split(rows: AsyncIterator<SourceRow>) {
  for (;;) {
    const next = await rows.next();
    if (next.done) throw new InvalidInputError(IMPORT_MESSAGES.empty);
    if (next.value.cells.some((cell) => text(cell) !== '')) {
      return {
        header: next.value.cells.map((cell) => text(cell)),
        headerLine: next.value.line,
        rows: { [Symbol.asyncIterator]: () => rows },
      };
    }
  }
}

async function openCsv(path: string): Promise<Source> {
  const parser = createReadStream(path).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: false }),
  );
  async function* rows(): AsyncGenerator<SourceRow> {
    // Counted by records, as a spreadsheet numbers its rows: a cell of two lines is one row.
    let records = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        records += 1;
        yield { line: records, cells: record };
      }
    } catch (error) {
      const line = (error as { lines?: number }).lines ?? 0;
      throw new InvalidInputError(IMPORT_MESSAGES.unreadableCsv(line));
    }
  }
  return { sheet: null, notices: [], ...(await split(rows())) };
}

async function openWorkbook(path: string): Promise<Source> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  const notices: string[] = [];
  let sheet = '';
  const sheets = reader[Symbol.asyncIterator]();
  async function* rows(): AsyncGenerator<SourceRow> {
    const first = await sheets.next().catch(unreadable);
    if (first.done) return;
    const worksheet = first.value as AsyncIterable<ExcelJS.Row> & { name?: string; id?: number };
    try {
      for await (const row of worksheet) {
        sheet ||= worksheet.name ?? `Sheet${worksheet.id ?? 1}`;
        const values = row.values as unknown[];
        yield { line: row.number, cells: values.slice(1).map(cellOf) };
      }
    } catch (error) {
      unreadable(error);
    }
    sheet ||= worksheet.name ?? `Sheet${worksheet.id ?? 1}`;
    // The other sheets are counted, not read: the owner is told which one was.
    let count = 1;
    for (;;) {
      const next = await sheets.next().catch(unreadable);
      if (next.done) break;
      count += 1;
    }
    if (count > 1) notices.push(IMPORT_MESSAGES.sheetRead(sheet, count));
  }
  const source = await split(rows());
  return {
    get sheet() {
      return sheet || null;
    },
    notices,
    ...source,
  };
}

function unreadable(error: unknown): never {
  if (error instanceof InvalidInputError) throw error;
  throw new InvalidInputError(IMPORT_MESSAGES.unreadableWorkbook);
}

/** A workbook cell's value as the import reads it. */
function cellOf(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('formula' in object || 'sharedFormula' in object)
      return { formula: String(object.formula ?? object.sharedFormula) };
    if ('richText' in object && Array.isArray(object.richText))
      return (object.richText as { text: string }[]).map((part) => part.text).join('');
    if ('text' in object) return String(object.text);
    if ('error' in object) return String(object.error);
  }
  return String(value);
}

/** A cell as text (a formula's as nothing). */
export function text(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (typeof cell === 'object') return '';
  return String(cell).normalize('NFC').trim();
}
