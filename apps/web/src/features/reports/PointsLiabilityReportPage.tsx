import { PAGE_TITLES, REPORT_TEXTS, formatRupees } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { customerColumns } from './reportColumns';
import { ReportPage } from './ReportPage';
import { grouped } from './reportParts';

const texts = REPORT_TEXTS;
const c = texts.columns;

const columns: DataColumn<ReportRow<'points-liability'>>[] = [
  { key: 'custid', header: c.custid, width: '92px', cell: (r) => r.custid },
  ...customerColumns,
  {
    key: 'points',
    header: c.points,
    width: '100px',
    align: 'right',
    nowrap: true,
    cell: (r) => grouped(r.points),
  },
  {
    key: 'value',
    header: c.value,
    width: '124px',
    align: 'right',
    nowrap: true,
    cell: (r) => formatRupees(r.value),
  },
  {
    key: 'expiringIn30Days',
    header: c.expiringIn30Days,
    width: '100px',
    align: 'right',
    nowrap: true,
    cell: (r) => grouped(r.expiringIn30Days),
  },
];

/** Points Liability (/home/points-liability): what the points customers hold are worth. */
export function PointsLiabilityReportPage() {
  return (
    <ReportPage
      name="points-liability"
      title={PAGE_TITLES.pointsLiabilityReport}
      columns={columns}
      rowKey={(r) => r.custid}
      minWidth={676}
      footer={(totals) => [
        {
          key: 'totals',
          cells: {
            custid: texts.totals,
            points: grouped(totals.points),
            value: formatRupees(totals.value),
            expiringIn30Days: grouped(totals.expiringIn30Days),
          },
        },
      ]}
      counts={(totals) => [[texts.totalsLabels.customers, totals.customers]]}
    />
  );
}
