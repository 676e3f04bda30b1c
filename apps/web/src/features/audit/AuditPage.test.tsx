import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  AUDIT_TEXTS,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  SIDEBAR_LABELS,
  UI_TEXTS,
  type AuditEntry,
} from '@kanak/contract';
import { typeDate } from '../../components/DateField.testing';
import { fakeServer, testOwner, type SeenRequest } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const texts = AUDIT_TEXTS;

const entry = (id: number, patch: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: '2026-11-24T08:35:00.000Z',
  username: 'mohan',
  name: 'Mohan Das',
  branch: null,
  entity: 'customer',
  entityId: '42',
  action: 'customer.update',
  mobile: '9800011111',
  before: { city: 'Chennai', aadhaar: '(hidden)' },
  after: { city: 'Madurai', aadhaar: '(hidden)' },
  ...patch,
});

function auditServer() {
  return fakeServer().on('GET', API_PATHS.audit, (request: SeenRequest) => {
    const page = Number(request.params?.page ?? 1);
    const first = (page - 1) * LIMITS.auditPageSize;
    return {
      status: 200,
      body: {
        success: true,
        data: [
          entry(first + 1),
          entry(first + 2, {
            action: 'points.credit',
            entity: 'points_entry',
            before: null,
            after: { credit: 120 },
          }),
          entry(first + 3, {
            action: 'accounting.tallyPush',
            entity: 'tally',
            entityId: '2026-11-01..2026-11-29',
            mobile: null,
            before: null,
            after: { vouchers: 3 },
          }),
        ],
        total: 120,
        totalCapped: false,
      },
    };
  });
}

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Audit Trail', { timeout: 60_000 }, () => {
  it('shows each change with who, when, what, and the values before and after', async () => {
    auditServer();
    signedInAs('asha');
    renderApp(PATHS.audit);

    expect(
      await screen.findByRole('heading', { name: PAGE_TITLES.audit }, { timeout: 20_000 }),
    ).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: texts.table });
    const first = (await within(table).findAllByRole('row'))[1]!;
    expect(within(first).getByText('24/11/2026')).toBeInTheDocument();
    expect(within(first).getByText('14:05')).toBeInTheDocument();
    expect(within(first).getByText('Mohan Das')).toBeInTheDocument();
    expect(within(first).getByText('mohan')).toBeInTheDocument();
    expect(within(first).getByText('42')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(within(first).getByText('42').parentElement).toHaveTextContent(/^Customer #42$/);
    // A Tally export's period in the shop's dates, each date kept on one line.
    const tally = (await within(table).findAllByRole('row'))[3]!;
    expect(within(tally).getByText('01/11/2026')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(within(tally).getByText('01/11/2026').parentElement).toHaveTextContent(
      /#01\/11\/2026 – 29\/11\/2026$/,
    );
    const changes = within(first)
      .getAllByText(/^(City|Aadhaar):/)
      .map((label) => label.parentElement);
    expect(changes.map((change) => change?.textContent)).toEqual([
      'City: Chennai → Madurai',
      'Aadhaar: (hidden) → (hidden)',
    ]);
    // A short value keeps to one line.
    expect(within(first).getByText('Chennai')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(screen.getByText('Page 1 of 3 · 120 changes')).toBeInTheDocument();
  });

  it('sends the filters (dates as YYYY-MM-DD) and pages through the results', async () => {
    const server = auditServer();
    signedInAs('asha');
    renderApp(PATHS.audit);
    const user = userEvent.setup();
    await screen.findByRole('table', { name: texts.table });

    await user.type(screen.getByLabelText(texts.user), 'mohan');
    await user.type(screen.getByLabelText(texts.mobile), '98000-11111');
    await user.click(screen.getByLabelText(texts.entity));
    await user.click(await screen.findByRole('option', { name: 'Points entry' }));
    await typeDate(user, texts.from, '01/11/2026');
    await typeDate(user, texts.to, '24/11/2026');
    await user.click(screen.getByRole('button', { name: texts.search }));

    await waitFor(() =>
      expect(server.sent('GET', API_PATHS.audit).at(-1)!.params).toEqual({
        user: 'mohan',
        entity: 'points_entry',
        mobile: '9800011111',
        from: '2026-11-01',
        to: '2026-11-24',
        page: 1,
      }),
    );
    await user.click(screen.getByRole('button', { name: UI_TEXTS.pager.next }));
    await waitFor(() => expect(server.sent('GET', API_PATHS.audit).at(-1)!.params?.page).toBe(2));
    expect(await screen.findByText('Page 2 of 3 · 120 changes')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: texts.clear }));
    await waitFor(() =>
      expect(server.sent('GET', API_PATHS.audit).at(-1)!.params).toEqual({ page: 1 }),
    );
  });

  it('downloads the filtered list as CSV', async () => {
    const server = auditServer();
    let saved: Blob | null = null;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved = blob as Blob;
      return 'blob:audit';
    };
    URL.revokeObjectURL = () => {};
    signedInAs('asha');
    renderApp(PATHS.audit);
    const user = userEvent.setup();
    await screen.findByRole('table', { name: texts.table });
    server.on('GET', API_PATHS.audit, (request) =>
      request.params?.format === 'csv'
        ? { status: 200, body: '\uFEFFWhen,Username\r\n24/11/2026,mohan\r\n' }
        : { status: 200, body: { success: true, data: [], total: 0, totalCapped: false } },
    );
    await user.click(screen.getByRole('button', { name: texts.csv }));
    await waitFor(() => expect(saved).not.toBeNull());
    const bytes = await new Promise<Uint8Array>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
      reader.readAsArrayBuffer(saved as unknown as Blob);
    });
    // One byte-order mark (EF BB BF), not two, then the server's rows.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
      '\uFEFFWhen,Username\r\n24/11/2026,mohan\r\n',
    );
  });

  it('is not for a cashier: no sidebar entry, and the address says "not allowed"', async () => {
    setScreenWidth(1366);
    fakeServer().on('GET', API_PATHS.me, {
      status: 200,
      body: { success: true, data: { ...testOwner, username: 'ravi', role: 'cashier' } },
    });
    signedInAs('ravi');
    renderApp(PATHS.audit);
    expect(await screen.findByText(MESSAGES.notAllowed)).toBeInTheDocument();
    const nav = screen.getByRole('navigation');
    expect(within(nav).queryByRole('link', { name: SIDEBAR_LABELS.audit })).not.toBeInTheDocument();
  });
});
