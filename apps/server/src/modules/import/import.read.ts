import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, Transform, type Readable } from 'node:stream';
import { parse, type Options } from 'csv-parse';
import ExcelJS from 'exceljs';
import unzipper from 'unzipper';
import { IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS, IMPORT_MESSAGES } from '@kanak/contract';
import { AppError, InvalidInputError, PayloadTooLargeError } from '../../lib/errors.js';

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
  /** The rows below the header with something in them, at most IMPORT_MAX_ROWS. */
  rows: AsyncIterable<SourceRow>;
}

export type FileKind = 'csv' | 'workbook';

const MB = 1024 * 1024;

/**
 * A workbook unpacked. Its parts other than the sheets (the shared strings, the styles) are
 * read whole into memory: 1.2 MB of packed shared strings unpacked to 493 MB, 25 s and 650 MB
 * for each reading. A real workbook of 100,000 customers with their addresses and e-mails
 * holds 17 MB of shared strings and 60 MB in all.
 */
export const WORKBOOK_LIMITS = {
  partMaxBytes: 32 * MB,
  totalMaxBytes: 160 * MB,
  /** A workbook has a dozen parts, a few more with pictures. */
  maxParts: 1000,
};

const ZIP = Buffer.from('PK\x03\x04', 'latin1');
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/**
 * What an import file is by its bytes, not by its name: a zip is a workbook, an old Excel file
 * or a zip-less file named .xlsx is refused in words, anything else is read as CSV. A workbook
 * too large once unpacked is refused here, before any of it is parsed.
 */
export async function judgeFile(path: string, filename: string): Promise<FileKind> {
  const head = Buffer.alloc(4096);
  const handle = await open(path);
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  if (bytesRead === 0) throw new InvalidInputError(IMPORT_MESSAGES.empty);
  const start = head.subarray(0, bytesRead);
  if (start.subarray(0, 4).equals(ZIP)) {
    await measureWorkbook(path);
    return 'workbook';
  }
  if (start.subarray(0, 4).equals(OLE)) throw new InvalidInputError(IMPORT_MESSAGES.oldXls);
  if (/\.xlsx?$/i.test(filename)) throw new InvalidInputError(IMPORT_MESSAGES.notXlsx);
  // Text has no NUL bytes (UTF-16 exports aside, which no jeweller's software writes).
  if (start.includes(0)) throw new InvalidInputError(IMPORT_MESSAGES.binary);
  return 'csv';
}

/** The rows of a file judged by judgeFile, streamed: a 100,000-row file is never held whole. */
export function openSource(path: string, kind: FileKind): Promise<Source> {
  return kind === 'workbook' ? openWorkbook(path) : openCsv(path);
}

/**
 * Unpacks every part of a workbook as the workbook reader will (the same library, reading the
 * same headers), counting the bytes that come out and keeping none: the sizes a zip declares
 * may lie, these cannot. Stops at the first part past its limit.
 */
async function measureWorkbook(path: string): Promise<void> {
  const file = createReadStream(path);
  const zip = file.pipe(unzipper.Parse({ forceStream: true }));
  let entry: unzipper.Entry | undefined;
  // A zip cut off midway ends (or fails) the parser, not the part being unpacked, which may
  // not even have been taken yet: without this, its reading would wait for the rest for ever.
  let ended = false;
  let failure: Error | undefined;
  const stop = () => {
    ended = true;
    if (entry && !entry.writableEnded) entry.destroy(failure ?? new Error('cut off'));
  };
  file.on('error', (error) => zip.destroy(error));
  zip.on('error', (error: Error) => {
    failure = error;
    stop();
  });
  zip.on('close', stop);
  let parts = 0;
  let total = 0;
  try {
    for await (const next of zip as AsyncIterable<unzipper.Entry>) {
      entry = next;
      // Its failure is met by reading it, or by nobody once the measuring has stopped: never
      // an unhandled 'error' event, which would end the server.
      next.on('error', () => {});
      if (ended && !next.writableEnded) throw failure ?? new Error('cut off');
      if (++parts > WORKBOOK_LIMITS.maxParts)
        throw new InvalidInputError(IMPORT_MESSAGES.unreadableWorkbook);
      // A sheet is read a row at a time; every other part is held whole.
      const partMax = /^xl\/worksheets\/sheet\d+\.xml$/.test(next.path)
        ? Infinity
        : WORKBOOK_LIMITS.partMaxBytes;
      let size = 0;
      for await (const chunk of next as AsyncIterable<Buffer>) {
        size += chunk.length;
        total += chunk.length;
        if (size > partMax)
          throw new PayloadTooLargeError(
            IMPORT_MESSAGES.workbookPartTooLarge(WORKBOOK_LIMITS.partMaxBytes / MB),
          );
        if (total > WORKBOOK_LIMITS.totalMaxBytes)
          throw new PayloadTooLargeError(
            IMPORT_MESSAGES.workbookTooLarge(WORKBOOK_LIMITS.totalMaxBytes / MB),
          );
      }
    }
    if (failure) throw failure;
  } catch (error) {
    unreadable(error);
  } finally {
    file.destroy();
    zip.destroy();
  }
}

