import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { API_PATHS, AUDIT_TEXTS, todayIn } from '@kanak/contract';
import { typeDate } from '../../components/DateField.testing';
import { fakeServer } from '../../test/fake-server';
import { renderApp, signedInAs } from '../../test/render';
import { catchDownloads } from '../../test/tables';
import { PATHS } from '../../lib/paths';

const texts = AUDIT_TEXTS;
let downloads: ReturnType<typeof catchDownloads> | null = null;
afterEach(() => downloads?.restore());

describe('the Audit Trail’s CSV file', { timeout: 60_000 }, () => {
  it('carries the dates it covers in its name, or the day it was taken', async () => {
    downloads = catchDownloads();
    fakeServer().on('GET', API_PATHS.audit, (request) =>
      request.params?.format === 'csv'
        ? { status: 200, body: '\uFEFFWhen\r\n' }
        : { status: 200, body: { success: true, data: [], total: 0, totalCapped: false } },
    );
    signedInAs('asha');
    renderApp(PATHS.audit);
    const user = userEvent.setup();
    await screen.findByRole('table', { name: texts.table }, { timeout: 20_000 });

    await user.click(screen.getByRole('button', { name: texts.csv }));
    await waitFor(() =>
      expect(downloads!.names).toEqual([`audit_log_${todayIn('Asia/Kolkata')}.csv`]),
    );

    await typeDate(user, texts.from, '01/11/2026');
    await typeDate(user, texts.to, '24/11/2026');
    await user.click(screen.getByRole('button', { name: texts.search }));
    await user.click(screen.getByRole('button', { name: texts.csv }));
    await waitFor(() => expect(downloads!.names).toHaveLength(2));
    expect(downloads!.names[1]).toBe('audit_log_2026-11-01-to-2026-11-24.csv');
  });
});
