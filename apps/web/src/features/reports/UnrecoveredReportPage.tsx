import { PAGE_TITLES, REPORT_TEXTS, formatSlashDate } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { ReportPage } from './ReportPage';
import { grouped } from './reportParts';

const texts = REPORT_TEXTS;
const c = texts.columns;

const columns: DataColumn<ReportRow<'unrecovered'>>[] = [
  {
    key: 'returnDate',
    header: c.returnDate,
    width: '100px',
    nowrap: true,
    cell: (r) => formatSlashDate(r.returnDate),
  },
  { key: 'branch', header: c.branch, width: '76px', nowrap: true, cell: (r) => r.branch },
  {
    key: 'returnNo',
    header: c.returnNo,
    width: 'minmax(152px, 1fr)',
    nowrap: true,
    cell: (r) => r.returnNo,
  },
  {
    key: 'invoiceNo',
    header: c.invoiceNo,
    width: 'minmax(152px, 1fr)',
    nowrap: true,
    cell: (r) => r.invoiceNo ?? '',
  },
  { key: 'mobile', header: c.mobileno, width: '104px', nowrap: true, cell: (r) => r.mobile ?? '' },
  {
    key: 'unrecovered',
    header: c.unrecovered,
    width: '116px',
    align: 'right',
    nowrap: true,
    cell: (r) => grouped(r.unrecovered),
  },
];

/**
 * Unrecovered Returns (/home/unrecovered-returns): returns whose points the customer had
 * already spent, so they could not be taken back.
 */
export function UnrecoveredReportPage() {
  return (
    <ReportPage
      name="unrecovered"
      title={PAGE_TITLES.unrecoveredReturns}
      columns={columns}
      rowKey={(r) => `${r.branch}|${r.returnNo}`}
      minWidth={716}
      footer={(totals) => [
        {
          key: 'totals',
          cells: { returnDate: texts.totals, unrecovered: grouped(totals.unrecovered) },
        },
      ]}
      counts={(totals) => [[texts.totalsLabels.returns, totals.returns]]}
    />
  );
}
