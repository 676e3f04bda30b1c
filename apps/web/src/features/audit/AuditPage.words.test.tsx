import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { API_PATHS, AUDIT_TEXTS, PAGE_TITLES, type AuditEntry } from '@kanak/contract';
import { fakeServer } from '../../test/fake-server';
import { renderApp, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const base = {
  at: '2026-11-24T15:46:00.000Z',
  username: 'priya',
  name: 'Priya Raman',
  branch: 'MAIN',
  entityId: '64',
  mobile: '9800011111',
  before: null,
} satisfies Partial<AuditEntry>;

const rows: AuditEntry[] = [
  {
    ...base,
    id: 3,
    entity: 'scheme',
    action: 'scheme.activate',
    before: { status: 'n' },
    after: { status: 'a' },
  },
  {
    ...base,
    id: 2,
    entity: 'points_entry',
    action: 'points.credit',
    after: { invdate: '2026-11-24', credit: 75 },
  },
  {
    ...base,
    id: 1,
    username: null,
    name: 'Counter: Till 2',
    branch: 'PUNE',
    entity: 'points_entry',
    action: 'pos.sale',
    after: { invoiceNo: 'INV-7', points: 250 },
  },
];

async function openScreen() {
  fakeServer().on('GET', API_PATHS.audit, {
    status: 200,
    body: { success: true, data: rows, total: 3, totalCapped: false },
  });
  signedInAs('asha');
  renderApp(PATHS.audit);
  await screen.findByRole('heading', { name: PAGE_TITLES.audit }, { timeout: 20_000 });
  const table = await screen.findByRole('table', { name: AUDIT_TEXTS.table });
  return (await within(table).findAllByRole('row')).slice(1);
}

describe('the Audit Trail in a manager’s words', () => {
  it('says what was done and to what, in the screen’s words', async () => {
    const [activated, credited] = await openScreen();
    expect(within(activated!).getByText('Scheme activated')).toBeInTheDocument();
    expect(within(activated!).getByText('Status:').parentElement).toHaveTextContent(
      'Status: Inactive → Active',
    );
    expect(within(credited!).getByText('Points credited')).toBeInTheDocument();
    expect(within(credited!).getByText('Date:').parentElement).toHaveTextContent(
      'Date: 2026-11-24',
    );
    expect(screen.queryByText(/points\.credit|scheme\.activate|invdate|status: n/)).toBeNull();
  });

  it('shows a counter’s posting with the counter and its branch, and the time apart from the name', async () => {
    const [, credited, sale] = await openScreen();
    expect(within(sale!).getByText('Counter: Till 2')).toBeInTheDocument();
    expect(within(sale!).getByText('PUNE')).toBeInTheDocument();
    expect(within(sale!).getByText('Sale at the counter')).toBeInTheDocument();
    // The time is its own line, never run into the name beside it ("21:16priya").
    expect(within(credited!).getByText('21:16')).toBeInTheDocument();
    expect(within(credited!).getByText('24/11/2026')).toBeInTheDocument();
  });
});
