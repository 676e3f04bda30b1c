import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { API_PATHS, MESSAGES, PAGE_TITLES, REPORT_TEXTS, SIDEBAR_LABELS } from '@kanak/contract';
import { bodyRows, cells, footerRows } from '../../test/tables';
import { PATHS } from '../../lib/paths';
import { ddmmyyyy, typeDate } from '../../components/DateField.testing';
import { bodies, firstPage, openReport, reportAnswer, reportServer } from './reportTestKit';

const texts = REPORT_TEXTS;
const title = PAGE_TITLES.unrecoveredReturns;
const path = API_PATHS.unrecoveredReport;

const row = {
  returnDate: '2026-11-20',
  branch: 'MAIN',
  returnNo: 'MR-R-0003',
  invoiceNo: 'MR-2026-00017',
  mobile: '9876543210',
  unrecovered: 1250,
};
const answer = reportAnswer([row, { ...row, returnNo: 'MR-R-0004', invoiceNo: null }], 2, {
  returns: 2,
  unrecovered: 2500,
});

const REPORT_ENTRIES = [
  SIDEBAR_LABELS.collectionsReport,
  SIDEBAR_LABELS.overdueReport,
  SIDEBAR_LABELS.maturingReport,
  SIDEBAR_LABELS.pointsLiabilityReport,
  SIDEBAR_LABELS.unrecoveredReturns,
];

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Unrecovered Returns', { timeout: 60_000 }, () => {
  it('lists every return whose points were spent, on any dates unless chosen', async () => {
    const server = reportServer('manager', path, answer);
    const user = await openReport(PATHS.unrecoveredReturns, title);

    await waitFor(() => expect(bodyRows(title)).toHaveLength(2));
    expect(bodies(server, path)[0]).toEqual(firstPage);
    expect(bodyRows(title).map(cells)).toEqual([
      ['20/11/2026', 'MAIN', 'MR-R-0003', 'MR-2026-00017', '9876543210', '1,250'],
      ['20/11/2026', 'MAIN', 'MR-R-0004', '', '9876543210', '1,250'],
    ]);
    expect(cells(footerRows(title)[0]!).filter(Boolean)).toEqual(['Totals', '2,500']);

    await typeDate(user, texts.from, '01/11/2026');
    await user.click(screen.getByRole('button', { name: texts.search }));
    await waitFor(() =>
      expect(bodies(server, path).at(-1)).toEqual({ from: '2026-11-01', ...firstPage }),
    );
    expect(screen.getByRole('group', { name: texts.to }).querySelector('input')).toHaveValue('');
    expect(screen.getByRole('group', { name: texts.from }).querySelector('input')).toHaveValue(
      ddmmyyyy('2026-11-01'),
    );

    // Every report is in a manager's sidebar, below the statements.
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links.slice(-REPORT_ENTRIES.length)).toEqual(REPORT_ENTRIES);
  });

  it('is none of a cashier’s: no report in the sidebar, and the screen says so', async () => {
    const server = reportServer('cashier', path, answer);
    await openReport(PATHS.unrecoveredReturns, title);
    expect(await screen.findByText(MESSAGES.notAllowed)).toBeVisible();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    await within(nav).findByRole('link', { name: SIDEBAR_LABELS.loyaltyPoints });
    for (const entry of REPORT_ENTRIES) {
      expect(within(nav).queryByRole('link', { name: entry })).toBeNull();
    }
    expect(server.sent('POST', path)).toEqual([]);
  });
});
