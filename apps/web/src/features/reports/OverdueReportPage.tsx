import { PAGE_TITLES, REPORT_TEXTS, formatRupees, formatSlashDate } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { ReportPage } from './ReportPage';
import { grouped } from './reportParts';

const texts = REPORT_TEXTS;
const c = texts.columns;
const t = texts.totalsLabels;

const columns: DataColumn<ReportRow<'overdue'>>[] = [
  { key: 'schemeid', header: c.schemeid, width: '90px', cell: (r) => r.schemeid },
  { key: 'custname', header: c.custname, width: 'minmax(140px, 2fr)', cell: (r) => r.custname },
  { key: 'mobileno', header: c.mobileno, width: '115px', nowrap: true, cell: (r) => r.mobileno },
  {
    key: 'monthsDue',
    header: c.monthsDue,
    width: '100px',
    align: 'right',
    nowrap: true,
    cell: (r) => grouped(r.monthsDue),
  },
  {
    key: 'amountDue',
    header: c.amountDue,
    width: '120px',
    align: 'right',
    nowrap: true,
    cell: (r) => formatRupees(r.amountDue),
  },
  {
    key: 'daysOverdue',
    header: c.daysOverdue,
    width: '110px',
    align: 'right',
    nowrap: true,
    cell: (r) => grouped(r.daysOverdue),
  },
  {
    key: 'lastPaid',
    header: c.lastPaid,
    width: '110px',
    nowrap: true,
    cell: (r) => (r.lastPaid ? formatSlashDate(r.lastPaid) : texts.neverPaid),
  },
];

/** Overdue Installments (/home/overdue-installments): who to call, the longest overdue first. */
export function OverdueReportPage() {
  return (
    <ReportPage
      name="overdue"
      title={PAGE_TITLES.overdueReport}
      columns={columns}
      rowKey={(r) => r.schemeid}
      minWidth={780}
      footer={(totals) => [
        {
          key: 'totals',
          cells: {
            schemeid: texts.totals,
            monthsDue: grouped(totals.installments),
            amountDue: formatRupees(totals.amount),
          },
        },
      ]}
      counts={(totals) => [[t.schemes, totals.schemes]]}
    />
  );
}
