import {
  COLLECTION_KIND_LABELS,
  COLLECTION_MODE_LABELS,
  PAGE_TITLES,
  INSTALLMENT_MODES,
  REPORT_TEXTS,
  formatRupees,
  formatSlashDate,
} from '@kanak/contract';
import Box from '@mui/material/Box';
import { TwoLines, type DataColumn } from '../../components/DataTable';
import type { ReportRow } from './api';
import { ReportPage } from './ReportPage';
import { NumbersUnbroken } from '../../components/NumbersUnbroken';
import { grouped } from './reportParts';

const texts = REPORT_TEXTS;
const c = texts.columns;
const t = texts.totalsLabels;

/**
 * Every column in view beside the sidebar at 1366 and 1280 px: the date over its time, the
 * branch over its staff and the customer over their mobile, so the amounts and points are never
 * past the right edge.
 */
const columns: DataColumn<ReportRow<'collections'>>[] = [
  {
    key: 'when',
    header: c.dateTime,
    width: '96px',
    nowrap: true,
    // An installment entered on a later day than it is dated says so, and when it was entered.
    cell: (r) => (
      <TwoLines
        first={formatSlashDate(r.date)}
        second={
          r.date < r.enteredOn ? (
            <>
              {r.time}
              <Box
                component="span"
                sx={{ display: 'block', color: 'warning.dark', fontWeight: 600 }}
              >
                {texts.backdated}
              </Box>
              <Box component="span" sx={{ display: 'block' }}>
                {texts.enteredOn(formatSlashDate(r.enteredOn))}
              </Box>
            </>
          ) : (
            r.time
          )
        }
      />
    ),
  },
  {
    key: 'branchStaff',
    header: c.branchStaff,
    width: 'minmax(88px, 1fr)',
    // A staff name or a till's label, which may hold a serial number longer than the column:
    // it wraps inside the cell rather than run into the next one.
    cell: (r) => <TwoLines first={r.branch} second={r.staff} />,
  },
  { key: 'kind', header: c.kind, width: '98px', cell: (r) => COLLECTION_KIND_LABELS[r.kind] },
  {
    key: 'receipt',
    header: c.receipt,
    // A GST invoice number (up to 16 characters) on one line; a longer one wraps at its
    // separators, never inside its digits.
    width: 'minmax(152px, 1fr)',
    cell: (r) => <NumbersUnbroken text={r.receipt} />,
  },
  { key: 'schemeid', header: c.schemeid, width: '76px', cell: (r) => r.schemeid ?? '' },
  {
    key: 'customer',
    header: c.customerMobile,
    width: 'minmax(124px, 1.5fr)',
    cell: (r) => (
      <TwoLines
        first={r.custname}
        second={
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {r.mobileno}
          </Box>
        }
      />
    ),
  },
  { key: 'mode', header: c.mode, width: '92px', cell: (r) => COLLECTION_MODE_LABELS[r.mode] },
  {
    key: 'amount',
    header: c.amount,
    width: '120px',
    align: 'right',
    nowrap: true,
    cell: (r) => formatRupees(r.amount),
  },
  {
    key: 'points',
    header: c.points,
    width: '92px',
    align: 'right',
    nowrap: true,
    cell: (r) => (r.points === null ? '' : grouped(r.points)),
  },
];

/**
 * Daily Collections (/home/daily-collections): the cash book. Under the rows, the till's
 * totals: installment rupees by mode, all of them, and the points redeemed with their value,
 * whether the billing system posted them or staff redeemed them on Redeem Points.
 * Installments are listed by the day they are dated, or by the day they were entered (what
 * the counter took in that day, whatever date it was given); a backdated one is marked.
 */
export function CollectionsReportPage() {
  return (
    <ReportPage
      name="collections"
      title={PAGE_TITLES.collectionsReport}
      columns={columns}
      // Points redeemed by staff may name the billing system's bill, or none: their ledger entry
      // tells them apart.
      rowKey={(r) => (r.entry === undefined ? `${r.kind}|${r.branch}|${r.receipt}` : r.entry)}
      minWidth={942}
      footer={(totals) => [
        ...INSTALLMENT_MODES.map((mode, index) => ({
          key: mode,
          cells: {
            ...(index === 0 && { when: texts.totals }),
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
        // Installments entered later than they are dated, counted once there are any.
        ...(totals.backdated > 0 ? [[t.backdated, totals.backdated] as [string, number]] : []),
      ]}
    />
  );
}
