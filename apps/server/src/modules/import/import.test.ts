import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES, type ImportResult } from '@kanak/contract';
import { signedIn, type SignedIn } from '../../../test/helpers.js';
import { checkLedger } from '../points/index.js';

/**
 * The owner switching from other software: a customers file with opening points and a
 * schemes file, each checked first (nothing changes) and then imported (bad rows skipped),
 * then imported again (nothing changes); the points books agree afterwards. Then each kind of
 * bad file.
 */

const TODAY = '2026-11-20';
const clock = () => new Date(`${TODAY}T12:00:00+05:30`);
let owner: SignedIn;

beforeAll(async () => {
  owner = await signedIn('owner', { clock });
});
afterAll(() => owner?.close());

type File = { bytes: Buffer; filename: string };

async function send(
  kind: 'customers' | 'schemes',
  file: File | null,
  dryRun = false,
  idempotencyKey?: string,
) {
  const form = new FormData();
  if (dryRun) form.append('dryRun', 'true');
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.filename);
  const request = new Request('http://kanak.test/', { method: 'POST', body: form });
  return owner.inject({
    method: 'POST',
    url: `/api/import/${kind}`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
    idempotencyKey,
  });
}

async function imported(kind: 'customers' | 'schemes', file: File, dryRun = false) {
  const response = await send(kind, file, dryRun);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: ImportResult }).data;
}

const csv = (text: string, filename = 'export.csv'): File => ({
  bytes: Buffer.from(`\uFEFF${text}`, 'utf8'),
  filename,
});

/** What the import may change, counted: a dry run and a repeat must leave all of it alone. */
const footprint = async () =>
  (
    await owner.sql<Record<string, string>>(`SELECT
      (SELECT count(*) FROM customers) AS customers,
      (SELECT count(*) FROM points_entries) AS entries,
      (SELECT count(*) FROM points_lots) AS lots,
      (SELECT coalesce(sum(balance), 0) FROM points_accounts) AS points,
      (SELECT count(*) FROM schemes) AS schemes,
      (SELECT count(*) FROM scheme_installments) AS installments,
      (SELECT count(*) FROM audit_log) AS audit,
      (SELECT string_agg(custname || ':' || city, ',' ORDER BY id) FROM customers) AS profiles`)
  )[0];

const CUSTOMERS = csv(
  [
    'Mobile No,Customer Name,E-mail,City,DOB,Closing Balance,Expiry Date',
    '98450 12345,सीता देवी,sita@example.in,Jaipur,15/08/1985,1200,31/12/2027',
    '+919845012346,முருகன் ஆறுமுகம்,,Chennai,1990-01-02,0,',
    '12345,No Mobile,,,,,',
    '09845012347,"Shah, Ramesh",,Surat,31/02/1980,50,',
    '9845012345,Sita Again,,,,,',
    '9845012348,Future Baby,,,01/01/2030,abc,01/01/2020',
    '',
    '9845012349,ਗੁਰਪ੍ਰੀਤ ਕੌਰ,,Amritsar,44000,300,',
  ].join('\r\n'),
);

