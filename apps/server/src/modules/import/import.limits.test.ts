import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMPORT_ERRORS_LISTED,
  IMPORT_MAX_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  IMPORT_TEXTS,
  type ImportResult,
} from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';
import { WORKBOOK_LIMITS } from './import.read.js';

/**
 * The files an owner (or whoever holds the owner's session) may send that cost the server far
 * more than their size: a million empty lines, more rows or columns than any shop has, a
 * workbook whose few packed kilobytes unpack to hundreds of megabytes, a file saved in the
 * PC's code page instead of UTF-8, and a file of so many bad rows that its answer, kept for
 * retries, would be megabytes. Each is refused in words, or read cheaply, with nothing stored.
 */

let owner: SignedIn;

beforeAll(async () => {
  owner = await signedIn('owner');
});
afterAll(() => owner?.close());

type Kind = 'customers' | 'schemes';

async function send(
  file: { bytes: Buffer; filename: string },
  options: { kind?: Kind; dryRun?: boolean; query?: string; idempotencyKey?: string } = {},
) {
  const form = new FormData();
  if (options.dryRun) form.append('dryRun', 'true');
  form.append('file', new Blob([new Uint8Array(file.bytes)]), file.filename);
  const request = new Request('http://kanak.test/', { method: 'POST', body: form });
  return owner.inject({
    method: 'POST',
    url: `/api/import/${options.kind ?? 'customers'}${options.query ?? ''}`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
    idempotencyKey: options.idempotencyKey,
  });
}

/** A CSV's bytes, its lines made by `lines` (a generator: a million lines are never an array). */
function csvOf(lines: Iterable<string>, filename = 'export.csv') {
  const chunks: Buffer[] = [];
  let chunk = '';
  for (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length > 64 * 1024) {
      chunks.push(Buffer.from(chunk, 'utf8'));
      chunk = '';
    }
  }
  chunks.push(Buffer.from(chunk, 'utf8'));
  return { bytes: Buffer.concat(chunks), filename };
}

function* repeat(line: string, times: number) {
  for (let i = 0; i < times; i++) yield line;
}

const footprint = async () =>
  (
    await owner.sql<Record<string, string>>(`SELECT
      (SELECT count(*) FROM customers) AS customers,
      (SELECT count(*) FROM points_entries) AS entries,
      (SELECT count(*) FROM schemes) AS schemes,
      (SELECT count(*) FROM audit_log) AS audit,
      (SELECT string_agg(custname, ',' ORDER BY id) FROM customers) AS names`)
  )[0];

const expectRefused = async (
  response: Awaited<ReturnType<typeof send>>,
  status: number,
  message: string,
) => {
  expect(response.statusCode, response.body.slice(0, 500)).toBe(status);
  expect(response.json()).toEqual({ success: false, message });
};

describe('empty lines', () => {
  it('a million empty lines under a header: answered at once, no rows, nothing done per line', async () => {
    const before = await footprint();
    const file = csvOf(['Mobile,Name', ...repeat('', 1_000_000)]);
    // While it is read, the server keeps answering others.
    let slowest = 0;
    let reading = true;
    const others = (async () => {
      while (reading) {
        const started = performance.now();
        const response = await owner.inject({ method: 'GET', url: '/api/health' });
        expect(response.statusCode).toBe(200);
        slowest = Math.max(slowest, performance.now() - started);
        await sleep(20);
      }
    })();
    const started = performance.now();
    const response = await send(file, { dryRun: true });
    const seconds = (performance.now() - started) / 1000;
    reading = false;
    await others;
    await expectRefused(response, 400, IMPORT_MESSAGES.noRows);
    // Minutes before, the server answering nobody for seconds at a time (on a busy 2-core
    // machine: a quarter of a second each here when idle).
    expect(seconds).toBeLessThan(5);
    expect(slowest).toBeLessThan(1000);
    expect(await footprint()).toEqual(before);
  });

  it('lines of only commas or spaces are empty too: the real rows are read, numbered as the spreadsheet does', async () => {
    const file = csvOf([
      'Mobile,Name',
      '9845031001,Asha Rao',
      // Excel's empty rows: as many commas as the header has.
      ...repeat(',', 20_000),
      ...repeat('   ', 300_000),
      ...repeat(` ,\t, ${','.repeat(5_000)}`, 10),
      '',
      '12345,Bad Number',
      ...repeat('\t', 300_000),
      ...repeat('', 300_000),
      '9845031002,Ravi Kumar',
    ]);
    const started = performance.now();
    const response = await send(file, { dryRun: true });
    expect(response.statusCode, response.body).toBe(200);
    expect((performance.now() - started) / 1000).toBeLessThan(8);
    expect((response.json() as { data: ImportResult }).data).toMatchObject({
      rows: 3,
      valid: 2,
      errorCount: 1,
      errors: [{ row: 320_014, column: 'Mobile', message: IMPORT_MESSAGES.mobile }],
    });
  });
});

