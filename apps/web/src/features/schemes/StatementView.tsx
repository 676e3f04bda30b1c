import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import {
  MESSAGES,
  SCHEME_PLAN_TEXTS,
  SCHEME_TEXTS,
  formatGrams,
  formatRupees,
  formatSchemeDate,
  type SchemeRecord,
  type SchemeStatementRow,
  maturityOf,
} from '@kanak/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { isWeight, sumAmounts, sumMilligrams } from './schemeFormat';
import { StatusChip } from './StatusChip';

const texts = SCHEME_TEXTS.statement;
const c = texts.columns;
const planTexts = SCHEME_PLAN_TEXTS;

/** A weight scheme's columns, after the amount: the rate and the grams it bought. */
const goldColumns: DataColumn<SchemeStatementRow>[] = [
  {
    key: 'rate',
    header: planTexts.colRate,
    width: '110px',
    align: 'right',
    nowrap: true,
    cell: (row) => (row.rate22k == null ? '' : formatRupees(row.rate22k)),
  },
  {
    key: 'grams',
    header: planTexts.colGrams,
    width: '100px',
    align: 'right',
    nowrap: true,
    cell: (row) => (row.mg == null ? '' : formatGrams(row.mg)),
  },
];

const columnsFor = (
  onReprint: ((row: SchemeStatementRow, index: number) => void) | undefined,
  weight: boolean,
): DataColumn<SchemeStatementRow>[] => [
  { key: 'sno', header: c.sno, width: '72px', cell: (_row, i) => i + 1 },
  { key: 'date', header: c.date, width: '150px', cell: (row) => formatSchemeDate(row.date) },
  {
    key: 'narration',
    header: c.narration,
    width: 'minmax(0, 1fr)',
    cell: (row) =>
      row.late ? (
        <span>
          {row.narration}{' '}
          <Chip size="small" color="warning" label={planTexts.late} title={planTexts.lateHint} />
        </span>
      ) : (
        row.narration
      ),
  },
  {
    key: 'receipt',
    header: c.receipt,
    width: '130px',
    cell: (row, i) =>
      row.receiptNo ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          {row.receiptNo}
          {onReprint && (
            <Tooltip title={texts.reprint(row.receiptNo)}>
              <IconButton
                size="small"
                aria-label={texts.reprint(row.receiptNo)}
                onClick={() => onReprint(row, i)}
              >
                <PrintIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      ) : null,
  },
  {
    key: 'amount',
    header: c.amount,
    width: '140px',
    align: 'right',
    nowrap: true,
    cell: (row) => formatRupees(row.amount),
  },
  ...(weight ? goldColumns : []),
];

/**
 * S no., Installment Date, Narration, Receipt no. (with a reprint action when `onReprint` is
 * given) and Amount, with the ₹ total underneath; a weight scheme adds each row's 22K rate and
 * grams, and the total grams.
 */
export function StatementTable({
  rows,
  loading,
  bodyHeight = 280,
  onReprint,
}: {
  rows: readonly SchemeStatementRow[];
  loading: boolean;
  bodyHeight?: number;
  onReprint?: (row: SchemeStatementRow, index: number) => void;
}) {
  const weight = isWeight(rows);
  const columns = columnsFor(onReprint, weight);
  const totals: Record<string, string> = {
    date: texts.total,
    amount: formatRupees(sumAmounts(rows)),
    ...(weight ? { grams: formatGrams(sumMilligrams(rows)) } : {}),
  };
  return (
    <DataTable
      label={texts.table}
      columns={columns}
      rows={rows}
      rowKey={(row) => `${row.date}|${row.narration}`}
      bodyHeight={bodyHeight}
      minWidth={weight ? 890 : 680}
      emptyText={MESSAGES.noResults}
      loading={loading}
      loadingLabel={texts.generating}
      footer={[{ key: 'total', cells: columns.map((column) => totals[column.key] ?? '') }]}
    />
  );
}

/** Status, start and maturity dates, the monthly amount and how many installments are paid. */
export function SchemeFacts({ scheme }: { scheme: SchemeRecord }) {
  const facts: [string, ReactNode][] = [
    [texts.status, <StatusChip key="status" status={scheme.matyn} />],
    [texts.startDate, formatSchemeDate(scheme.startdt)],
    [texts.maturityDate, formatSchemeDate(maturityOf(scheme))],
    [texts.monthly, formatRupees(scheme.amount)],
    [texts.installmentsLabel, texts.paid(scheme.paid, scheme.installments)],
  ];
  if (scheme.kind === 'weight' && scheme.mg !== undefined) {
    facts.push([planTexts.gold, planTexts.grams(formatGrams(scheme.mg))]);
  }
  if (scheme.redeemBy) facts.push([planTexts.redeemBy, formatSchemeDate(scheme.redeemBy)]);
  return (
    <Box
      component="dl"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        columnGap: 4,
        rowGap: 1.5,
        m: 0,
        mb: 2,
        '& dt': { color: 'text.secondary', fontSize: 13 },
        '& dd': { m: 0, fontWeight: 600, minHeight: 24, display: 'flex', alignItems: 'center' },
      }}
    >
      {facts.map(([term, value]) => (
        <div key={term}>
          <Typography component="dt">{term}</Typography>
          <Typography component="dd">{value}</Typography>
        </div>
      ))}
    </Box>
  );
}