describe('importing customers with opening points', () => {
  it('checks, imports the valid rows, and changes nothing the second time', async () => {
    const before = await footprint();
    const check = await imported('customers', CUSTOMERS, true);
    expect(check).toMatchObject({ rows: 7, valid: 3, created: 3, updated: 0, dryRun: true });
    // Each with the value as the file holds it and the customer's name from the row; for the
    // row as a whole, its mobile number as written.
    expect(check.errors).toEqual([
      {
        row: 4,
        column: 'Mobile No',
        value: '12345',
        name: 'No Mobile',
        message: IMPORT_MESSAGES.mobile,
      },
      {
        row: 5,
        column: 'DOB',
        value: '31/02/1980',
        name: 'Shah, Ramesh',
        message: IMPORT_MESSAGES.date,
      },
      {
        row: 6,
        column: '',
        value: '9845012345',
        name: 'Sita Again',
        message: IMPORT_MESSAGES.duplicate(2),
      },
      {
        row: 7,
        column: 'DOB',
        value: '01/01/2030',
        name: 'Future Baby',
        message: IMPORT_MESSAGES.dateFuture,
      },
      {
        row: 7,
        column: 'Closing Balance',
        value: 'abc',
        name: 'Future Baby',
        message: expect.stringContaining('whole number'),
      },
      {
        row: 7,
        column: 'Expiry Date',
        value: '01/01/2020',
        name: 'Future Baby',
        message: IMPORT_MESSAGES.expired,
      },
    ]);
    expect(await footprint()).toEqual(before);

    const run = await imported('customers', CUSTOMERS);
    expect(run).toMatchObject({ rows: 7, valid: 3, created: 3, updated: 0, dryRun: false });
    const rows = await owner.sql<Record<string, unknown>>(
      `SELECT c.mobileno, c.custname, c.email, c.dob::text AS dob, a.balance::int AS balance,
              (SELECT string_agg(e.ts || e.credit, ',') FROM points_entries e WHERE e.customer_id = c.id) AS entries,
              (SELECT string_agg(l.expires_on::text, ',') FROM points_lots l WHERE l.customer_id = c.id) AS expiry
         FROM customers c JOIN points_accounts a ON a.customer_id = c.id ORDER BY c.mobileno`,
    );
    expect(rows).toEqual([
      {
        mobileno: '9845012345',
        custname: 'सीता देवी',
        email: 'sita@example.in',
        dob: '1985-08-15',
        balance: 1200,
        entries: 'O1200',
        expiry: '2027-12-31',
      },
      {
        mobileno: '9845012346',
        custname: 'முருகன் ஆறுமுகம்',
        email: '',
        dob: '1990-01-02',
        balance: 0,
        entries: null,
        expiry: null,
      },
      // An Excel day serial written out as digits: 44000 is 18 June 2020.
      {
        mobileno: '9845012349',
        custname: 'ਗੁਰਪ੍ਰੀਤ ਕੌਰ',
        email: '',
        dob: '2020-06-18',
        balance: 300,
        entries: 'O300',
        expiry: null,
      },
    ]);
    // Each audit row filed under the owner and the owner's branch, with the customer's number
    // and what was imported, names in their own scripts intact.
    const audits = await owner.sql<Record<string, unknown>>(
      `SELECT a.action, a.mobile, a.detail->'after'->>'custname' AS name,
              (a.detail->'after'->>'points')::int AS points,
              a.branch_id IS NOT NULL AND a.branch_id = u.branch_id AS owners_branch
         FROM audit_log a JOIN users u ON u.id = a.user_id AND u.role = 'owner'
        WHERE a.action IN ('customer.create', 'points.opening') ORDER BY a.action, a.mobile`,
    );
    expect(audits).toEqual([
      {
        action: 'customer.create',
        mobile: '9845012345',
        name: 'सीता देवी',
        points: null,
        owners_branch: true,
      },
      {
        action: 'customer.create',
        mobile: '9845012346',
        name: 'முருகன் ஆறுமுகம்',
        points: null,
        owners_branch: true,
      },
      {
        action: 'customer.create',
        mobile: '9845012349',
        name: 'ਗੁਰਪ੍ਰੀਤ ਕੌਰ',
        points: null,
        owners_branch: true,
      },
      {
        action: 'points.opening',
        mobile: '9845012345',
        name: null,
        points: 1200,
        owners_branch: true,
      },
      {
        action: 'points.opening',
        mobile: '9845012349',
        name: null,
        points: 300,
        owners_branch: true,
      },
    ]);

    const after = await footprint();
    expect(await imported('customers', CUSTOMERS)).toMatchObject({ created: 0, updated: 0 });
    expect(await footprint()).toEqual(after);
    expect((await checkLedger(owner.database.db)).differing).toBe(0);

    // A later file with a new city updates the profile; the opening points stay imported once.
    const moved = csv('Phone,Name,City,Points\n9845012345,सीता देवी,Udaipur,5000');
    expect(await imported('customers', moved)).toMatchObject({ created: 0, updated: 1 });
    const [sita] = await owner.sql<{ city: string; balance: number }>(
      `SELECT c.city, a.balance::int AS balance FROM customers c
         JOIN points_accounts a ON a.customer_id = c.id WHERE c.mobileno = '9845012345'`,
    );
    expect(sita).toEqual({ city: 'Udaipur', balance: 1200 });
  });

  it('leaves a customer erased at their request out, in the check and in the import', async () => {
    const first = csv('Mobile,Name,Points\n9845099001,Kiran Rao,100\n9845099002,Lata Joshi,0');
    expect(await imported('customers', first)).toMatchObject({ valid: 2, created: 2 });
    const [kiran] = await owner.sql<{ id: number }>(
      `SELECT id FROM customers WHERE mobileno = '9845099001'`,
    );
    const erased = await owner.post('/api/customers/erase', { custid: kiran!.id });
    expect(erased.statusCode, erased.body).toBe(200);
    const [kept] = await owner.sql<{ mobileno: string | null; erased_mobile_hash: string }>(
      'SELECT mobileno, erased_mobile_hash FROM customers WHERE id = $1',
      [kiran!.id],
    );
    expect(kept!.mobileno).toBeNull();
    // Keyed: a dump's reader cannot try numbers against it.
    expect(kept!.erased_mobile_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(kept!.erased_mobile_hash).not.toBe(
      createHash('sha256').update('9845099001').digest('hex'),
    );

    const again = csv('Mobile,Name,Points\n9845099001,Kiran Rao,100\n9845099003,Meena Pillai,0');
    const before = await footprint();
    const check = await imported('customers', again, true);
    expect(check.errors).toEqual([
      {
        row: 2,
        column: '',
        value: '9845099001',
        name: 'Kiran Rao',
        message: IMPORT_MESSAGES.erasedCustomer,
      },
    ]);
    expect(check).toMatchObject({ valid: 1, created: 1 });
    expect(await footprint()).toEqual(before);
    expect(await imported('customers', again)).toMatchObject({ valid: 1, created: 1 });
    expect(await owner.sql(`SELECT 1 FROM customers WHERE mobileno = '9845099001'`)).toEqual([]);
  });

  it('numbers rows as a spreadsheet does; a file cut off midway imports none of it', async () => {
    // The address spans two lines: still one row, so the bad number is row 3.
    const multiline = csv(
      'Mobile,Name,Address\n9845077001,Asha Rao,"12 MG Road\nBengaluru"\n12345,Bad,\n',
    );
    const check = await imported('customers', multiline, true);
    expect(check.errors.map((error) => error.row)).toEqual([3]);

    // More rows than one batch, then a quote never closed: the end of the file was lost.
    const rows = Array.from(
      { length: 1_200 },
      (_, i) => `98451${String(i).padStart(5, '0')},C ${i}`,
    );
    const cut = csv(['Mobile,Name', ...rows, '9845199999,"Cut of'].join('\n'));
    const before = await footprint();
    const refused = await send('customers', cut);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/^The CSV file could not be read at line 1202\./);
    expect(await footprint()).toEqual(before);
  });

  it('reads the first sheet of a workbook: dates, day serials, and formulas refused', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Customers');
    sheet.addRow(['MOBILE', 'Name', 'Date of Birth', 'Points']);
    sheet.addRow([9845022221, 'லட்சுமி', new Date(Date.UTC(1975, 4, 6)), 700]);
    sheet.addRow(['9845022222', 'Formula Points', 30000, { formula: 'B2*2', result: 10 }]);
    sheet.addRow(['9845022223', 'Text Date', '06/05/1975', '1,500']);
    workbook.addWorksheet('Notes').addRow(['not read']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());

    const result = await imported('customers', { bytes, filename: 'gehnasoft.xlsx' });
    expect(result).toMatchObject({ rows: 3, valid: 2, created: 2, sheet: 'Customers' });
    expect(result.notices).toEqual([IMPORT_MESSAGES.sheetRead('Customers', 2)]);
    // The formula as the owner typed it, to find it in the workbook.
    expect(result.errors).toEqual([
      {
        row: 3,
        column: 'Points',
        value: '=B2*2',
        name: 'Formula Points',
        message: IMPORT_MESSAGES.formula,
      },
    ]);
    const rows = await owner.sql<{ dob: string; balance: number }>(
      `SELECT c.dob::text AS dob, a.balance::int AS balance FROM customers c
         JOIN points_accounts a ON a.customer_id = c.id
        WHERE c.mobileno IN ('9845022221', '9845022223') ORDER BY c.mobileno`,
    );
    expect(rows).toEqual([
      { dob: '1975-05-06', balance: 700 },
      { dob: '1975-05-06', balance: 1500 },
    ]);
    expect((await checkLedger(owner.database.db)).differing).toBe(0);
  });
});

