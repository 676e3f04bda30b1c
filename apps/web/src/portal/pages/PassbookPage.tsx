import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatRupees, PORTAL_TEXTS } from '@kanak/contract';
import { passbook, type PassbookRow } from '../api';
import { formatDate, formatGrams } from '../format';
import {
  BackLink,
  LinkButton,
  LoadFailed,
  Loading,
  Notice,
  ScreenTitle,
  PHONE_TABLE,
} from '../parts';
import { PrintButton, Receipt } from '../Receipt';
import { portalPaths } from '../router';
import { NextInstallment } from '../SchemeFigures';
import { useLoad } from '../useLoad';

const texts = PORTAL_TEXTS.passbook;
const homeTexts = PORTAL_TEXTS.home;

/** The gold a weight scheme's installments bought; none for a scheme paid in rupees. */
const goldOf = (rows: PassbookRow[]) =>
  rows.some((row) => row.grams !== undefined)
    ? rows.reduce((sum, row) => sum + (row.grams ?? 0), 0)
    : undefined;

/** A scheme's passbook: every installment paid, each with its receipt to open and print. */
export function PassbookPage({ schemeid }: { schemeid: number }) {
  const { state, reload } = useLoad(() => passbook(schemeid), String(schemeid));
  const gold = state.status === 'done' ? goldOf(state.data.rows) : undefined;
  return (
    <>
      <BackLink />
      <ScreenTitle>{texts.title(schemeid)}</ScreenTitle>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <LoadFailed error={state.error} retry={reload} />}
      {state.status === 'done' && (
        <>
          <Box sx={{ mb: 2 }}>
            <Typography>{homeTexts.installment(formatRupees(state.data.scheme.amount))}</Typography>
            <Typography>
              {homeTexts.paidOf(state.data.scheme.paid, state.data.scheme.installments)}
            </Typography>
            {gold !== undefined && <Typography>{texts.totalGold(formatGrams(gold))}</Typography>}
            <NextInstallment scheme={state.data.scheme} />
          </Box>
          {state.data.rows.length === 0 ? (
            <Typography>{texts.none}</Typography>
          ) : (
            <Table size="small" aria-label={texts.table} sx={PHONE_TABLE}>
              <TableHead>
                <TableRow>
                  <TableCell>{texts.no}</TableCell>
                  <TableCell>{texts.date}</TableCell>
                  <TableCell align="right">{texts.amount}</TableCell>
                  <TableCell>{texts.receipt}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {state.data.rows.map((row) => (
                  <TableRow key={row.receiptNo}>
                    <TableCell>{row.no}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(row.date)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {formatRupees(row.amount)}
                      <Typography
                        variant="body2"
                        color="text.secondary"
                        component="span"
                        sx={{ display: 'block' }}
                      >
                        {PORTAL_TEXTS.modes[row.mode] ?? row.mode}
                        {row.grams !== undefined && ` · ${formatGrams(row.grams)} g`}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <LinkButton
                        to={portalPaths.receipt(schemeid, row.receiptNo)}
                        size="small"
                        aria-label={texts.open(row.receiptNo)}
                        sx={{ whiteSpace: 'nowrap', minWidth: 0, px: 0.5 }}
                      >
                        {row.receiptNo}
                      </LinkButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </>
      )}
    </>
  );
}

/** One receipt of the passbook, to read and print. */
export function ReceiptPage({ schemeid, receiptNo }: { schemeid: number; receiptNo: string }) {
  const { state, reload } = useLoad(() => passbook(schemeid), String(schemeid));
  const row =
    state.status === 'done' ? state.data.rows.find((r) => r.receiptNo === receiptNo) : undefined;
  return (
    <>
      <Box className="no-print">
        <LinkButton to={portalPaths.passbook(schemeid)} sx={{ mb: 1, px: 0 }}>
          {`← ${texts.title(schemeid)}`}
        </LinkButton>
      </Box>
      <Box className="no-print">
        <ScreenTitle>{PORTAL_TEXTS.receipt.title}</ScreenTitle>
      </Box>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <LoadFailed error={state.error} retry={reload} />}
      {state.status === 'done' &&
        (row ? (
          <>
            <Receipt
              receipt={{
                receiptNo: row.receiptNo,
                date: row.date,
                amount: row.amount,
                mode: row.mode,
                schemeid,
                installmentNo: row.no,
                installments: state.data.scheme.installments,
                forMonth: row.forMonth,
                paymentId: row.paymentId,
                rate: row.rate,
                grams: row.grams,
              }}
            />
            <PrintButton />
          </>
        ) : (
          <Notice tone="error">{PORTAL_TEXTS.receipt.notFound}</Notice>
        ))}
    </>
  );
}
