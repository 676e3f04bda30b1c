import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  SUMMARY_STATUS_OPTIONS,
  formatRupees,
  formatSchemeDate,
  isInactive,
  type SchemeSummaryRow,
  type SummaryStatusLabel,
} from '@kanak/contract';
import { CustomerSearch, type CustomerOption } from '../../components/CustomerSearch';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { SelectField } from '../../components/SelectField';
import { FilterPanel, GenerateButton } from '../../components/FilterPanel';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { SubmitButton } from '../../components/SubmitButton';
import { saveFile } from '../../components/saveFile';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useMayCall } from '../../lib/me';
import { fetchWholeSummary, financialYearQuery, summaryQuery, type SummaryFilter } from './api';
import { ActivateButton, ActivateSchemeDialog } from './ActivateScheme';
import { SummaryPrint } from './PrintSheet';
import { StatementModal } from './StatementModal';
import { SchemeLink } from '../../components/SchemeLink';
import { StatusChip } from './StatusChip';
import { summaryCsv } from './schemeFormat';

const texts = SCHEME_TEXTS.summary;
const c = texts.columns;

const sameFilter = (a: SummaryFilter | null, b: SummaryFilter) =>
  a !== null &&
  a.selected === b.selected &&
  a.formData.mobileno === b.formData.mobileno &&
  a.formData.datefrom === b.formData.datefrom &&
  a.formData.dateto === b.formData.dateto;

/**
 * Scheme Summary (/home/scheme-summary): schemes across customers, by status and start date,
 * a page at a time with the count and amount of the whole filter. Print and CSV cover the
 * whole filter: when it has more than one page, every row is fetched in one answer when
 * pressed (the original call: one consistent read, where page after page could miss or repeat
 * a scheme added meanwhile).
 */