describe('importing running schemes', () => {
  it('records the installments already paid without receipt numbers, once', async () => {
    const file = csv(
      [
        'Mobile,Plan,Start Date,Amount,Installments Paid',
        '9845012345,STD,20/05/2026,5000,6',
        '9845012346,,01/11/2026,2000,0',
        '9845012346,GOLD11,01/10/2026,2000,1',
        '9000000000,STD,01/10/2026,2000,1',
        '9845012349,STD,01/10/2026,2000,40',
      ].join('\n'),
    );
    const before = await footprint();
    const check = await imported('schemes', file, true);
    expect(check).toMatchObject({ rows: 5, valid: 2, created: 2 });
    // A schemes file names no customer.
    expect(check.errors).toEqual([
      {
        row: 4,
        column: 'Plan',
        value: 'GOLD11',
        name: '',
        message: IMPORT_MESSAGES.unknownPlan(['STD']),
      },
      {
        row: 5,
        column: '',
        value: '9000000000',
        name: '',
        message: IMPORT_MESSAGES.unknownCustomer,
      },
      {
        row: 6,
        column: 'Installments Paid',
        value: '40',
        name: '',
        message: IMPORT_MESSAGES.paid(11),
      },
    ]);
    expect(await footprint()).toEqual(before);

    expect(await imported('schemes', file)).toMatchObject({ valid: 2, created: 2 });
    const schemes = await owner.sql<Record<string, unknown>>(
      `SELECT s.startdt::text AS start, s.status, s.paid, s.next_due::text AS next_due,
              (SELECT string_agg(i.period || '/' || i.mode || '/' || coalesce(i.receipt_no::text, '-'), ',' ORDER BY i.period)
                 FROM scheme_installments i WHERE i.scheme_id = s.id) AS installments
         FROM schemes s ORDER BY s.startdt`,
    );
    expect(schemes).toEqual([
      {
        start: '2026-05-20',
        status: 'a',
        paid: 6,
        next_due: '2026-11-20',
        installments: [
          '2026-05/imported/-',
          '2026-06/imported/-',
          '2026-07/imported/-',
          '2026-08/imported/-',
          '2026-09/imported/-',
          '2026-10/imported/-',
        ].join(','),
      },
      { start: '2026-11-01', status: 'a', paid: 0, next_due: '2026-11-01', installments: null },
    ]);
    // Collected by the other software: not in any day's collections here, nor in the cash
    // book's rows or the vouchers for Tally (its books hold them); the statement lists them.
    expect(await owner.sql(`SELECT * FROM collections_by_day`)).toEqual([]);
    const [imported6] = await owner.sql<{ id: number }>(
      `SELECT id FROM schemes WHERE startdt = '2026-05-20'`,
    );
    const statement = await owner.post('/api/scheme/generate-statement', {
      schemeid: imported6!.id,
    });
    expect(statement.statusCode, statement.body).toBe(200);
    const rows = statement.json().data as {
      mode: string;
      receiptNo: unknown;
      narration: string;
    }[];
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatchObject({ mode: 'imported', receiptNo: null });
    expect(rows[0]!.narration).toBe('Installment 1 of 11 · Imported');
    const cashBook = await owner.post('/api/reports/collections', {
      from: '2026-05-01',
      to: TODAY,
    });
    expect(cashBook.statusCode, cashBook.body).toBe(200);
    expect(cashBook.json().data).toEqual([]);
    const vouchers = await owner.post('/api/accounting/tally-export', {
      from: '2026-05-01',
      to: TODAY,
    });
    expect(vouchers.statusCode, vouchers.body).toBe(200);
    expect(vouchers.body).not.toContain('<VOUCHER ');

    const after = await footprint();
    expect(await imported('schemes', file)).toMatchObject({ valid: 2, created: 0 });
    expect(await footprint()).toEqual(after);
  });
});