/** A row with nothing in it, skipped without a word (a formula is something). */
function isBlank(cells: Cell[]) {
  return cells.every(
    (cell) =>
      cell === null || ((typeof cell !== 'object' || cell instanceof Date) && text(cell) === ''),
  );
}

/**
 * Counts the rows a reader is handed (a spreadsheet's empty rows too, a CSV's empty lines
 * aside), the header among them: more than IMPORT_MAX_ROWS below it is refused while the file
 * is first read through, before anything is written.
 */
function rowCounter() {
  let count = 0;
  return () => {
    if (++count > IMPORT_MAX_ROWS + 1)
      throw new PayloadTooLargeError(IMPORT_MESSAGES.tooManyRows(IMPORT_MAX_ROWS));
  };
}

/** The header (the first row with anything in it) and the rows after it. */
async function split(rows: AsyncIterator<SourceRow>) {
  const first = await rows.next();
  if (first.done) throw new InvalidInputError(IMPORT_MESSAGES.empty);
  async function* below(): AsyncGenerator<SourceRow> {
    try {
      for (let next = await rows.next(); !next.done; next = await rows.next()) yield next.value;
    } finally {
      // Left early (refused, or the reader stopped): the file is closed.
      await rows.return?.();
    }
  }
  return {
    header: first.value.cells.map((cell) => text(cell)),
    headerLine: first.value.line,
    rows: below(),
  };
}

/**
 * Passes the bytes on as they are once they are known to be UTF-8. A file saved by Excel as
 * plain CSV is in the PC's code page (Windows-1252): read as UTF-8, its é and ₹ would be stored
 * as U+FFFD. A byte-order mark is UTF-8 too.
 */
function utf8Only() {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const notUtf8 = () => new InvalidInputError(IMPORT_MESSAGES.notUtf8);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        // Streaming: a character split between two chunks is judged whole.
        decoder.decode(chunk, { stream: true });
      } catch {
        return done(notUtf8());
      }
      done(null, chunk);
    },
    flush(done) {
      try {
        decoder.decode();
      } catch {
        return done(notUtf8());
      }
      done();
    },
  });
}

/** Only commas and spaces: the empty cells of a line, however many. */
const EMPTY_CELLS = /^[\s,]*$/;

async function openCsv(path: string): Promise<Source> {
  const counted = rowCounter();
  const options: Options<SourceRow, string[]> = {
    bom: true,
    relax_column_count: true,
    // Empty lines, and lines of spaces (spaces before a cell are dropped: the import trims
    // every cell), are passed over by the parser itself. Kept, each became a record of one
    // field, which the parser, its other records having more, reports in an error object of
    // its own, relaxed or not: a million empty lines took minutes, the event loop held for
    // seconds at a time.
    skip_empty_lines: true,
    ltrim: true,
    // A record splits into at most one field past the limit, that field holding the rest of
    // it: a line of a million commas is never a million fields.
    ignore_last_delimiters: IMPORT_MAX_COLUMNS + 1,
    // Rows of empty cells (lines of commas) are dropped here, inside the parser, as they are
    // read: nothing else is done for them.
    on_record: (record, context) => {
      counted();
      let cells = record;
      if (cells.length > IMPORT_MAX_COLUMNS) {
        // The rest of the line: empty cells at its end are no columns.
        if (!EMPTY_CELLS.test(cells[IMPORT_MAX_COLUMNS]!))
          throw new PayloadTooLargeError(IMPORT_MESSAGES.tooManyColumns(IMPORT_MAX_COLUMNS));
        cells = cells.slice(0, IMPORT_MAX_COLUMNS);
      }
      if (cells.every((cell) => cell.trim() === '')) return null;
      // Numbered as a spreadsheet numbers its rows: a cell of two lines is one row, and an
      // empty line is a row too.
      return { line: context.records + context.empty_lines, cells };
    },
  };
  // The parser's types know records as arrays; `on_record` makes them rows.
  const parser = parse(options as unknown as Options);
  const source: Readable = pipeline(createReadStream(path), utf8Only(), parser, () => {});
  async function* rows(): AsyncGenerator<SourceRow> {
    try {
      yield* source as AsyncIterable<SourceRow>;
    } catch (error) {
      if (error instanceof AppError) throw error;
      const { lines = 0, index } = error as { lines?: number; index?: number };
      // The parser stopped inside the rest of a line past the last column it splits.
      if (index === IMPORT_MAX_COLUMNS)
        throw new PayloadTooLargeError(IMPORT_MESSAGES.tooManyColumns(IMPORT_MAX_COLUMNS));
      throw new InvalidInputError(IMPORT_MESSAGES.unreadableCsv(lines));
    } finally {
      source.destroy();
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
      const counted = rowCounter();
      for await (const row of worksheet) {
        counted();
        sheet ||= worksheet.name ?? `Sheet${worksheet.id ?? 1}`;
        // Up to the row's last cell, empty ones too: a workbook has no line to cut.
        if (row.cellCount > IMPORT_MAX_COLUMNS)
          throw new PayloadTooLargeError(IMPORT_MESSAGES.tooManyColumns(IMPORT_MAX_COLUMNS));
        const values = row.values as unknown[];
        const cells = values.slice(1).map(cellOf);
        if (!isBlank(cells)) yield { line: row.number, cells };
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
  if (error instanceof AppError) throw error;
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