export function SchemeSummaryPage() {
  const today = useStoreToday();
  const [customer, setCustomer] = useState<CustomerOption | null>(null);
  // The customer the counter home chose comes with the address: their schemes, to take an
  // installment.
  usePreselectedCustomer(customer, setCustomer);
  const [status, setStatus] = useState<SummaryStatusLabel>('All');
  // null: the default (From: the financial year's start from get-fyear; To: today).
  const [fromInput, setFrom] = useState<string | null>(null);
  const [toInput, setTo] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<SummaryFilter | null>(null);
  const [page, setPage] = useState(1);
  // Every row of the filter, fetched for Print; the sheet shows them while the filter stands.
  const [printed, setPrinted] = useState<{
    filter: SummaryFilter;
    rows: SchemeSummaryRow[];
  } | null>(null);
  const [printRequests, setPrintRequests] = useState(0);
  const [fetchingAll, setFetchingAll] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const [activating, setActivating] = useState<SchemeSummaryRow | null>(null);
  const mayActivate = useMayCall('activateScheme');

  const financialYear = useQuery(financialYearQuery);
  const summary = useQuery({
    ...summaryQuery(submitted, page),
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    // A failed financial-year fetch is logged only (the dates stay today).
    if (financialYear.error) console.error('Financial year fetch failed', financialYear.error);
  }, [financialYear.error]);

  // Printed after the sheet holds every row.
  useEffect(() => {
    if (printRequests > 0) window.print();
  }, [printRequests]);

  useEffect(() => {
    if (!summary.error) return;
    reportFailure(summary.error, MESSAGES.summaryFailed, (message) =>
      showAlert('warning', message ?? MESSAGES.noMatchingRecords),
    );
  }, [summary.error, summary.errorUpdatedAt]);

  const from = fromInput ?? financialYear.data ?? today;
  const to = toInput ?? today;
  // Success false clears the list.
  const shown = summary.isError ? undefined : summary.data;
  const rows = shown?.rows ?? [];
  const count = shown?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / LIMITS.summaryPageSize));
  // One page holds the whole filter: Print and CSV need nothing more.
  const wholeOnScreen = count <= rows.length;
  const loading = summary.isFetching;

  const generate = () => {
    if (loading) return;
    const filter: SummaryFilter = {
      selected: status,
      formData: { mobileno: customer?.MOBILENO ?? '', datefrom: from, dateto: to },
    };
    setPage(1);
    if (sameFilter(submitted, filter) && page === 1) void summary.refetch();
    else if (!sameFilter(submitted, filter)) setSubmitted(filter);
  };

  /** Every row of the shown filter: this page's, or all of them fetched; null if that failed. */
  const everyRow = async (): Promise<SchemeSummaryRow[] | null> => {
    if (wholeOnScreen || !submitted) return rows;
    setFetchingAll(true);
    try {
      return await fetchWholeSummary(submitted);
    } catch (error) {
      reportFailure(error, MESSAGES.summaryFailed, 'warn');
      return null;
    } finally {
      setFetchingAll(false);
    }
  };

  const print = async () => {
    if (wholeOnScreen) return window.print();
    const all = await everyRow();
    if (!all || !submitted) return;
    setPrinted({ filter: submitted, rows: all });
    setPrintRequests((requests) => requests + 1);
  };

  const downloadCsv = async () => {
    const all = await everyRow();
    if (all)
      saveFile(
        summaryCsv(all),
        texts.csvFileName(printedFilter.formData.datefrom, printedFilter.formData.dateto),
      );
  };

  // The tracks add up to the spec's 700 px minimum width.
  const columns: DataColumn<SchemeSummaryRow>[] = [
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
          <StatusChip matyn={row.matyn} />
          {isInactive(row.matyn) && mayActivate && (
            <ActivateButton schemeid={row.schemeid} onClick={() => setActivating(row)} />
          )}
        </Box>
      ),
    },
  ];

  const printedFilter = submitted ?? {
    selected: status,
    formData: { mobileno: '', datefrom: from, dateto: to },
  };
  const sheetRows = wholeOnScreen
    ? rows
    : printed && printed.filter === submitted
      ? printed.rows
      : [];

  return (
    <>
      <Box className="no-print">
        <PageHeader title={PAGE_TITLES.schemeSummary} />
        <FilterPanel
          title={texts.form}
          columns={{ sm: '1fr 1fr', lg: '2fr 1fr 1fr 1fr auto' }}
          onSubmit={generate}
        >
          <CustomerSearch value={customer} onSelect={setCustomer} label={texts.search} autoFocus />
          <SelectField
            label={texts.status}
            name="status"
            value={status}
            options={SUMMARY_STATUS_OPTIONS.map((option) => ({
              value: option.label,
              label: option.label,
            }))}
            onChange={setStatus}
          />
          <DateField label={texts.from} name="datefrom" value={from} onChange={setFrom} />
          <DateField label={texts.to} name="dateto" value={to} onChange={setTo} />
          <GenerateButton pending={loading} pendingLabel={texts.generating}>
            {texts.generate}
          </GenerateButton>
        </FilterPanel>

        <Box component="section" aria-label={texts.table}>
          <DataTable
            label={texts.table}
            columns={columns}
            rows={rows}
            rowKey={(row) => row.schemeid}
            bodyHeight={LIMITS.summaryTableBodyHeightPx}
            minWidth={LIMITS.summaryTableMinWidthPx}
            emptyText={MESSAGES.noSummaryResults}
            footer={[
              {
                key: 'total',
                cells: ['', texts.total, '', '', formatRupees(shown?.total ?? 0), ''],
              },
            ]}
            loading={loading}
            loadingLabel={texts.generating}
            rowClick={{
              isClickable: (row) => !isInactive(row.matyn),
              onClick: (row) => setViewing(row.schemeid),
              hint: (row) => texts.openStatement(row.schemeid),
            }}
          />
          {count > 0 && (
            <Pager
              page={page}
              pages={pages}
              status={texts.pageOf(page, pages, count)}
              busy={loading}
              onPage={setPage}
            />
          )}
          <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
            <SubmitButton
              type="button"
              variant="outlined"
              startIcon={<PrintIcon />}
              disabled={rows.length === 0}
              pending={fetchingAll}
              pendingLabel={texts.fetchingAll}
              onClick={() => void print()}
            >
              {texts.print}
            </SubmitButton>
            <SubmitButton
              type="button"
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={rows.length === 0}
              pending={fetchingAll}
              pendingLabel={texts.fetchingAll}
              onClick={() => void downloadCsv()}
            >
              {texts.downloadCsv}
            </SubmitButton>
          </Stack>
        </Box>
      </Box>

      {sheetRows.length > 0 && (
        <SummaryPrint
          rows={sheetRows}
          status={printedFilter.selected}
          from={printedFilter.formData.datefrom}
          to={printedFilter.formData.dateto}
        />
      )}

      {viewing !== null && <StatementModal schemeid={viewing} onClose={() => setViewing(null)} />}
      {activating && (
        <ActivateSchemeDialog scheme={activating} onClose={() => setActivating(null)} />
      )}
    </>
  );
}