describe('rows and columns', () => {
  it(`refuses a file of more than ${IMPORT_MAX_ROWS} rows before checking any, nothing stored`, async () => {
    const before = await footprint();
    function* rows() {
      yield 'Mobile,Name';
      for (let i = 0; i <= IMPORT_MAX_ROWS; i++) yield `${6_000_000_000 + i},C${i}`;
    }
    const response = await send(csvOf(rows()));
    await expectRefused(response, 413, IMPORT_MESSAGES.tooManyRows(IMPORT_MAX_ROWS));
    expect(IMPORT_MESSAGES.tooManyRows(IMPORT_MAX_ROWS)).toBe(
      'The file has more than 2,00,000 rows. Please split it into smaller files.',
    );
    expect(await footprint()).toEqual(before);
  });

  it(`refuses more than ${IMPORT_MAX_COLUMNS} columns, in the header or in a row, however long the line`, async () => {
    const before = await footprint();
    const tooMany = IMPORT_MESSAGES.tooManyColumns(IMPORT_MAX_COLUMNS);
    const columns = (n: number) => Array.from({ length: n }, (_, i) => `C${i}`);
    const header = ['Mobile', 'Name', ...columns(IMPORT_MAX_COLUMNS - 1)].join(',');
    await expectRefused(await send(csvOf([header, '9845031003,Lata'])), 413, tooMany);
    const wide = ['Mobile', 'Name', ...columns(IMPORT_MAX_COLUMNS - 2)].join(',');
    for (const row of [
      // One cell too many, then a line of two million cells.
      `9845031004,Meena,${columns(IMPORT_MAX_COLUMNS - 1).join(',')}`,
      `9845031004,Meena,${'x,'.repeat(2_000_000)}`,
      // Quoted cells past the last column.
      `9845031004,Meena,${columns(IMPORT_MAX_COLUMNS).join(',')},"a, b",c`,
    ]) {
      await expectRefused(await send(csvOf([wide, row])), 413, tooMany);
    }
    expect(await footprint()).toEqual(before);

    // Empty cells at the end of a line are no columns, however many.
    const trailing = await send(
      csvOf([`Mobile,Name${','.repeat(3_000)}`, `9845031005,Kiran Rao${','.repeat(3_000)}`]),
    );
    expect(trailing.statusCode, trailing.body).toBe(200);
    expect(trailing.json().data).toMatchObject({ rows: 1, created: 1, errorCount: 0 });
  });

  it(`refuses a workbook row of more than ${IMPORT_MAX_COLUMNS} cells`, async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Customers');
    sheet.addRow(['Mobile', 'Name']);
    sheet.addRow(['9845031006', 'Ravi']);
    sheet.getRow(2).getCell(IMPORT_MAX_COLUMNS + 1).value = 'far away';
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    await expectRefused(
      await send({ bytes, filename: 'wide.xlsx' }, { dryRun: true }),
      413,
      IMPORT_MESSAGES.tooManyColumns(IMPORT_MAX_COLUMNS),
    );
  });
});

