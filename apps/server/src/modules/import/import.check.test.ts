import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  csvLine,
  IMPORT_MESSAGES,
  IMPORT_REPORT_COLUMNS,
  IMPORT_TEMPLATES,
  LIMITS,
  type ImportResult,
} from '@kanak/contract';
import { appOnDatabase, authed, signedIn, type SignedIn } from '../../../test/helpers.js';

/**
 * The check an owner confirms before an import: it runs the import's own checks and writes
 * nothing (every table's rows counted before and after), says how many rows the import will
 * take and skip, and shows each problem with the value as the file holds it and the
 * customer's name, on the screen and in the CSV, where a name or value a spreadsheet would run
 * as a formula is neutralised. The import then writes what the check said, once; mobile
 * numbers written with spaces, dashes, +91 or a leading 0 come in as their 10 digits, any
 * other form is refused. The names and values are neither kept for a repeat nor logged.
 */

const TODAY = '2026-11-20';
const clock = () => new Date(`${TODAY}T12:00:00+05:30`);
let owner: SignedIn;

beforeAll(async () => {
  owner = await signedIn('owner', { clock });
});
afterAll(() => owner?.close());

type Sent = { format?: 'csv'; idempotencyKey?: string };

async function request(text: string, dryRun: boolean, sent: Sent = {}) {
  const form = new FormData();
  form.append('dryRun', String(dryRun));
  form.append('file', new Blob([Buffer.from(`\uFEFF${text}`, 'utf8')]), 'other-software.csv');
  const body = new Request('http://kanak.test/', { method: 'POST', body: form });
  return {
    method: 'POST' as const,
    url: `/api/import/customers${sent.format ? `?format=${sent.format}` : ''}`,
    payload: Buffer.from(await body.arrayBuffer()),
    headers: { 'content-type': body.headers.get('content-type')! },
    idempotencyKey: sent.idempotencyKey,
  };
}

async function send(text: string, dryRun: boolean, sent: Sent = {}) {
  return owner.inject(await request(text, dryRun, sent));
}

async function result(text: string, dryRun: boolean) {
  const response = await send(text, dryRun);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: ImportResult }).data;
}

/**
 * The rows of every table of the shop's data: a check must leave each alone. The replay store
 * is not counted: it keeps the check's answer for a retry, which is the point of it.
 */
