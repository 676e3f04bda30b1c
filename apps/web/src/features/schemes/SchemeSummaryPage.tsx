import { useEffect, useState } from 'react';
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
  isInactive,
  type SchemeSummaryRow,
} from '@kanak/contract';
import { CustomerSearch } from '../../components/CustomerSearch';
import { usePreselectedCustomer } from '../../components/customerFromAddress';
import { DateField } from '../../components/DateField';
import { ListPage } from '../../components/ListPage';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { saveFile } from '../../components/saveFile';
import { useAddressFilter } from '../../components/useAddressFilter';
import { usePrintAll } from '../../components/usePrintAll';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useMayCall } from '../../lib/me';
import { fetchWholeSummary, financialYearQuery, summaryQuery, type SummaryFilter } from './api';
import { ActivateSchemeDialog } from './ActivateScheme';
import { SummaryPrint } from './PrintSheet';
import { StatementModal } from './StatementModal';
import { summaryAddress, type SummaryForm } from '../../components/schemeSummaryAddress';
import { summaryCsv } from './schemeFormat';
import { summaryColumns } from './SummaryColumns';

const texts = SCHEME_TEXTS.summary;

/** The summary the address asks for; null until Generate Summary is first pressed. */
const summaryOf = ({ customer, status, from, to }: SummaryForm): SummaryFilter | null =>
  from === null || to === null
    ? null
    : {
        selected: status,
        formData: { mobileno: customer?.MOBILENO ?? '', datefrom: from, dateto: to },
      };

/**
 * Scheme Summary (/home/scheme-summary): schemes across customers, by status and start date,
 * a page at a time with the count and amount of the whole filter. The filter lives in the
 * address: a bookmark opens the summary it names, and Back returns to the one before. Print
 * and CSV cover the whole filter: when it has more than one page, every row is fetched in one
 * answer when pressed (the original call: one consistent read, where page after page could
 * miss or repeat a scheme added meanwhile).
 */
