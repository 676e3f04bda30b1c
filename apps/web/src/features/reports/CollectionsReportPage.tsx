import {
  COLLECTION_KIND_LABELS,
  COLLECTION_MODE_LABELS,
  PAGE_TITLES,
  PAYMENT_MODES,
  REPORT_TEXTS,
  formatRupees,
  formatSlashDate,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { ReportPage } from './ReportPage';
import { NumbersUnbroken } from '../../components/NumbersUnbroken';
import { grouped } from './reportParts';

const texts = REPORT_TEXTS;
const c = texts.columns;
const t = texts.totalsLabels;

const columns: DataColumn<ReportRow<'collections'>>[] = [
  {
    key: 'date',
    header: c.date,
    width: '105px',
    nowrap: true,
    cell: (r) => formatSlashDate(r.date),
  },
  { key: 'time', header: c.time, width: '64px', nowrap: true, cell: (r) => r.time },
  { key: 'branch', header: c.branch, width: '76px', nowrap: true, cell: (r) => r.branch },
  {
    key: 'staff',
    header: c.staff,
    width: 'minmax(110px, 1fr)',
    cell: (r) => <NumbersUnbroken text={r.staff} />,
  },
  { key: 'kind', header: c.kind, width: '120px', cell: (r) => COLLECTION_KIND_LABELS[r.kind] },
  {
    key: 'receipt',
    header: c.receipt,
    width: 'minmax(120px, 1fr)',
    nowrap: true,
    cell: (r) => r.receipt,
  },
  { key: 'schemeid', header: c.schemeid, width: '84px', cell: (r) => r.schemeid ?? '' },
  {
    key: 'custname',
    header: c.custname,
    width: 'minmax(130px, 1.5fr)',
    cell: (r) => r.custname,
  },
  { key: 'mobileno', header: c.mobileno, width: '112px', nowrap: true, cell: (r) => r.mobileno },
  { key: 'mode', header: c.mode, width: '128px', cell: (r) => COLLECTION_MODE_LABELS[r.mode] },
  {
    key: 'amount',
    header: c.amount,
    width: '116px',
    align: 'right',
    nowrap: true,
    cell: (r) => formatRupees(r.amount),
  },
  {
    key: 'points',
    header: c.points,
    width: '88px',
    align: 'right',
    nowrap: true,
    cell: (r) => (r.points === null ? '' : grouped(r.points)),
  },
];

/**
 * Daily Collections (/home/daily-collections): the cash book. Under the rows, the till's
 * totals: installment rupees by mode, all of them, and the points redeemed with their value.
 */
export function CollectionsReportPage() {
  return (
    <ReportPage
      name="collections"
      title={PAGE_TITLES.collectionsReport}
      columns={columns}
      rowKey={(r) => `${r.kind}|${r.branch}|${r.receipt}`}
      minWidth={1320}
      footer={(totals) => [
        ...PAYMENT_MODES.map((mode, index) => ({
          key: mode,
          cells: {
            ...(index === 0 && { date: texts.totals }),
            mode: COLLECTION_MODE_LABELS[mode],
            amount: formatRupees(totals.byMode[mode]),
          },
        })),
        { key: 'collected', cells: { mode: t.collected, amount: formatRupees(totals.collected) } },
        {
          key: 'redeemed',
          cells: {
            mode: t.pointsRedeemed,
            amount: formatRupees(totals.redeemedValue),
            points: grouped(totals.pointsRedeemed),
          },
        },
      ]}
      counts={(totals) => [
        [t.installments, totals.installments],
        [t.redemptions, totals.redemptions],
        [t.cancelledRedemptions, totals.cancelledRedemptions],
      ]}
    />
  );
}