async function rowsOfEveryTable() {
  const tables = await owner.sql<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('idempotency_keys', '__drizzle_migrations')
      ORDER BY table_name`,
  );
  expect(tables.length).toBeGreaterThan(20);
  const [counts] = await owner.sql<Record<string, string>>(
    `SELECT ${tables.map(({ name }) => `(SELECT count(*) FROM "${name}") AS "${name}"`).join(', ')}`,
  );
  return counts!;
}

/** A CSV line as a spreadsheet writes one: quoted only where a comma or a quote needs it. */
const line = (cells: string[]) =>
  cells.map((cell) => (/[",]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',');

const template = IMPORT_TEMPLATES.customers;
const EXAMPLE = template.example;
/** The template as the owner fills it: its example row, then the shop's own. */
const FILE = [
  template.header,
  EXAMPLE,
  ['98400-11006', 'Dashed Number'],
  ['+91 98400 11007', 'Plus Ninety One'],
  ['098400 11008', 'Leading Zero'],
  ['98400/11009', 'Slashed Number'],
  ['+1 98400 11010', 'American Code'],
  ['98400 11011', 'Shah, Ramesh', '', '', '', '', '', '31/02/1990'],
  ['98400-11006', 'Dashed Again'],
]
  .map(line)
  .join('\r\n');

describe('the check an owner confirms before importing', () => {
  it('writes nothing, says what the import will do, and the import then does it once', async () => {
    const before = await rowsOfEveryTable();
    const check = await result(FILE, true);
    expect(await rowsOfEveryTable()).toEqual(before);
    // 8 rows: the example and the 3 numbers written as people write them come in; 4 skipped.
    expect(check).toMatchObject({ rows: 8, valid: 4, created: 4, updated: 0, errorCount: 4 });
    expect(check.dryRun).toBe(true);
    expect(check.errors).toEqual([
      {
        row: 6,
        column: 'Mobile',
        value: '98400/11009',
        name: 'Slashed Number',
        message: IMPORT_MESSAGES.mobile,
      },
      {
        row: 7,
        column: 'Mobile',
        value: '+1 98400 11010',
        name: 'American Code',
        message: IMPORT_MESSAGES.mobile,
      },
      {
        row: 8,
        column: 'DOB',
        value: '31/02/1990',
        name: 'Shah, Ramesh',
        message: IMPORT_MESSAGES.date,
      },
      // A row refused as a whole shows its mobile number as written.
      {
        row: 9,
        column: '',
        value: '98400-11006',
        name: 'Dashed Again',
        message: IMPORT_MESSAGES.duplicate(3),
      },
    ]);

    // The import writes what the check counted, the numbers as their 10 digits.
    const run = await result(FILE, false);
    expect(run).toMatchObject({ rows: 8, valid: 4, created: 4, updated: 0, errorCount: 4 });
    expect(await owner.sql(`SELECT mobileno, custname FROM customers ORDER BY mobileno`)).toEqual([
      { mobileno: '9840011005', custname: EXAMPLE[1] },
      { mobileno: '9840011006', custname: 'Dashed Number' },
      { mobileno: '9840011007', custname: 'Plus Ninety One' },
      { mobileno: '9840011008', custname: 'Leading Zero' },
    ]);
    const [points] = await owner.sql<{ balance: number }>(
      `SELECT a.balance::int AS balance FROM points_accounts a
         JOIN customers c ON c.id = a.customer_id WHERE c.mobileno = '9840011005'`,
    );
    expect(points!.balance).toBe(Number(EXAMPLE[9]));

    // Once: the same file again writes nothing, and its check says so.
    const imported = await rowsOfEveryTable();
    expect(await result(FILE, true)).toMatchObject({ valid: 4, created: 0, updated: 0 });
    expect(await result(FILE, false)).toMatchObject({ valid: 4, created: 0, updated: 0 });
    expect(await rowsOfEveryTable()).toEqual(imported);
  });

  it('lists every problem with its value and name as CSV, neutralised for a spreadsheet', async () => {
    const sly = [
      'Mobile,Name,Points',
      '=9840011020,=2+3,10',
      '9840011021,@SUM(A1),-5',
      '9840011022,"Rao, ""Anil""",+7',
      `9840011023,Long Points,${'९'.repeat(150)}`,
    ].join('\r\n');
    // Quoted: the reason has the commas of 99,99,999.
    const points = `"${IMPORT_MESSAGES.points(LIMITS.pointsMax)}"`;
    const before = await rowsOfEveryTable();
    const response = await send(sly, true, { format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe(
      [
        `\uFEFF${IMPORT_REPORT_COLUMNS.join(',')}`,
        `2,'=2+3,Mobile,'=9840011020,${IMPORT_MESSAGES.mobile}`,
        `3,'@SUM(A1),Points,'-5,${points}`,
        `4,"Rao, ""Anil""",Points,'+7,${points}`,
        // A long cell is cut: the answer and the screen stay readable.
        `5,Long Points,Points,${'९'.repeat(99)}…,${points}`,
        '',
      ].join('\r\n'),
    );
    // The same cells, each line of the CSV made as the screen's report is.
    const listed = await result(sly, true);
    expect(listed.errors.map(({ name, value }) => [name, value])).toEqual([
      ['=2+3', '=9840011020'],
      ['@SUM(A1)', '-5'],
      ['Rao, "Anil"', '+7'],
      ['Long Points', `${'९'.repeat(99)}…`],
    ]);
    expect(csvLine([listed.errors[0]!.value])).toBe(`'=9840011020\r\n`);
    expect(await rowsOfEveryTable()).toEqual(before);
  });

  it('keeps no name or value for a repeat, and logs none', async () => {
    let logText = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logText += chunk.toString();
        done();
      },
    });
    const logged = await appOnDatabase(owner.database, {}, clock, pino({ level: 'trace' }, sink));
    try {
      const file = 'Mobile,Name\nZ-0042-Q,Zarina Quasimodo\n9840011030,Yashoda Vellaiyan';
      const key = randomUUID();
      const first = await logged.inject(
        authed(owner.token, await request(file, true, { idempotencyKey: key })),
      );
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().data.errors).toEqual([
        {
          row: 2,
          column: 'Mobile',
          value: 'Z-0042-Q',
          name: 'Zarina Quasimodo',
          message: IMPORT_MESSAGES.mobile,
        },
      ]);
      const [kept] = await owner.sql<{ body: string }>(
        `SELECT response_body AS body FROM idempotency_keys WHERE key = $1`,
        [key],
      );
      expect(kept!.body).toContain(IMPORT_MESSAGES.mobile);
      expect(kept!.body).not.toContain('Zarina');
      expect(kept!.body).not.toContain('Z-0042-Q');
      const again = await logged.inject(
        authed(owner.token, await request(file, true, { idempotencyKey: key })),
      );
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data.errors).toEqual([
        { row: 2, column: 'Mobile', value: '', name: '', message: IMPORT_MESSAGES.mobile },
      ]);
      const csv = await logged.inject(
        authed(owner.token, await request(file, true, { format: 'csv' })),
      );
      expect(csv.body).toContain('Zarina Quasimodo');
      const imported = await logged.inject(authed(owner.token, await request(file, false)));
      expect(imported.json().data).toMatchObject({ created: 1 });

      expect(logText).toContain('/api/import/customers');
      for (const detail of ['Zarina', 'Yashoda', 'Z-0042-Q', '9840011030'])
        expect(logText, detail).not.toContain(detail);
    } finally {
      await logged.close();
    }
  });
});
