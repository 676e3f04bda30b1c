import { useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LIMITS,
  REPORT_DATES,
  REPORT_TEXTS,
  formatSlashDate,
  type ReportName,
} from '@kanak/contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { FilterPanel, GenerateButton } from '../../components/FilterPanel';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useStoreToday } from '../../components/useStoreToday';
import { useBranchList } from '../../lib/branches';
import { reportFailure } from '../../lib/failure';
import { useMayCall, useMe } from '../../lib/me';
import {
  downloadReportCsv,
  reportQuery,
  type ReportFilter,
  type ReportRow,
  type ReportTotals,
} from './api';
import { ReportPrint } from './ReportPrint';
import {
  addressOf,
  defaultDates,
  filterFromAddress,
  grouped,
  type ReportFooterRow,
} from './reportParts';

const texts = REPORT_TEXTS;

export interface ReportPageProps<Name extends ReportName> {
  name: Name;
  /** The screen's heading. */
  title: string;
  columns: readonly DataColumn<ReportRow<Name>>[];
  rowKey: (row: ReportRow<Name>) => string | number;
  /** Narrower screens scroll the table sideways (phones show cards). */
  minWidth: number;
  /** The totals under their columns. */
  footer: (totals: ReportTotals<Name>) => ReportFooterRow[];
  /** The counts that sit under no column ("Schemes 12"), shown above the table. */
  counts: (totals: ReportTotals<Name>) => [label: string, value: number][];
}

const sameFilter = (a: ReportFilter, b: ReportFilter) =>
  JSON.stringify(addressOf(a)) === JSON.stringify(addressOf(b));

/**
 * A report of the owner's view (owners and managers): its filters (the dates it reads, and the
 * branch for the owner; a manager's reports are their own branch's), a page of rows with the
 * totals of all of them, Print, and the whole report as CSV. The filter lives in the address,
 * so a dashboard card opens the report on the figure it showed.
 */