export function SchemeSummaryPage() {
  const today = useStoreToday();
  const { asked, form, edit, page, setPage, show } = useAddressFilter(summaryAddress);
  const submitted = summaryOf(asked);
  // A link naming a customer (`?customer=`) opens with them chosen.
  usePreselectedCustomer(form.customer, (customer) => edit({ customer }));
  const [viewing, setViewing] = useState<number | null>(null);
  const [activating, setActivating] = useState<SchemeSummaryRow | null>(null);
  const mayActivate = useMayCall('activateScheme');

  const financialYear = useQuery(financialYearQuery);
  const summary = useQuery({
    ...summaryQuery(submitted, page),
    // Back to before the first Generate Summary shows no summary, not the last one.
    placeholderData: submitted ? keepPreviousData : undefined,
  });

  useEffect(() => {
    // A failed financial-year fetch is logged only (the dates stay today).
    if (financialYear.error) console.error('Financial year fetch failed', financialYear.error);
  }, [financialYear.error]);

  useEffect(() => {
    if (!summary.error) return;
    reportFailure(summary.error, MESSAGES.summaryFailed, (message) =>
      showAlert('warning', message ?? MESSAGES.noMatchingRecords),
    );
  }, [summary.error, summary.errorUpdatedAt]);

  const from = form.from ?? financialYear.data ?? today;
  const to = form.to ?? today;
  // Success false clears the list.
  const shown = summary.isError ? undefined : summary.data;
  const rows = shown?.rows ?? [];
  const count = shown?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / LIMITS.summaryPageSize));
  const loading = summary.isFetching;

  const everyRow = usePrintAll({
    asked: JSON.stringify(submitted),
    // One page holds the whole filter: Print and CSV need nothing more.
    wholeOnScreen: count <= rows.length || !submitted ? rows : null,
    fetchWhole: () => (submitted ? fetchWholeSummary(submitted) : Promise.resolve(rows)),
    failed: (error) => reportFailure(error, MESSAGES.summaryFailed, 'warn'),
  });

  const generate = () => {
    if (loading) return;
    show({ ...form, from, to }, () => void summary.refetch());
  };

  const printedFilter = submitted ?? {
    selected: form.status,
    formData: { mobileno: '', datefrom: from, dateto: to },
  };

  const downloadCsv = async () => {
    const all = await everyRow.whole();
    if (all)
      saveFile(
        summaryCsv(all),
        texts.csvFileName(printedFilter.formData.datefrom, printedFilter.formData.dateto),
      );
  };

  const columns = summaryColumns(mayActivate ? setActivating : null);

  const printButtons = (
    <Stack direction="row" spacing={2} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
      <SubmitButton
        type="button"
        variant="outlined"
        startIcon={<PrintIcon />}
        disabled={rows.length === 0}
        pending={everyRow.fetching}
        pendingLabel={texts.fetchingAll}
        onClick={() => void everyRow.print()}
      >
        {texts.print}
      </SubmitButton>
      <SubmitButton
        type="button"
        variant="outlined"
        startIcon={<DownloadIcon />}
        disabled={rows.length === 0}
        pending={everyRow.fetching}
        pendingLabel={texts.fetchingAll}
        onClick={() => void downloadCsv()}
      >
        {texts.downloadCsv}
      </SubmitButton>
    </Stack>
  );
  const sheetRows = everyRow.printout ?? (count <= rows.length ? rows : []);

  return (
    <ListPage
      title={PAGE_TITLES.schemeSummary}
      filters={{
        title: texts.form,
        columns: { sm: '1fr 1fr', lg: '2fr 1fr 1fr 1fr auto' },
        onSubmit: generate,
        search: texts.generate,
        pending: loading,
        pendingLabel: texts.generating,
        children: (
          <>
            <CustomerSearch
              value={form.customer}
              onSelect={(customer) => edit({ customer })}
              label={texts.search}
              autoFocus
            />
            <SelectField
              label={texts.status}
              name="status"
              value={form.status}
              options={SUMMARY_STATUS_OPTIONS.map((option) => ({
                value: option.label,
                label: option.label,
              }))}
              onChange={(status) => edit({ status })}
            />
            <DateField
              label={texts.from}
              name="datefrom"
              value={from}
              onChange={(date) => edit({ from: date })}
            />
            <DateField
              label={texts.to}
              name="dateto"
              value={to}
              onChange={(date) => edit({ to: date })}
            />
          </>
        ),
      }}
      section={texts.table}
      table={{
        label: texts.table,
        columns,
        rows,
        rowKey: (row) => row.schemeid,
        bodyHeight: LIMITS.summaryTableBodyHeightPx,
        minWidth: LIMITS.summaryTableMinWidthPx,
        emptyText: MESSAGES.noSummaryResults,
        footer: [
          {
            key: 'total',
            cells: ['', texts.total, '', '', formatRupees(shown?.total ?? 0), ''],
          },
        ],
        loading,
        loadingLabel: texts.generating,
        rowClick: {
          isClickable: (row) => !isInactive(row.matyn),
          onClick: (row) => setViewing(row.schemeid),
          hint: (row) => texts.openStatement(row.schemeid),
        },
      }}
      pager={
        count > 0
          ? { page, pages, status: texts.pageOf(page, pages, count), onPage: setPage }
          : null
      }
      below={printButtons}
      printout={
        sheetRows.length > 0 && (
          <SummaryPrint
            rows={sheetRows}
            status={printedFilter.selected}
            from={printedFilter.formData.datefrom}
            to={printedFilter.formData.dateto}
          />
        )
      }
    >
      {viewing !== null && <StatementModal schemeid={viewing} onClose={() => setViewing(null)} />}
      {activating && (
        <ActivateSchemeDialog scheme={activating} onClose={() => setActivating(null)} />
      )}
    </ListPage>
  );
}
