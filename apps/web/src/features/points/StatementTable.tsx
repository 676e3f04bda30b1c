import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import EditIcon from '@mui/icons-material/EditOutlined';
import {
  ENTRY_SOURCE,
  LEDGER_CODE_LABELS,
  LEDGER_TEXTS,
  LIMITS,
  MESSAGES,
  formatRupees,
  formatSlashDate,
  statementTotals,
  type StatementRow,
} from '@kanak/contract';
import { DataTable, visuallyHidden, type DataColumn } from '../../components/DataTable';
import { useMayCall } from '../../lib/me';
import { formatPoints } from './pointsEntry';
import { rowDate, type Statement } from './statementLedger';

const texts = LEDGER_TEXTS.statement;
const c = texts.columns;

/** Rows from the counters and the expiry say what they are: Sale, Return, Redemption, Expired. */
function EntryKind({ code }: { code: string }) {
  if (code === ENTRY_SOURCE.manual || code === ENTRY_SOURCE.opening) return null;
  const label = LEDGER_CODE_LABELS[code as keyof typeof LEDGER_CODE_LABELS];
  if (!label) return null;
  return (
    <Box
      component="span"
      sx={{
        mr: 1,
        px: 0.75,
        py: 0.125,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        fontSize: '0.75rem',
        whiteSpace: 'nowrap',
      }}
    >
      {label}
    </Box>
  );
}

export interface StatementTableProps {
  statement: Statement | null;
  loading: boolean;
  onEdit: (row: StatementRow) => void;
}

/** Edit icon, Date, Narration, Sale Amt., Credit, Debit; then Total and Balance. */
export function StatementTable({ statement, loading, onEdit }: StatementTableProps) {
  // Corrections of the ledger are a manager's.
  const mayEdit = useMayCall('updateStatement');
  const rows = statement?.rows ?? [];
  const dfrom = statement?.filter.DFROM ?? '';
  const { total, balance } = statementTotals([...rows]);

  const columns: DataColumn<StatementRow>[] = [
    {
      key: 'edit',
      header: <Box sx={visuallyHidden}>{c.edit}</Box>,
      width: '52px',
      align: 'center',
      cell: (row) =>
        row.TS === ENTRY_SOURCE.manual && mayEdit ? (
          <IconButton
            size="small"
            onClick={() => onEdit(row)}
            aria-label={texts.editEntry(formatSlashDate(rowDate(row, dfrom)), row.NARRATION)}
            sx={{ color: 'primary.main', my: -0.5 }}
          >
            <EditIcon fontSize="small" />
          </IconButton>
        ) : null,
    },
    {
      key: 'date',
      header: c.date,
      width: '120px',
      nowrap: true,
      cell: (row) => formatSlashDate(rowDate(row, dfrom)),
    },
    {
      key: 'narration',
      header: c.narration,
      width: 'minmax(0, 1fr)',
      cell: (row) => (
        <>
          <EntryKind code={row.TS} />
          {row.NARRATION}
        </>
      ),
    },
    {
      key: 'sale',
      header: c.sale,
      nowrap: true,
      width: '130px',
      align: 'right',
      cell: (row) => (row.SALEAMT ? formatRupees(row.SALEAMT) : ''),
    },
    {
      key: 'credit',
      header: c.credit,
      nowrap: true,
      width: '100px',
      align: 'right',
      cell: (row) => formatPoints(row.RCREDIT),
    },
    {
      key: 'debit',
      header: c.debit,
      nowrap: true,
      width: '100px',
      align: 'right',
      cell: (row) => formatPoints(row.RDEBIT),
    },
  ];

  return (
    <DataTable
      label={texts.table}
      columns={columns}
      rows={rows}
      rowKey={(row) => row.MRN}
      bodyHeight={LIMITS.pointsTableBodyHeightPx}
      minWidth={LIMITS.pointsTableMinWidthPx}
      emptyText={MESSAGES.noStatement}
      loading={loading}
      loadingLabel={texts.generating}
      footer={
        rows.length > 0
          ? [
              {
                key: 'total',
                cells: [
                  null,
                  texts.total,
                  null,
                  formatRupees(total.sale),
                  formatPoints(total.credit),
                  formatPoints(total.debit),
                ],
              },
              {
                key: 'balance',
                cells: [
                  null,
                  texts.balance,
                  null,
                  null,
                  formatPoints(balance.credit),
                  formatPoints(balance.debit),
                ],
              },
            ]
          : []
      }
    />
  );
}