describe('a CSV not saved as UTF-8', () => {
  it('is refused in words and changes nothing: é and ₹ would be stored as �', async () => {
    const before = await footprint();
    // Excel's plain "CSV" on an Indian or western PC: Windows-1252 (₹ has no byte there: ?).
    const latin1 = Buffer.from('Mobile,Name,City\n9845031007,José Fernandes,Goa\n', 'latin1');
    await expectRefused(
      await send({ bytes: latin1, filename: 'export.csv' }),
      400,
      IMPORT_MESSAGES.notUtf8,
    );
    expect(IMPORT_MESSAGES.notUtf8).toBe(
      'This file is not saved as UTF-8. In Excel choose Save As → CSV UTF-8, then upload it again.',
    );
    // The bad byte far down the file, after more rows than a batch: still nothing imported.
    const late = Buffer.concat([
      csvOf(['Mobile,Name', ...Array.from({ length: 600 }, (_, i) => `96${1e7 + i},C ${i}`)]).bytes,
      Buffer.from('9845031008,Ren\xe9\n', 'latin1'),
    ]);
    await expectRefused(
      await send({ bytes: late, filename: 'late.csv' }),
      400,
      IMPORT_MESSAGES.notUtf8,
    );
    // Cut off inside a character at the very end.
    const cut = Buffer.from('Mobile,Name\n9845031009,सीता', 'utf8');
    await expectRefused(
      await send({ bytes: cut.subarray(0, cut.length - 1), filename: 'cut.csv' }),
      400,
      IMPORT_MESSAGES.notUtf8,
    );
    expect(await footprint()).toEqual(before);
  });

  it('takes UTF-8 with or without a byte-order mark, a character split between two reads too', async () => {
    // The file is read 64 KiB at a time: the Devanagari name straddles the boundary.
    const head = 'Mobile,Name,Notes\n';
    const filling = '9845031010,Filler,';
    const next = '9845031011,';
    const notes = 'a'.repeat(65_536 - 2 - head.length - filling.length - 1 - next.length);
    const bytes = Buffer.from(`${head}${filling}${notes}\n${next}सीता देवी\n`, 'utf8');
    expect(bytes.subarray(0, 65_536).toString('utf8').endsWith('\uFFFD')).toBe(true);
    const plain = await send({ bytes, filename: 'plain.csv' });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().data).toMatchObject({ rows: 2, created: 2 });
    const withBom = await send({
      bytes: Buffer.from('\uFEFFMobile,Name\n9845031012,முருகன்\n', 'utf8'),
      filename: 'bom.csv',
    });
    expect(withBom.statusCode, withBom.body).toBe(200);
    const names = await owner.sql<{ custname: string }>(
      `SELECT custname FROM customers WHERE mobileno IN ('9845031011', '9845031012') ORDER BY mobileno`,
    );
    expect(names).toEqual([{ custname: 'सीता देवी' }, { custname: 'முருகன்' }]);
  });
});

/**
 * A workbook of a header and one customer, its shared strings part replaced by `sharedStrings`
 * (packed as Excel packs it: a few kilobytes for megabytes of one repeated string).
 */
async function workbookWith(sharedStrings: string, extra: Record<string, string> = {}) {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Customers').addRows([
    ['Mobile', 'Name'],
    ['9845031013', 'Sita'],
  ]);
  const zip = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()));
  zip.file('xl/sharedStrings.xml', sharedStrings);
  for (const [name, text] of Object.entries(extra)) zip.file(name, text);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The workbook's own four strings, then `count` more of one letter. */
const sst = (count: number) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${count + 4}" uniqueCount="${count + 4}">` +
  '<si><t>Mobile</t></si><si><t>Name</t></si><si><t>9845031013</t></si><si><t>Sita</t></si>' +
  '<si><t>a</t></si>'.repeat(count) +
  '</sst>';

