import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  LIMITS,
  PAGE_TITLES,
  REPORT_TEXTS,
  UI_TEXTS,
  type OverdueRow,
} from '@kanak/contract';
import { bodyRows, cells, footerRows } from '../../test/tables';
import { PATHS } from '../../lib/paths';
import { ddmmyyyy } from '../../components/DateField.testing';
import { bodies, firstPage, openReport, reportAnswer, reportServer, today } from './reportTestKit';

const texts = REPORT_TEXTS;
const title = PAGE_TITLES.overdueReport;
const path = API_PATHS.overdueReport;

const row = (schemeid: number, patch: Partial<OverdueRow> = {}): OverdueRow => ({
  schemeid,
  mobileno: '9876543210',
  custname: 'Lakshmi Iyer',
  monthsDue: 3,
  amountDue: 15000,
  daysOverdue: 68,
  lastPaid: '2026-08-02',
  ...patch,
});
const totals = { schemes: 120, installments: 250, amount: 1234500 };

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Overdue Installments', { timeout: 60_000 }, () => {
  it('shows a manager their branch’s overdue schemes as of today, with no branch to choose', async () => {
    const server = reportServer('manager', path, (request) => {
      const { page } = request.body as { page: number };
      return reportAnswer(
        [row(page * 10 + 1), row(page * 10 + 2, { lastPaid: null, monthsDue: 1 })],
        120,
        totals,
      );
    });
    const user = await openReport(PATHS.overdueReport, title);

    await waitFor(() => expect(bodyRows(title)).toHaveLength(2));
    expect(bodies(server, path)[0]).toEqual({ asOf: today(), ...firstPage });
    expect(screen.getByRole('group', { name: texts.asOf }).querySelector('input')).toHaveValue(
      ddmmyyyy(today()),
    );
    expect(screen.queryByRole('combobox', { name: texts.branch })).toBeNull();
    expect(server.sent('GET', API_PATHS.branches)).toEqual([]);
    expect(bodyRows(title).map(cells)).toEqual([
      ['11', 'Lakshmi Iyer', '9876543210', '3', '₹15,000', '68', '02/08/2026'],
      ['12', 'Lakshmi Iyer', '9876543210', '1', '₹15,000', '68', texts.neverPaid],
    ]);
    expect(cells(footerRows(title)[0]!)).toEqual(['Totals', '', '', '250', '₹12,34,500', '', '']);
    expect(screen.getByText('Totals · Schemes: 120')).toBeVisible();

    // 120 schemes are three pages of 50.
    expect(screen.getByText('Page 1 of 3 · 120 rows')).toBeVisible();
    expect(screen.getByRole('button', { name: UI_TEXTS.pager.previous })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: UI_TEXTS.pager.next }));
    expect(await screen.findByText('Page 2 of 3 · 120 rows')).toBeVisible();
    expect(bodies(server, path).at(-1)).toEqual({
      asOf: today(),
      page: 2,
      pageSize: LIMITS.reportPageSize,
    });
    await waitFor(() => expect(cells(bodyRows(title)[0]!)[0]).toBe('21'));
    await user.click(screen.getByRole('button', { name: UI_TEXTS.pager.next }));
    expect(await screen.findByText('Page 3 of 3 · 120 rows')).toBeVisible();
    expect(screen.getByRole('button', { name: UI_TEXTS.pager.next })).toBeDisabled();
  });

  it('says so when no installment is overdue, and offers nothing to print or download', async () => {
    reportServer('owner', path, reportAnswer([], 0, { schemes: 0, installments: 0, amount: 0 }));
    await openReport(PATHS.overdueReport, title);
    expect(await screen.findByText(texts.reports.overdue.empty)).toBeVisible();
    expect(screen.getByRole('button', { name: texts.print })).toBeDisabled();
    expect(screen.getByRole('button', { name: texts.csv })).toBeDisabled();
  });
});
