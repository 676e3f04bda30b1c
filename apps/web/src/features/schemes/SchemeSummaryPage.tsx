import { useEffect, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import PlayArrowIcon from '@mui/icons-material/PlayCircleOutlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  SUMMARY_STATUS_OPTIONS,
  formatRupees,
  formatSchemeDate,
  isInactive,
  type InstallmentReceipt,
  type SchemeSummaryRow,
  type SummaryStatusLabel,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { DateField } from '../../components/DateField';
import { PageHeader } from '../../components/PageHeader';
import { saveFile } from '../../components/saveFile';
import { useStoreToday } from '../../components/useStoreToday';
import { readFailure } from '../../lib/api';
import { showAlert } from '../../lib/app-state';
import { financialYearQuery, summaryQuery, useActivateScheme, type SummaryFilter } from './api';
import { PaymentDialog, type PaymentValues } from './PaymentDialog';
import { SummaryPrint } from './PrintSheet';
import { ReceiptDialog } from './ReceiptDialog';
import { StatementModal } from './StatementModal';
import { SchemeLink } from './SchemeLink';
import { StatusChip } from './StatusChip';
import { SummaryTable, type SummaryColumn } from './SummaryTable';
import { sumAmounts, summaryCsv } from './schemeFormat';

const texts = SCHEME_TEXTS.summary;
const c = texts.columns;

const sameFilter = (a: SummaryFilter | null, b: SummaryFilter) =>
  a !== null &&
  a.selected === b.selected &&
  a.formData.mobileno === b.formData.mobileno &&
  a.formData.datefrom === b.formData.datefrom &&
  a.formData.dateto === b.formData.dateto;

/** Scheme Summary (/home/scheme-summary): schemes across customers, by status and start date. */
export function SchemeSummaryPage() {
  const today = useStoreToday();
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  const [status, setStatus] = useState<SummaryStatusLabel>('All');
  // null: the default (From: the financial year's start from get-fyear; To: today).
  const [fromInput, setFrom] = useState<string | null>(null);
  const [toInput, setTo] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<SummaryFilter | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [activating, setActivating] = useState<SchemeSummaryRow | null>(null);
  const [activateError, setActivateError] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<InstallmentReceipt | null>(null);

  const financialYear = useQuery(financialYearQuery);
  const summary = useQuery({ ...summaryQuery(submitted), placeholderData: keepPreviousData });
  const activate = useActivateScheme();

  useEffect(() => {
    // A failed financial-year fetch is logged only (the dates stay today).
    if (financialYear.error) console.error('Financial year fetch failed', financialYear.error);
  }, [financialYear.error]);

  useEffect(() => {
    if (!summary.error) return;
    const failure = readFailure(summary.error);
    if (failure.kind === 'refused')
      showAlert('warning', failure.message ?? MESSAGES.noMatchingRecords);
    else if (failure.kind === 'exception') showAlert('error', MESSAGES.summaryFailed);
  }, [summary.error, summary.errorUpdatedAt]);

  const from = fromInput ?? financialYear.data ?? today;
  const to = toInput ?? today;
  // Success false clears the list.
  const rows = summary.isError ? [] : (summary.data ?? []);
  const loading = summary.isFetching;

  const generate = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const filter: SummaryFilter = {
      selected: status,
      formData: { mobileno: customer?.MOBILENO ?? '', datefrom: from, dateto: to },
    };
    if (sameFilter(submitted, filter)) void summary.refetch();
    else setSubmitted(filter);
  };

  const activateScheme = (values: PaymentValues) => {
    if (!activating) return;
    setActivateError(null);
    activate.submit(
      { schemeid: activating.schemeid, ...values },
      {
        onSuccess: ({ message, receipt: made }) => {
          setActivating(null);
          setReceipt(made);
          showAlert('success', SCHEME_TEXTS.activation.activated(message, made.receiptNo));
        },
        onError: (error) => {
          const failure = readFailure(error);
          if (failure.kind === 'refused')
            setActivateError(failure.message ?? SCHEME_TEXTS.activation.activateFailed);
          else if (failure.kind === 'exception')
            showAlert('error', SCHEME_TEXTS.activation.activateFailed);
        },
      },
    );
  };

  // The tracks add up to the spec's 700 px minimum width.
  const columns: SummaryColumn<SchemeSummaryRow>[] = [
    {
      key: 'id',
      header: c.schemeId,
      width: '80px',
      cell: (row) => <SchemeLink schemeid={row.schemeid} />,
    },
    { key: 'name', header: c.name, width: 'minmax(120px, 2fr)', cell: (row) => row.custname },
    { key: 'mobile', header: c.mobile, width: '125px', cell: (row) => row.mobileno },
    {
      key: 'start',
      header: c.startDate,
      width: '120px',
      cell: (row) => formatSchemeDate(row.startdt),
    },
    {
      key: 'amount',
      header: c.amount,
      width: 'minmax(105px, 1fr)',
      align: 'right',
      cell: (row) => formatRupees(row.amount),
    },
    {
      key: 'status',
      header: c.status,
      width: '150px',
      cell: (row) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <StatusChip matyn={row.matyn} />
          {isInactive(row.matyn) && (
            <Button
              size="small"
              variant="outlined"
              startIcon={<PlayArrowIcon />}
              aria-label={SCHEME_TEXTS.activation.action(row.schemeid)}
              onClick={() => {
                setActivateError(null);
                setActivating(row);
              }}
            >
              {SCHEME_TEXTS.activation.button}
            </Button>
          )}
        </Box>
      ),
    },
  ];

  const printed = submitted ?? {
    selected: status,
    formData: { mobileno: '', datefrom: from, dateto: to },
  };

  return (
    <>
      <Box className="no-print">
        <PageHeader title={PAGE_TITLES.schemeSummary} />
        <Paper
          component="section"
          variant="outlined"
          aria-labelledby="scheme-summary-form"
          sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}
        >
          <Typography id="scheme-summary-form" component="h2" variant="h5" sx={{ mb: 2 }}>
            {texts.form}
          </Typography>
          <Box
            component="form"
            noValidate
            onSubmit={generate}
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '2fr 1fr 1fr 1fr auto' },
              alignItems: 'start',
            }}
          >
            <CustomerSearch
              value={customer}
              onSelect={setCustomer}
              label={texts.search}
              autoFocus
            />
            <TextField
              select
              label={texts.status}
              name="status"
              value={status}
              onChange={(event) => setStatus(event.target.value as SummaryStatusLabel)}
              fullWidth
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              {SUMMARY_STATUS_OPTIONS.map((option) => (
                <option key={option.id} value={option.label}>
                  {option.label}
                </option>
              ))}
            </TextField>
            <DateField label={texts.from} name="datefrom" value={from} onChange={setFrom} />
            <DateField label={texts.to} name="dateto" value={to} onChange={setTo} />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={loading}
              startIcon={
                loading ? (
                  <CircularProgress size={18} color="inherit" aria-label={texts.generating} />
                ) : undefined
              }
              sx={{ minHeight: 56, whiteSpace: 'nowrap' }}
            >
              {texts.generate}
            </Button>
          </Box>
        </Paper>

        <Box component="section" aria-label={texts.table}>
          <SummaryTable
            label={texts.table}
            columns={columns}
            rows={rows}
            rowKey={(row) => row.schemeid}
            emptyText={MESSAGES.noSummaryResults}
            footer={['', texts.total, '', '', formatRupees(sumAmounts(rows)), '']}
            loading={loading}
            loadingLabel={texts.generating}
            isClickable={(row) => !isInactive(row.matyn)}
            onRowClick={(row) => setViewing(row.schemeid)}
            clickHint={(row) => texts.openStatement(row.schemeid)}
          />
          <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<PrintIcon />}
              disabled={rows.length === 0}
              onClick={() => window.print()}
            >
              {texts.print}
            </Button>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={rows.length === 0}
              onClick={() =>
                saveFile(
                  summaryCsv(rows),
                  texts.csvFileName(printed.formData.datefrom, printed.formData.dateto),
                )
              }
            >
              {texts.downloadCsv}
            </Button>
          </Stack>
        </Box>
      </Box>

      {rows.length > 0 && (
        <SummaryPrint
          rows={rows}
          status={printed.selected}
          from={printed.formData.datefrom}
          to={printed.formData.dateto}
        />
      )}

      {viewing !== null && <StatementModal schemeid={viewing} onClose={() => setViewing(null)} />}
      {activating && (
        <PaymentDialog
          title={SCHEME_TEXTS.activation.title(activating.schemeid)}
          text={SCHEME_TEXTS.activation.text(formatRupees(activating.amount))}
          submitLabel={SCHEME_TEXTS.activation.activate}
          today={today}
          min={activating.startdt}
          pending={activate.isPending}
          error={activateError}
          onSubmit={activateScheme}
          onClose={() => setActivating(null)}
        />
      )}
      {receipt && <ReceiptDialog receipt={receipt} onClose={() => setReceipt(null)} />}
    </>
  );
}
