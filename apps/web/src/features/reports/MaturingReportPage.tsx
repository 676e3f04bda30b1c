import { PAGE_TITLES, REPORT_TEXTS, formatRupees, formatSlashDate } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { SchemeReportPage } from './SchemeReportPage';

const texts = REPORT_TEXTS;
const c = texts.columns;

/** After the scheme and its customer: where it is held, its dates, and what was paid in. */
const columns: DataColumn<ReportRow<'maturing'>>[] = [
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
    <SchemeReportPage
      name="maturing"
      title={PAGE_TITLES.maturingReport}
      columns={columns}
      minWidth={848}
      totals={(totals) => ({ amountPaid: formatRupees(totals.amountPaid) })}
    />
  );
}
