import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
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
});