describe('a workbook that unpacks to far more than its size', () => {
  it('is refused before it is parsed when its shared strings unpack past the limit', async () => {
    const before = await footprint();
    const parts = Math.ceil(WORKBOOK_LIMITS.partMaxBytes / '<si><t>a</t></si>'.length) + 1;
    const bytes = await workbookWith(sst(parts));
    // Packed, it is well under every limit of the upload.
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const started = performance.now();
    await expectRefused(
      await send({ bytes, filename: 'gehnasoft.xlsx' }, { dryRun: true }),
      413,
      IMPORT_MESSAGES.workbookPartTooLarge(WORKBOOK_LIMITS.partMaxBytes / 1024 / 1024),
    );
    expect((performance.now() - started) / 1000).toBeLessThan(2);
    expect(await footprint()).toEqual(before);

    // Well under the limit, the same workbook is read as usual.
    const fine = await send({ bytes: await workbookWith(sst(1000)), filename: 'fine.xlsx' });
    expect(fine.statusCode, fine.body).toBe(200);
    expect(fine.json().data).toMatchObject({ rows: 1, created: 1 });
  });

  it('is refused when a workbook cut off midway is sent, instead of waiting for the rest for ever', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Customers');
    sheet.addRow(['Mobile', 'Name']);
    for (let i = 0; i < 20_000; i++) sheet.addRow([9_845_000_000 + i, i]);
    const whole = Buffer.from(await workbook.xlsx.writeBuffer());
    // Cut inside the sheet: the workbook reader, given it, waited for the rest for ever.
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    await expectRefused(
      await send({ bytes: cut, filename: 'cut.xlsx' }, { dryRun: true }),
      400,
      IMPORT_MESSAGES.unreadableWorkbook,
    );
  });
});

describe('a file of many bad rows', () => {
  const BAD = 5_000;
  const file = csvOf([
    'Mobile,Name',
    '9845031014,Good Row',
    ...Array.from({ length: BAD }, (_, i) => `12${i},Bad ${i}`),
  ]);

  it(`lists the first ${IMPORT_ERRORS_LISTED} problems and counts them all; the answer kept for retries stays small`, async () => {
    const key = randomUUID();
    const response = await send(file, { dryRun: true, idempotencyKey: key });
    expect(response.statusCode).toBe(200);
    const data = (response.json() as { data: ImportResult }).data;
    expect(data).toMatchObject({ rows: BAD + 1, valid: 1, errorCount: BAD });
    expect(data.errors).toHaveLength(IMPORT_ERRORS_LISTED);
    expect(data.errors.map((error) => error.row)).toEqual(
      Array.from({ length: IMPORT_ERRORS_LISTED }, (_, i) => i + 3),
    );
    const [kept] = await owner.sql<{ size: number }>(
      `SELECT octet_length(response_body) AS size FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    expect(kept!.size).toBeLessThan(16 * 1024);
    // The repeat is the kept answer, as it was but for the names and values of the file.
    const again = await send(file, { dryRun: true, idempotencyKey: key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual({
      success: true,
      data: {
        ...data,
        errors: data.errors.map((error) => ({ ...error, value: '', name: '' })),
      },
    });
  });

  it('offers the whole list as a CSV download, formula-like cells neutralised, not kept', async () => {
    const before = await footprint();
    const key = randomUUID();
    const response = await send(file, { dryRun: true, query: '?format=csv', idempotencyKey: key });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${IMPORT_TEXTS.reportFile}"`,
    );
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      `\uFEFF${IMPORT_TEXTS.row},${IMPORT_TEXTS.name},${IMPORT_TEXTS.column},${IMPORT_TEXTS.value},${IMPORT_TEXTS.message}`,
    );
    expect(lines.slice(1, -1)).toHaveLength(BAD);
    expect(lines[1]).toBe(`3,Bad 0,Mobile,120,${IMPORT_MESSAGES.mobile}`);
    expect(lines[BAD]).toBe(
      `${BAD + 2},Bad ${BAD - 1},Mobile,12${BAD - 1},${IMPORT_MESSAGES.mobile}`,
    );
    expect(await owner.sql(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key])).toEqual([]);
    expect(await footprint()).toEqual(before);

    // A header is the file's own text: one that a spreadsheet would run is neutralised.
    const sly = csvOf(['-Mobile,Name', '12345,Asha'], 'sly.csv');
    const list = await send(sly, { dryRun: true, query: '?format=csv' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body.split('\r\n')[1]).toBe(`2,Asha,'-Mobile,12345,${IMPORT_MESSAGES.mobile}`);
  });

  it('refuses the list for an import that writes, and a format it does not know', async () => {
    const before = await footprint();
    await expectRefused(
      await send(file, { query: '?format=csv' }),
      400,
      IMPORT_MESSAGES.problemsOfACheck,
    );
    await expectRefused(
      await send(file, { dryRun: true, query: '?format=xls' }),
      400,
      IMPORT_MESSAGES.format,
    );
    expect(await footprint()).toEqual(before);
  });
});
