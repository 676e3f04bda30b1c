import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  LIMITS,
  PAGE_TITLES,
  REPORT_MESSAGES,
  REPORT_TEXTS,
  addDays,
  type MaturingRow,
} from '@kanak/contract';
import { bodyRows, dataRows, cells, footerRows } from '../../test/tables';
import { PATHS } from '../../lib/paths';
import { bodies, firstPage, openReport, reportAnswer, reportServer, today } from './reportTestKit';

const texts = REPORT_TEXTS;
const title = PAGE_TITLES.maturingReport;
const path = API_PATHS.maturingReport;

const row: MaturingRow = {
  schemeid: 31,
  custname: 'Ravi Menon',
  mobileno: '9123456780',
  branch: 'ANNA',
  startdt: '2025-12-10',
  matdt: '2026-12-09',
  installmentsPaid: 10,
  installments: 11,
  amountPaid: 200000,
};

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Maturing Schemes', { timeout: 60_000 }, () => {
  it('shows the schemes maturing in the next 30 days with what was paid in', async () => {
    const server = reportServer(
      'owner',
      path,
      reportAnswer([row], 1, { schemes: 1, amountPaid: 200000 }),
    );
    await openReport(PATHS.maturingReport, title);

    await waitFor(() => expect(dataRows(title)).toHaveLength(1));
    expect(bodies(server, path)[0]).toEqual({
      from: today(),
      to: addDays(today(), LIMITS.maturingWithinDays),
      ...firstPage,
    });
    expect(cells(bodyRows(title)[0]!)).toEqual([
      '31',
      'Ravi Menon',
      '9123456780',
      'ANNA',
      '10/12/2025',
      '09/12/2026',
      '10 of 11',
      '₹2,00,000',
    ]);
    expect(cells(footerRows(title)[0]!).filter(Boolean)).toEqual(['Totals', '₹2,00,000']);
    // The owner may choose a branch: the list is the shop's branches.
    const branch = screen.getByRole('combobox', { name: texts.branch });
    await waitFor(() =>
      expect([...branch.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
        texts.wholeChain,
        'MAIN · Zaveri Bazaar',
        'ANNA · Anna Nagar',
      ]),
    );
  });

  it('shows the server’s reason when it refuses the filter, and no rows', async () => {
    reportServer('owner', path, {
      status: 400,
      body: { success: false, message: REPORT_MESSAGES.unknownBranch('ZZZ') },
    });
    await openReport(`${PATHS.maturingReport}?branch=ZZZ`, title);
    expect(await screen.findByText(REPORT_MESSAGES.unknownBranch('ZZZ'))).toBeVisible();
    expect(screen.getByText(texts.reports.maturing.empty)).toBeVisible();
  });
});