export function ReportPage<Name extends ReportName>({
  name,
  title,
  columns,
  rowKey,
  minWidth,
  footer,
  counts,
}: ReportPageProps<Name>) {
  const today = useStoreToday();
  const [params, setParams] = useSearchParams();
  const mayPickBranch = useMayCall('branches');
  const { data: me } = useMe();
  const branches = useBranchList(mayPickBranch);
  const queryClient = useQueryClient();
  const dates = REPORT_DATES[name];

  const asked = useMemo(() => filterFromAddress(name, params, today), [name, params, today]);
  const [form, setForm] = useState<ReportFilter>(asked);
  const [page, setPage] = useState(1);
  const [downloading, setDownloading] = useState(false);
  const [preparing, setPreparing] = useState(false);
  // The rows printed: the whole report (up to a large page), for the filter asked.
  const [printout, setPrintout] = useState<{
    filter: ReportFilter;
    answer: { data: ReportRow<Name>[]; total: number; totals: ReportTotals<Name> };
  } | null>(null);

  // Another address (a card's link, the sidebar's entry) asks anew from its first page.
  const askedKey = JSON.stringify(addressOf(asked));
  const [seen, setSeen] = useState(askedKey);
  if (seen !== askedKey) {
    setSeen(askedKey);
    setForm(asked);
    setPage(1);
  }

  const report = useQuery(reportQuery(name, asked, page));

  useEffect(() => {
    if (report.error) reportFailure(report.error, texts.loadFailed);
  }, [report.error, report.errorUpdatedAt]);

  const show = (next: ReportFilter) => {
    const filter = filterFromAddress(name, new URLSearchParams(addressOf(next)), today);
    setForm(filter);
    setPage(1);
    if (!sameFilter(filter, asked)) setParams(addressOf(filter), { replace: true });
    else if (page === 1) void report.refetch();
  };
  const edit = (patch: ReportFilter) => setForm((current) => ({ ...current, ...patch }));

  const download = async () => {
    setDownloading(true);
    try {
      await downloadReportCsv(name, asked, today);
    } catch (error) {
      reportFailure(error, texts.csvFailed);
    } finally {
      setDownloading(false);
    }
  };

  const print = async () => {
    setPreparing(true);
    try {
      const shown = report.data;
      const answer =
        shown && shown.total <= shown.data.length && !report.isPlaceholderData
          ? shown
          : await queryClient.fetchQuery(reportQuery(name, asked, 1, LIMITS.reportPageSizeMax));
      // The printout is on the page before the browser's print dialog reads it.
      flushSync(() => setPrintout({ filter: asked, answer }));
      window.print();
    } catch (error) {
      reportFailure(error, texts.loadFailed);
    } finally {
      setPreparing(false);
    }
  };

  const answer = report.isError ? undefined : report.data;
  const rows = answer?.data ?? [];
  const total = answer?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LIMITS.reportPageSize));
  const footerRows = answer ? footer(answer.totals) : [];
  const toCells = (row: ReportFooterRow) => ({
    key: row.key,
    cells: columns.map((column) => row.cells[column.key] ?? ''),
  });
  const countsLine = (totals: ReportTotals<Name>) =>
    counts(totals)
      .map(([label, value]) => `${label}: ${grouped(value)}`)
      .join(' · ');

  const printed = printout && sameFilter(printout.filter, asked) ? printout.answer : answer;
  const branchLine = asked.branch
    ? texts.printBranch(asked.branch)
    : mayPickBranch
      ? texts.wholeChain
      : me?.branch
        ? texts.printBranch(me.branch.code)
        : null;
  const datesLine =
    dates.length === 0
      ? null
      : dates.includes('asOf')
        ? texts.printAsOf(formatSlashDate(asked.asOf ?? today))
        : asked.from || asked.to
          ? texts.printDates(
              asked.from ? formatSlashDate(asked.from) : '…',
              asked.to ? formatSlashDate(asked.to) : '…',
            )
          : texts.printAllDates;

  const fieldCount = dates.length + (mayPickBranch ? 1 : 0);
  const defaults = defaultDates(name, today);

  return (
    <>
      <Box className="no-print">
        <PageHeader title={title}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <SubmitButton
              type="button"
              variant="outlined"
              pending={preparing}
              pendingLabel={texts.printing}
              disabled={rows.length === 0}
              startIcon={<PrintIcon />}
              onClick={() => void print()}
            >
              {texts.print}
            </SubmitButton>
            <SubmitButton
              type="button"
              variant="outlined"
              pending={downloading}
              pendingLabel={texts.csvPending}
              disabled={rows.length === 0}
              startIcon={<DownloadIcon />}
              onClick={() => void download()}
            >
              {texts.csv}
            </SubmitButton>
          </Stack>
        </PageHeader>
        <Typography sx={{ mb: 2 }}>{texts.reports[name].intro}</Typography>
        {fieldCount > 0 && (
          <FilterPanel
            title={texts.filters}
            columns={{ sm: '1fr 1fr', lg: `repeat(${fieldCount}, minmax(0, 1fr)) auto` }}
            onSubmit={() => show(form)}
          >
            {dates.includes('from') && (
              <DateField
                label={texts.from}
                name="from"
                value={form.from ?? ''}
                max={form.to || undefined}
                onChange={(from) => edit({ from })}
              />
            )}
            {dates.includes('to') && (
              <DateField
                label={texts.to}
                name="to"
                value={form.to ?? ''}
                min={form.from || undefined}
                onChange={(to) => edit({ to })}
              />
            )}
            {dates.includes('asOf') && (
              <DateField
                label={texts.asOf}
                name="asOf"
                value={form.asOf ?? ''}
                min={today}
                onChange={(asOf) => edit({ asOf })}
              />
            )}
            {mayPickBranch && (
              <SelectField
                label={texts.branch}
                name="branch"
                value={form.branch ?? ''}
                options={[
                  { value: '', label: texts.wholeChain },
                  ...(branches.data ?? []).map((branch) => ({
                    value: branch.code,
                    label: `${branch.code} · ${branch.name}`,
                  })),
                ]}
                onChange={(branch) => edit({ branch })}
              />
            )}
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <GenerateButton pending={report.isFetching} pendingLabel={texts.loading}>
                {texts.search}
              </GenerateButton>
              <Button type="button" variant="text" onClick={() => show(defaults)}>
                {texts.clear}
              </Button>
            </Stack>
          </FilterPanel>
        )}
        {answer && (
          <Typography sx={{ mb: 1, fontWeight: 600 }}>
            {`${texts.totals} · ${countsLine(answer.totals)}`}
          </Typography>
        )}
        <DataTable
          label={title}
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          bodyHeight={440}
          minWidth={minWidth}
          emptyText={texts.reports[name].empty}
          footer={footerRows.map(toCells)}
          loading={report.isFetching}
          loadingLabel={texts.loading}
        />
        <Pager
          page={page}
          pages={pages}
          status={texts.pageOf(page, pages, total)}
          busy={report.isFetching}
          onPage={setPage}
        />
      </Box>
      {printed && printed.data.length > 0 && (
        <ReportPrint
          testId={`print-report-${name}`}
          lines={[
            title,
            ...[datesLine, branchLine].filter((line) => line !== null),
            countsLine(printed.totals),
          ]}
          columns={columns}
          rows={printed.data}
          rowKey={rowKey}
          footer={footer(printed.totals)}
          total={printed.total}
        />
      )}
    </>
  );
}
