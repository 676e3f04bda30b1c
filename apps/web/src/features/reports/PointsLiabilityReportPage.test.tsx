import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { API_PATHS, PAGE_TITLES, REPORT_TEXTS, type PointsLiabilityRow } from '@kanak/contract';
import { bodyRows, dataRows, cells, footerRows } from '../../test/tables';
import { PATHS } from '../../lib/paths';
import { bodies, firstPage, openReport, reportAnswer, reportServer } from './reportTestKit';

const texts = REPORT_TEXTS;
const title = PAGE_TITLES.pointsLiabilityReport;
const path = API_PATHS.pointsLiabilityReport;

const row: PointsLiabilityRow = {
  custid: 41,
  custname: 'Lakshmi Iyer',
  mobileno: '9876543210',
  points: 1234567,
  value: 308641.75,
  expiringIn30Days: 1500,
};
const answer = reportAnswer([row], 1, {
  customers: 1,
  points: 1234567,
  value: 308641.75,
  expiringIn30Days: 1500,
});

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Points Liability', { timeout: 60_000 }, () => {
  it('shows the points customers hold and their worth; the owner may choose a branch', async () => {
    const server = reportServer('owner', path, answer);
    const user = await openReport(PATHS.pointsLiabilityReport, title);

    await waitFor(() => expect(dataRows(title)).toHaveLength(1));
    // No dates: the points held now.
    expect(bodies(server, path)[0]).toEqual(firstPage);
    expect(screen.queryByRole('group', { name: texts.from })).toBeNull();
    expect(cells(bodyRows(title)[0]!)).toEqual([
      '41',
      'Lakshmi Iyer',
      '9876543210',
      '12,34,567',
      '₹3,08,641.75',
      '1,500',
    ]);
    expect(cells(footerRows(title)[0]!)).toEqual([
      'Totals',
      '',
      '',
      '12,34,567',
      '₹3,08,641.75',
      '1,500',
    ]);

    await waitFor(() =>
      expect(screen.getByRole('option', { name: 'ANNA · Anna Nagar' })).toBeInTheDocument(),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: texts.branch }), 'ANNA');
    await user.click(screen.getByRole('button', { name: texts.search }));
    await waitFor(() =>
      expect(bodies(server, path).at(-1)).toEqual({ branch: 'ANNA', ...firstPage }),
    );
  });

  it('has nothing to filter for a manager: their own branch’s points', async () => {
    const server = reportServer('manager', path, answer);
    await openReport(PATHS.pointsLiabilityReport, title);
    await waitFor(() => expect(dataRows(title)).toHaveLength(1));
    expect(bodies(server, path)).toEqual([firstPage]);
    expect(screen.queryByRole('heading', { name: texts.filters })).toBeNull();
    expect(screen.queryByRole('combobox', { name: texts.branch })).toBeNull();
  });

  it('says so when no customer holds points: one row with the text, and no row of data', async () => {
    reportServer(
      'owner',
      path,
      reportAnswer([], 0, { customers: 0, points: 0, value: 0, expiringIn30Days: 0 }),
    );
    await openReport(PATHS.pointsLiabilityReport, title);
    await waitFor(() =>
      expect(screen.getByText(texts.reports['points-liability'].empty)).toBeVisible(),
    );
    expect(bodyRows(title)).toHaveLength(1);
    expect(dataRows(title)).toHaveLength(0);
  });
});
