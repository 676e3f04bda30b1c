import Box from '@mui/material/Box';
import {
  SCHEME_TEXTS,
  formatRupees,
  formatSchemeDate,
  isInactive,
  type SchemeSummaryRow,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { SchemeLink } from '../../components/SchemeLink';
import { ActivateButton } from './ActivateScheme';
import { StatusChip } from './StatusChip';

const c = SCHEME_TEXTS.summary.columns;

/**
 * The summary's columns: Scheme ID (a link to its statement), name, mobile, start date, amount
 * and status, an Inactive scheme's with Activate when `onActivate` is given. The tracks add up
 * to the spec's 700 px minimum width.
 */
export const summaryColumns = (
  onActivate: ((row: SchemeSummaryRow) => void) | null,
): DataColumn<SchemeSummaryRow>[] => [
  {
    key: 'id',
    header: c.schemeId,
    width: '80px',
    cell: (row) => <SchemeLink schemeid={row.schemeid} />,
  },
  { key: 'name', header: c.name, width: 'minmax(120px, 2fr)', cell: (row) => row.custname },
  {
    key: 'mobile',
    header: c.mobile,
    width: '125px',
    nowrap: true,
    cell: (row) => row.mobileno,
  },
  {
    key: 'start',
    header: c.startDate,
    width: '120px',
    nowrap: true,
    cell: (row) => formatSchemeDate(row.startdt),
  },
  {
    key: 'amount',
    header: c.amount,
    width: 'minmax(105px, 1fr)',
    align: 'right',
    nowrap: true,
    cell: (row) => formatRupees(row.amount),
  },
  {
    key: 'status',
    header: c.status,
    width: '150px',
    cell: (row) => (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <StatusChip status={row.matyn} />
        {isInactive(row.matyn) && onActivate && (
          <ActivateButton schemeid={row.schemeid} onClick={() => onActivate(row)} />
        )}
      </Box>
    ),
  },
];
