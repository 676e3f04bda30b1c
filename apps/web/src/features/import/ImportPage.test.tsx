import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  IMPORT_MESSAGES,
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

describe('Import', () => {
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
    await user.click(screen.getByRole('button', { name: texts.import }));
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
