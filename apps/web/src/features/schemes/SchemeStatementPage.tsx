import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/AddCard';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  formatMonth,
  formatRupees,
  isInactive,
  type InstallmentReceipt,
  type SchemeStatementRow,
  IMPORTED_MODE,
} from '@kanak/contract';
import { useSearchParams } from 'react-router';
import { FilterPanel, GenerateButton } from '../../components/FilterPanel';
import { SHOWN_ONLY } from '../../components/shownOnly';
import { PageHeader } from '../../components/PageHeader';
import { saveFile } from '../../components/saveFile';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useMayCall } from '../../lib/me';
import { ActivateButton, ActivateSchemeDialog } from './ActivateScheme';
import { statementQuery, useAddInstallment, useCloseScheme } from './api';
import { CloseSchemeDialog } from './CloseSchemeDialog';
import { PaymentDialog, type PaymentValues } from './PaymentDialog';
import { StatementPrint } from './PrintSheet';
import { ReceiptDialog } from '../../components/ReceiptDialog';
import { canClose, installmentMonths, statementCsv } from './schemeFormat';
import { SchemeFacts, StatementTable } from './StatementView';

const texts = SCHEME_TEXTS.statement;

/** Scheme Statement (/home/scheme-statement): one scheme's installments, print and CSV. */
export function SchemeStatementPage() {
  const today = useStoreToday();
  // Opened from a scheme list (?schemeid=N): that scheme's statement at once.
  const [searchParams] = useSearchParams();
  const linked = /^\d{1,10}$/.test(searchParams.get('schemeid') ?? '')
    ? Number(searchParams.get('schemeid'))
    : null;
  const [idInput, setIdInput] = useState(linked === null ? '' : String(linked));
  const [submitted, setSubmitted] = useState<number | null>(linked);
  // Another scheme's link while this screen is open: show that scheme.
  const [shownLink, setShownLink] = useState(linked);
  if (linked !== shownLink) {
    setShownLink(linked);
    if (linked !== null) {
      setIdInput(String(linked));
      setSubmitted(linked);
    }
  }
  // This month's installment, or next month's taken in advance.
  const [adding, setAdding] = useState<'month' | 'advance' | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const [activating, setActivating] = useState(false);
  const [receipt, setReceipt] = useState<{
    receipt: InstallmentReceipt;
    duplicate: boolean;
  } | null>(null);
  const mayActivate = useMayCall('activateScheme');
  const mayAdd = useMayCall('addInstallment');
  const mayClose = useMayCall('closeScheme');
  const [closing, setClosing] = useState(false);
  const [closeError, setCloseError] = useState<string | null>(null);

  const result = useQuery({ ...statementQuery(submitted), placeholderData: keepPreviousData });
  const addInstallment = useAddInstallment();
  const close = useCloseScheme();

  useEffect(() => {
    if (result.error) reportFailure(result.error, MESSAGES.statementFailed, 'warn');
  }, [result.error, result.errorUpdatedAt]);

  // A failed (re)generation clears the screen rather than leave an older statement up.
  const statement = result.isError ? null : (result.data ?? null);
  const scheme = statement?.scheme ?? null;
  const rows = statement?.rows ?? [];
  const loading = result.isFetching;
  const months = scheme ? installmentMonths(scheme, rows, today) : null;

  const generate = () => {
    const id = idInput.replace(/\s+/g, '');
    if (id === '') return showAlert('warning', MESSAGES.schemeIdRequired);
    if (!/^\d{1,10}$/.test(id)) return showAlert('warning', MESSAGES.schemeIdDigits);
    if (Number(id) === submitted) void result.refetch();
    else setSubmitted(Number(id));
  };

  const record = (values: PaymentValues) => {
    if (!scheme) return;
    setAddError(null);
    addInstallment.submit(
      { schemeid: scheme.schemeid, ...values, ...(adding === 'advance' ? { advance: true } : {}) },
      {
        onSuccess: ({ message, receipt: made }) => {
          setAdding(null);
          setReceipt({ receipt: made, duplicate: false });
          if (message) showAlert('success', message);
        },
        onError: (error) =>
          reportFailure(error, SCHEME_TEXTS.installment.recordFailed, (message) =>
            setAddError(message ?? SCHEME_TEXTS.installment.recordFailed),
          ),
      },
    );
  };

  const confirmClose = () => {
    if (!scheme) return;
    setCloseError(null);
    close.submit(scheme.schemeid, {
      onSuccess: ({ message, maturityValue }) => {
        setClosing(false);
        showAlert('success', SCHEME_TEXTS.close.closed(message, formatRupees(maturityValue)));
      },
      onError: (error) =>
        reportFailure(error, SCHEME_TEXTS.close.closeFailed, (message) =>
          setCloseError(message ?? SCHEME_TEXTS.close.closeFailed),
        ),
    });
  };

  const reprint = (row: SchemeStatementRow, index: number) => {
    // An installment imported from other software has no Kanak receipt to print again.
    if (!statement || !scheme || !row.receiptNo || row.mode === IMPORTED_MODE) return;
    setReceipt({
      duplicate: true,
      receipt: {
        receiptNo: row.receiptNo,
        branch: row.branch ?? null,
        schemeid: scheme.schemeid,
        custname: statement.custname,
        mobileno: statement.mobileno,
        date: row.date,
        amount: row.amount,
        mode: row.mode ?? 'cash',
        reference: row.reference ?? '',
        installmentNo: index + 1,
        installments: scheme.installments,
        forMonth: row.period ?? row.date.slice(0, 7),
        // The rows before it are its scheme's earlier installments, in the order paid.
        paidSoFar: rows.slice(0, index + 1).reduce((sum, earlier) => sum + earlier.amount, 0),
        rate22k: row.rate22k,
        mg: row.mg,
      },
    });
  };

  const downloadCsv = () => {
    if (scheme) saveFile(statementCsv(rows), texts.csvFileName(scheme.schemeid));
  };

  return (
    <>
      <Box className="no-print">
        <PageHeader title={PAGE_TITLES.schemeStatement} />
        <FilterPanel
          title={texts.form}
          columns={{ sm: '1fr auto', lg: '1fr auto 1.5fr 1fr' }}
          onSubmit={generate}
        >
          <TextField
            label={texts.schemeId}
            name="schemeid"
            value={idInput}
            // As typed: "abc" is told it is no Scheme ID, not that the box is blank.
            onChange={(event) => setIdInput(event.target.value)}
            autoFocus
            autoComplete="off"
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 20 } }}
          />
          <GenerateButton pending={loading} pendingLabel={texts.generating}>
            {texts.generate}
          </GenerateButton>
          <TextField
            label={texts.name}
            value={statement?.custname ?? ''}
            fullWidth
            slotProps={SHOWN_ONLY}
          />
          <TextField
            label={texts.mobile}
            value={statement?.mobileno ?? ''}
            fullWidth
            slotProps={SHOWN_ONLY}
          />
        </FilterPanel>

        <Box component="section" aria-label={texts.table}>
          {scheme && (
            <Box
              sx={{
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'flex-start',
                justifyContent: 'space-between',
                columnGap: 2,
              }}
            >
              <SchemeFacts scheme={scheme} />
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
                {isInactive(scheme.matyn) && mayActivate && (
                  <ActivateButton schemeid={scheme.schemeid} onClick={() => setActivating(true)} />
                )}
                {months?.open && mayAdd && (
                  <Button
                    variant="contained"
                    startIcon={<AddIcon />}
                    disabled={!months.mayTakeThisMonth}
                    aria-describedby={months.mayTakeThisMonth ? undefined : 'installment-taken'}
                    onClick={() => {
                      setAddError(null);
                      setAdding('month');
                    }}
                  >
                    {texts.addInstallment}
                  </Button>
                )}
                {months && mayAdd && months.mayTakeAdvance && (
                  <Button
                    variant="outlined"
                    startIcon={<AddIcon />}
                    onClick={() => {
                      setAddError(null);
                      setAdding('advance');
                    }}
                  >
                    {SCHEME_TEXTS.installment.advanceButton(formatMonth(months.nextMonth))}
                  </Button>
                )}
                {canClose(scheme, today) && mayClose && (
                  <Button
                    variant="outlined"
                    startIcon={<DoneAllIcon />}
                    onClick={() => {
                      setCloseError(null);
                      setClosing(true);
                    }}
                  >
                    {texts.closeScheme}
                  </Button>
                )}
              </Stack>
              {months?.open && mayAdd && months.thisMonthPaid && (
                <Typography id="installment-taken" sx={{ flexBasis: '100%', mb: 2 }}>
                  {SCHEME_TEXTS.installment.monthPaid(formatMonth(months.thisMonth))}
                  {months.nextMonthPaid &&
                    ` ${SCHEME_TEXTS.installment.nextAlsoPaid(formatMonth(months.nextMonth))}`}
                </Typography>
              )}
            </Box>
          )}
          <StatementTable rows={rows} loading={loading} onReprint={reprint} />
          <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<PrintIcon />}
              disabled={!scheme || rows.length === 0}
              onClick={() => window.print()}
            >
              {texts.print}
            </Button>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={!scheme || rows.length === 0}
              onClick={downloadCsv}
            >
              {texts.downloadCsv}
            </Button>
          </Stack>
        </Box>
      </Box>

      {statement && <StatementPrint statement={statement} />}

      {adding && scheme && months && (
        <PaymentDialog
          title={
            adding === 'advance'
              ? SCHEME_TEXTS.installment.advanceTitle(
                  scheme.schemeid,
                  formatMonth(months.nextMonth),
                )
              : SCHEME_TEXTS.installment.title(scheme.schemeid)
          }
          text={
            adding === 'advance'
              ? SCHEME_TEXTS.installment.advanceText(
                  formatRupees(scheme.amount),
                  formatMonth(months.nextMonth),
                )
              : SCHEME_TEXTS.installment.text(formatRupees(scheme.amount))
          }
          submitLabel={SCHEME_TEXTS.installment.record}
          today={today}
          min={scheme.startdt}
          pending={addInstallment.isPending}
          error={addError}
          onSubmit={record}
          onClose={() => setAdding(null)}
        />
      )}
      {activating && scheme && (
        <ActivateSchemeDialog scheme={scheme} onClose={() => setActivating(false)} />
      )}
      {closing && scheme && (
        <CloseSchemeDialog
          scheme={scheme}
          pending={close.isPending}
          error={closeError}
          onConfirm={confirmClose}
          onCancel={() => setClosing(false)}
        />
      )}
      {receipt && (
        <ReceiptDialog
          receipt={receipt.receipt}
          duplicate={receipt.duplicate}
          onClose={() => setReceipt(null)}
        />
      )}
    </>
  );
}
