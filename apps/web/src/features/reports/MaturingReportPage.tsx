import { PAGE_TITLES, REPORT_TEXTS, formatRupees, formatSlashDate } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { ReportPage } from './ReportPage';

const texts = REPORT_TEXTS;
const c = texts.columns;

const columns: DataColumn<ReportRow<'maturing'>>[] = [
  { key: 'schemeid', header: c.schemeid, width: '90px', cell: (r) => r.schemeid },
  { key: 'custname', header: c.custname, width: 'minmax(140px, 2fr)', cell: (r) => r.custname },
  { key: 'mobileno', header: c.mobileno, width: '115px', nowrap: true, cell: (r) => r.mobileno },
  { key: 'branch', header: c.branch, width: '76px', nowrap: true, cell: (r) => r.branch },
  {
    key: 'startdt',
    header: c.startdt,
    width: '108px',
    nowrap: true,
    cell: (r) => formatSlashDate(r.startdt),
  },
  {
    key: 'matdt',
    header: c.matdt,
    width: '118px',
    nowrap: true,
    cell: (r) => formatSlashDate(r.matdt),
  },
  {
    key: 'installmentsPaid',
    header: c.installmentsPaid,
    width: '110px',
    align: 'right',
    nowrap: true,
    cell: (r) => texts.installmentsOf(r.installmentsPaid, r.installments),
  },
  {
    key: 'amountPaid',
    header: c.amountPaid,
    width: '120px',
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
      minWidth={920}
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