describe('a bad file', () => {
  const refused = async (file: File | null, status: number, message: string) => {
    const before = await footprint();
    const response = await send('customers', file);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ success: false, message });
    expect(await footprint()).toEqual(before);
  };

  it('is refused in words, nothing imported', async () => {
    await refused(null, 400, IMPORT_MESSAGES.fileRequired);
    await refused(csv('', 'empty.csv'), 400, IMPORT_MESSAGES.empty);
    await refused({ bytes: Buffer.alloc(0), filename: 'empty.xlsx' }, 400, IMPORT_MESSAGES.empty);
    await refused(csv('Mobile,Name\n', 'header.csv'), 400, IMPORT_MESSAGES.noRows);
    await refused(
      csv('Mobile,Name\n9845099999,Renamed', 'renamed.xlsx'),
      400,
      IMPORT_MESSAGES.notXlsx,
    );
    await refused(
      { bytes: Buffer.from('PK\x03\x04 this is no workbook', 'latin1'), filename: 'broken.xlsx' },
      400,
      IMPORT_MESSAGES.unreadableWorkbook,
    );
    await refused(
      csv('Telephone,Person\n9845099999,x'),
      400,
      IMPORT_MESSAGES.missingColumns(['Mobile', 'Name'], ['Telephone', 'Person']),
    );
    const noHeader = await send('customers', csv('9845099999,Priya Sharma,Jaipur'));
    expect(noHeader.json().message).toBe(IMPORT_MESSAGES.noHeaderRow(['Mobile', 'Name']));
    expect(noHeader.body).not.toContain('9845099999');
    // A spreadsheet's negative number is no count of points.
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Customers').addRows([
      ['Mobile', 'Name', 'Points'],
      [9845099998, 'Ravi Kumar', -5],
    ]);
    const negative = await imported(
      'customers',
      { bytes: Buffer.from(await workbook.xlsx.writeBuffer()), filename: 'negative.xlsx' },
      true,
    );
    expect(negative.errors).toMatchObject([{ row: 2, column: 'Points' }]);
  });

  it('larger than the limit is refused with 413', async () => {
    const bytes = Buffer.alloc(51 * 1024 * 1024, 'a');
    await refused({ bytes, filename: 'huge.csv' }, 413, IMPORT_MESSAGES.tooLarge(50));
  });
});

// Last: it imports 600 customers the tests above do not expect.
describe('an import being written', () => {
  it('tells the owner who sent it how far an import being written has got', async () => {
    const rows = Array.from(
      { length: 600 },
      (_, i) => `97${String(i).padStart(8, '0')},Row ${i},10`,
    );
    const file = csv(['Mobile,Name,Points', ...rows].join('\n'));
    const key = 'progress-of-600';
    const progress = async () => {
      const response = await owner.inject({
        method: 'GET',
        url: `/api/import/progress?key=${key}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { data: unknown }).data;
    };
    expect(await progress()).toBeNull();

    // Held before its first batch: another session holds the lock each batch takes.
    const holder = await owner.database.pool.connect();
    await holder.query(`SELECT pg_advisory_lock(hashtext('kanak.import'))`);
    let sent: ReturnType<typeof send> | undefined;
    try {
      sent = send('customers', file, false, key);
      await expect.poll(progress).toEqual({ rows: 0, total: 600 });
    } finally {
      await holder.query(`SELECT pg_advisory_unlock(hashtext('kanak.import'))`);
      holder.release();
    }
    const response = await sent;
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ rows: 600, created: 600 });
    expect(await progress()).toBeNull();
  });
});
