import { PAGE_TITLES, REPORT_TEXTS, formatRupees, formatSlashDate } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { ReportPage } from './ReportPage';
import { SchemeLink } from '../../components/SchemeLink';

const texts = REPORT_TEXTS;
const c = texts.columns;

const columns: DataColumn<ReportRow<'maturing'>>[] = [
  {
    key: 'schemeid',
    header: c.schemeid,
    width: '76px',
    cell: (r) => <SchemeLink schemeid={r.schemeid} />,
  },
  { key: 'custname', header: c.custname, width: 'minmax(140px, 2fr)', cell: (r) => r.custname },
  { key: 'mobileno', header: c.mobileno, width: '104px', nowrap: true, cell: (r) => r.mobileno },
  { key: 'branch', header: c.branch, width: '76px', nowrap: true, cell: (r) => r.branch },
  {
    key: 'startdt',
    header: c.startdt,
    width: '100px',
    nowrap: true,
    cell: (r) => formatSlashDate(r.startdt),
  },
  {
    key: 'matdt',
    header: c.matdt,
    width: '100px',
    nowrap: true,
    cell: (r) => formatSlashDate(r.matdt),
  },
  {
    key: 'installmentsPaid',
    header: c.installmentsPaid,
    width: '112px',
    align: 'right',
    nowrap: true,
    cell: (r) => texts.installmentsOf(r.installmentsPaid, r.installments),
  },
  {
    key: 'amountPaid',
    header: c.amountPaid,
    width: '124px',
    align: 'right',
    nowrap: true,
    cell: (r) => formatRupees(r.amountPaid),
  },
];

/** Maturing Schemes (/home/maturing-schemes): what to pay out, the soonest first. */
export function MaturingReportPage() {
  return (
    <ReportPage
      name="maturing"
      title={PAGE_TITLES.maturingReport}
      columns={columns}
      rowKey={(r) => r.schemeid}
      minWidth={848}
      footer={(totals) => [
        {
          key: 'totals',
          cells: { schemeid: texts.totals, amountPaid: formatRupees(totals.amountPaid) },
        },
      ]}
      counts={(totals) => [[texts.totalsLabels.schemes, totals.schemes]]}
    />
  );
}
