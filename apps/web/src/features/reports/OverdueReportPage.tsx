import { PAGE_TITLES, REPORT_TEXTS, formatRupees, formatSlashDate } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { grouped } from './reportParts';
import { SchemeReportPage } from './SchemeReportPage';

const texts = REPORT_TEXTS;
const c = texts.columns;

/** After the scheme and its customer: what is due, how long overdue, and the last payment. */
const columns: DataColumn<ReportRow<'overdue'>>[] = [
  {
    key: 'monthsDue',
    header: c.monthsDue,
    width: '84px',
    align: 'right',
    nowrap: true,
    cell: (r) => grouped(r.monthsDue),
  },
  {
    key: 'amountDue',
    header: c.amountDue,
    width: '124px',
    align: 'right',
    nowrap: true,
    cell: (r) => formatRupees(r.amountDue),
  },
  {
    key: 'daysOverdue',
    header: c.daysOverdue,
    width: '84px',
    align: 'right',
    nowrap: true,
    cell: (r) => grouped(r.daysOverdue),
  },
  {
    key: 'lastPaid',
    header: c.lastPaid,
    width: '100px',
    nowrap: true,
    cell: (r) => (r.lastPaid ? formatSlashDate(r.lastPaid) : texts.neverPaid),
  },
];

/** Overdue Installments (/home/overdue-installments): who to call, the longest overdue first. */
export function OverdueReportPage() {
  return (
    <SchemeReportPage
      name="overdue"
      title={PAGE_TITLES.overdueReport}
      columns={columns}
      minWidth={728}
      totals={(totals) => ({
        monthsDue: grouped(totals.installments),
        amountDue: formatRupees(totals.amount),
      })}
    />
  );
}
