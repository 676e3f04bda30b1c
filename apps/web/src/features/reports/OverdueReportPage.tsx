import { PAGE_TITLES, REPORT_TEXTS, formatRupees, formatSlashDate } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { ReportPage } from './ReportPage';
import { SchemeLink } from '../../components/SchemeLink';
import { grouped } from './reportParts';

const texts = REPORT_TEXTS;
const c = texts.columns;
const t = texts.totalsLabels;

const columns: DataColumn<ReportRow<'overdue'>>[] = [
  {
    key: 'schemeid',
    header: c.schemeid,
    width: '76px',
    cell: (r) => <SchemeLink schemeid={r.schemeid} />,
  },
  { key: 'custname', header: c.custname, width: 'minmax(140px, 2fr)', cell: (r) => r.custname },
  { key: 'mobileno', header: c.mobileno, width: '104px', nowrap: true, cell: (r) => r.mobileno },
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
    <ReportPage
      name="overdue"
      title={PAGE_TITLES.overdueReport}
      columns={columns}
      rowKey={(r) => r.schemeid}
      minWidth={728}
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
