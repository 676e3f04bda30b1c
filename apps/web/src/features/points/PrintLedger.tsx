import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  LEDGER_TEXTS,
  formatLedgerPrintDate,
  formatRupees,
  statementTotals,
} from '@kanak/contract';
import { PRINT_CELL_SX, PRINT_NUMBER_SX, PrintFrame } from '../../components/PrintFrame';
import { formatPoints } from './pointsEntry';
import { rowDate, type Statement } from './statementLedger';

const texts = LEDGER_TEXTS.statement;

const cellSx = PRINT_CELL_SX;
const numberSx = PRINT_NUMBER_SX;

/**
 * The printed ledger: the shop's heading, its address and mobile, the date range
 * (DD-MMM-YY), the rows, then Total and Balance. Hidden on screen; the only thing printed.
 */
export function PrintLedger({ statement }: { statement: Statement }) {
  const { filter, rows, custname } = statement;
  const { total, balance } = statementTotals([...rows]);
  const c = texts.columns;

  return (
    <PrintFrame testId="print-ledger">
      <Typography sx={{ mt: 2 }}>{texts.printCustomer(custname, filter.MOBILENO)}</Typography>
      <Typography sx={{ fontWeight: 600 }}>
        {texts.printRange(formatLedgerPrintDate(filter.DFROM), formatLedgerPrintDate(filter.DTO))}
      </Typography>
      <Box component="table">
        <thead>
          <tr>
            <Box component="th" sx={{ ...cellSx, width: '14%' }}>
              {c.date}
            </Box>
            <Box component="th" sx={cellSx}>
              {c.narration}
            </Box>
            <Box component="th" sx={{ ...numberSx, width: '16%' }}>
              {c.sale}
            </Box>
            <Box component="th" sx={{ ...numberSx, width: '12%' }}>
              {c.credit}
            </Box>
            <Box component="th" sx={{ ...numberSx, width: '12%' }}>
              {c.debit}
            </Box>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.MRN}>
              <Box component="td" sx={{ ...cellSx, whiteSpace: 'nowrap' }}>
                {formatLedgerPrintDate(rowDate(row, filter.DFROM))}
              </Box>
              <Box component="td" sx={cellSx}>
                {row.NARRATION}
              </Box>
              <Box component="td" sx={numberSx}>
                {row.SALEAMT ? formatRupees(row.SALEAMT) : ''}
              </Box>
              <Box component="td" sx={numberSx}>
                {formatPoints(row.RCREDIT)}
              </Box>
              <Box component="td" sx={numberSx}>
                {formatPoints(row.RDEBIT)}
              </Box>
            </tr>
          ))}
        </tbody>
        <Box component="tfoot" sx={{ fontWeight: 700 }}>
          <tr>
            <Box component="th" scope="row" colSpan={2} sx={cellSx}>
              {texts.total}
            </Box>
            <Box component="td" sx={numberSx}>
              {formatRupees(total.sale)}
            </Box>
            <Box component="td" sx={numberSx}>
              {formatPoints(total.credit)}
            </Box>
            <Box component="td" sx={numberSx}>
              {formatPoints(total.debit)}
            </Box>
          </tr>
          <tr>
            <Box component="th" scope="row" colSpan={2} sx={cellSx}>
              {texts.balance}
            </Box>
            <Box component="td" sx={numberSx} />
            <Box component="td" sx={numberSx}>
              {formatPoints(balance.credit)}
            </Box>
            <Box component="td" sx={numberSx}>
              {formatPoints(balance.debit)}
            </Box>
          </tr>
        </Box>
      </Box>
    </PrintFrame>
  );
}
