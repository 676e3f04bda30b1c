import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  CSV_BOM,
  IMPORT_MESSAGES,
  IMPORT_REPORT_COLUMNS,
  IMPORT_TEMPLATES,
  IMPORT_TEXTS,
  type ImportProgress,
  type ImportResult,
} from '@kanak/contract';
import { deferred, fakeServer } from '../../test/fake-server';
import { renderApp, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const texts = IMPORT_TEXTS;

const result = (dryRun: boolean): ImportResult => ({
  rows: 600,
  valid: 600,
  created: 600,
  updated: 0,
  errors: [],
  errorCount: 0,
  sheet: null,
  notices: [],
  dryRun,
});

/** What a Blob handed to the browser as a download holds. */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });

/** The downloads the page hands to the browser, caught. */
function catchDownloads() {
  const saved: Blob[] = [];
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    saved.push(blob as Blob);
    return `blob:download-${saved.length}`;
  };
  URL.revokeObjectURL = () => {};
  return saved;
}

describe('Import', () => {
  it('says what the check found and imports only once the owner confirms it', async () => {
    const checked: ImportResult = {
      rows: 20,
      valid: 17,
      created: 12,
      updated: 5,
      errors: [
        {
          row: 4,
          column: 'Mobile No',
          value: '98400/11009',
          name: 'Sita Devi',
          message: IMPORT_MESSAGES.mobile,
        },
        {
          row: 9,
          column: 'DOB',
          value: '31/02/1990',
          name: 'Ravi Iyer',
          message: IMPORT_MESSAGES.date,
        },
        {
          row: 15,
          column: '',
          value: '98400-11006',
          name: 'Kiran Rao',
          message: IMPORT_MESSAGES.duplicate(3),
        },
      ],
      errorCount: 3,
      sheet: null,
      notices: [],
      dryRun: true,
    };
    const server = fakeServer().on('POST', API_PATHS.importCustomers, (request) =>
      (request.body as FormData).get('dryRun') === 'true'
        ? { status: 200, body: { success: true, data: checked } }
        : {
            status: 200,
            body: { success: true, data: { ...checked, dryRun: false } },
          },
    );
    const writes = () =>
      server
        .sent('POST', API_PATHS.importCustomers)
        .filter((request) => (request.body as FormData).get('dryRun') === 'false');
    signedInAs('admin');
    renderApp(PATHS.importData);
    const user = userEvent.setup();

    // Nothing to confirm before the file is checked.
    await screen.findByRole('button', { name: texts.check });
    expect(screen.queryByRole('button', { name: texts.confirm })).not.toBeInTheDocument();
    await user.upload(
      await screen.findByLabelText(texts.file),
      new File(['Mobile No,Name\n'], 'customers.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: texts.check }));

    // The check's outcome, to confirm: nothing written yet.
    const summary = await screen.findByText(texts.willImport('customers', 17), { exact: false });
    expect(summary).toHaveTextContent('17 customers will be imported, 3 rows skipped (see why).');
    expect(writes()).toHaveLength(0);
    // Each problem with the file's value and the customer's name.
    const rows = screen.getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([...IMPORT_REPORT_COLUMNS]);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['4', 'Sita Devi', 'Mobile No', '98400/11009', IMPORT_MESSAGES.mobile]);
    // "see why" leads to the problems.
    await user.click(within(summary).getByRole('button', { name: texts.seeWhy }));
    expect(screen.getByRole('table')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: texts.confirm }));
    expect(await screen.findByText(IMPORT_MESSAGES.done(12, 5))).toBeInTheDocument();
    expect(writes()).toHaveLength(1);
    expect(((writes()[0]!.body as FormData).get('file') as File).name).toBe('customers.csv');
    expect(screen.queryByRole('button', { name: texts.confirm })).not.toBeInTheDocument();
  });

  it('offers nothing to confirm when no row can be imported', async () => {
    const none: ImportResult = {
      ...result(true),
      rows: 2,
      valid: 0,
      created: 0,
      errors: [
        { row: 2, column: 'Mobile', value: 'x', name: 'A', message: IMPORT_MESSAGES.mobile },
        { row: 3, column: 'Mobile', value: 'y', name: 'B', message: IMPORT_MESSAGES.mobile },
      ],
      errorCount: 2,
    };
    fakeServer().on('POST', API_PATHS.importCustomers, () => ({
      status: 200,
      body: { success: true, data: none },
    }));
    signedInAs('admin');
    renderApp(PATHS.importData);
    const user = userEvent.setup();
    await user.upload(
      await screen.findByLabelText(texts.file),
      new File(['Mobile,Name\nx,A\ny,B\n'], 'customers.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: texts.check }));
    expect(
      await screen.findByText('0 customers will be imported, 2 rows skipped', { exact: false }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.confirm })).toBeDisabled();
  });

  it('downloads a template of the kind chosen: its header row and one example row', async () => {
    fakeServer();
    const saved = catchDownloads();
    signedInAs('admin');
    renderApp(PATHS.importData);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: texts.template }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const { header, example } = IMPORT_TEMPLATES.customers;
    // Read as text, the byte-order mark is taken off: it is checked byte by byte below.
    expect(await textOf(saved[0]!)).toBe(
      `${header.join(',')}\r\n${example.map((cell) => (cell.includes(',') ? `"${cell}"` : cell)).join(',')}\r\n`,
    );
    // UTF-8 with the byte-order mark first, as every CSV download: Excel reads it right.
    const bytes = await new Promise<Uint8Array>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
      reader.readAsArrayBuffer(saved[0]!);
    });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(saved[0]!.type).toBe('text/csv;charset=utf-8');
    expect(saved).toHaveLength(1);
    expect(CSV_BOM).toBe('\uFEFF');
  });

  it('shows the rows written of the file while the import runs, asked by its own key', async () => {
    const imported = deferred();
    let progress: ImportProgress | null = null;
    const server = fakeServer()
      .on('POST', API_PATHS.importCustomers, (request) =>
        (request.body as FormData).get('dryRun') === 'true'
          ? { status: 200, body: { success: true, data: result(true) } }
          : imported.handler(),
      )
      .on('GET', API_PATHS.importProgress, () => ({
        status: 200,
        body: { success: true, data: progress },
      }));
    signedInAs('admin');
    renderApp(PATHS.importData);
    const user = userEvent.setup();

    await user.upload(
      await screen.findByLabelText(texts.file),
      new File(['Mobile,Name\n9845012345,Sita\n'], 'customers.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: texts.check }));
    await screen.findByText(texts.checked);

    // The import is being written: 250 of the file's 600 rows so far.
    progress = { rows: 250, total: 600 };
    await user.click(screen.getByRole('button', { name: texts.confirm }));
    expect(await screen.findByText(texts.imported(250, 600))).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: texts.importing })).toHaveAttribute(
      'aria-valuenow',
      '42',
    );
    const sent = server.sent('POST', API_PATHS.importCustomers).at(-1)!;
    const asked = server.sent('GET', API_PATHS.importProgress);
    expect(asked.at(-1)!.params).toEqual({ key: sent.headers[IDEMPOTENCY_HEADER] });

    imported.release({ status: 200, body: { success: true, data: result(false) } });
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    expect(screen.queryByText(texts.checked)).not.toBeInTheDocument();
  });

  it('shows the first problems of many, and downloads them all as the server lists them', async () => {
    const listed = Array.from({ length: 100 }, (_, i) => ({
      row: i + 2,
      column: 'Mobile',
      value: '12345',
      name: `Customer ${i}`,
      message: IMPORT_MESSAGES.mobile,
    }));
    const server = fakeServer().on('POST', API_PATHS.importCustomers, (request) =>
      request.params?.format === 'csv'
        ? { status: 200, body: '\uFEFFRow,Column,Problem\r\n2,Mobile,Not a mobile\r\n' }
        : {
            status: 200,
            body: {
              success: true,
              data: { ...result(true), valid: 0, errors: listed, errorCount: 200_000 },
            },
          },
    );
    let saved: Blob | null = null;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved = blob as Blob;
      return 'blob:import-report';
    };
    URL.revokeObjectURL = () => {};
    signedInAs('admin');
    renderApp(PATHS.importData);
    const user = userEvent.setup();
    await user.upload(
      await screen.findByLabelText(texts.file),
      new File(['Mobile,Name\n12345,Sita\n'], 'customers.csv', { type: 'text/csv' }),
    );
    await user.click(screen.getByRole('button', { name: texts.check }));

    expect(
      await screen.findByText('Showing the first 100 of 2,00,000 problems.'),
    ).toBeInTheDocument();
    expect(screen.getByText(`${texts.errors}:`, { exact: false })).toHaveTextContent('2,00,000');
    expect(screen.getAllByRole('row')).toHaveLength(101);

    await user.click(screen.getByRole('button', { name: texts.downloadAll }));
    await waitFor(() => expect(saved).not.toBeNull());
    const asked = server.sent('POST', API_PATHS.importCustomers).at(-1)!;
    expect(asked.params).toEqual({ format: 'csv' });
    expect((asked.body as FormData).get('dryRun')).toBe('true');
    expect(((asked.body as FormData).get('file') as File).name).toBe('customers.csv');
    expect(asked.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(saved as unknown as Blob);
    });
    expect(text).toContain('2,Mobile,Not a mobile');
  });
});

describe('Import: choosing the file', () => {
  it('is a real button, pressed from the keyboard, that opens the browser’s file chooser', async () => {
    fakeServer();
    signedInAs('admin');
    renderApp(PATHS.importData);
    const user = userEvent.setup();

    const choose = await screen.findByRole('button', { name: texts.file });
    expect(choose.tagName).toBe('BUTTON');
    // No label dressed as a button: the file input has no label element around it.
    const input = screen.getByLabelText<HTMLInputElement>(texts.file);
    expect(input.closest('label')).toBeNull();
    const opened = vi.spyOn(input, 'click');
    choose.focus();
    await user.keyboard('{Enter}');
    expect(opened).toHaveBeenCalledTimes(1);
    await user.keyboard(' ');
    expect(opened).toHaveBeenCalledTimes(2);

    await user.upload(input, new File(['Mobile No,Name\n'], 'customers.csv', { type: 'text/csv' }));
    expect(await screen.findByRole('button', { name: 'customers.csv' })).toBeVisible();
  });
});
