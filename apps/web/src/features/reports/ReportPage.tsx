import { useEffect, useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COLLECTIONS_BY,
  LIMITS,
  REPORT_DATES,
  REPORT_TEXTS,
  formatSlashDate,
  type ReportName,
} from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { DateField } from '../../components/DateField';
import { ListPage } from '../../components/ListPage';
import { SelectField } from '../../components/SelectField';
import { SubmitButton } from '../../components/SubmitButton';
import { useAddressFilter } from '../../components/useAddressFilter';
import { usePrintAll } from '../../components/usePrintAll';
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
  const mayPickBranch = useMayCall('branches');
  const { data: me } = useMe();
  const branches = useBranchList(mayPickBranch);
  const queryClient = useQueryClient();
  const dates = REPORT_DATES[name];

  const { asked, form, edit, page, setPage, show } = useAddressFilter({
    read: (params) => filterFromAddress(name, params, today),
    write: addressOf,
  });
  const [downloading, setDownloading] = useState(false);

  const report = useQuery(reportQuery(name, asked, page));

  useEffect(() => {
    if (report.error) reportFailure(report.error, texts.loadFailed);
  }, [report.error, report.errorUpdatedAt]);

  // Only the dates the report reads, each falling back to its default.
  const search = (next: ReportFilter) =>
    show(filterFromAddress(name, new URLSearchParams(addressOf(next)), today), () => {
      void report.refetch();
    });

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

  // The rows printed: the whole report (up to a large page), for the filter asked.
  const shown = report.data;
  const everyRow = usePrintAll({
    asked: JSON.stringify(addressOf(asked)),
    wholeOnScreen:
      shown && shown.total <= shown.data.length && !report.isPlaceholderData ? shown : null,
    fetchWhole: () => queryClient.fetchQuery(reportQuery(name, asked, 1, LIMITS.reportPageSizeMax)),
    failed: (error) => reportFailure(error, texts.loadFailed),
  });

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

  const printed = everyRow.printout ?? answer;
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

  const fieldCount = dates.length + (name === 'collections' ? 1 : 0) + (mayPickBranch ? 1 : 0);
  const defaults = defaultDates(name, today);

  return (
    <ListPage
      title={title}
      actions={
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <SubmitButton
            type="button"
            variant="outlined"
            pending={everyRow.fetching}
            pendingLabel={texts.printing}
            disabled={rows.length === 0}
            startIcon={<PrintIcon />}
            onClick={() => void everyRow.print()}
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
      }
      intro={<Typography sx={{ mb: 2 }}>{texts.reports[name].intro}</Typography>}
      filters={
        fieldCount > 0
          ? {
              title: texts.filters,
              columns: { sm: '1fr 1fr', lg: `repeat(${fieldCount}, minmax(0, 1fr)) auto` },
              onSubmit: () => search(form),
              search: texts.search,
              pending: report.isFetching,
              pendingLabel: texts.loading,
              clear: { label: texts.clear, onClick: () => search(defaults) },
              children: (
                <>
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
                  {name === 'collections' && (
                    <SelectField
                      label={texts.by}
                      name="by"
                      value={form.by ?? 'dated'}
                      options={COLLECTIONS_BY.map((by) => ({
                        value: by,
                        label: texts.byOptions[by],
                      }))}
                      onChange={(by) => edit({ by: by === 'entered' ? by : undefined })}
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
                </>
              ),
            }
          : undefined
      }
      above={
        answer && (
          <Typography sx={{ mb: 1, fontWeight: 600 }}>
            {`${texts.totals} · ${countsLine(answer.totals)}`}
          </Typography>
        )
      }
      table={{
        label: title,
        columns,
        rows,
        rowKey,
        bodyHeight: 440,
        minWidth,
        emptyText: texts.reports[name].empty,
        footer: footerRows.map(toCells),
        loading: report.isFetching,
        loadingLabel: texts.loading,
      }}
      pager={{ page, pages, status: texts.pageOf(page, pages, total), onPage: setPage }}
      printout={
        printed &&
        printed.data.length > 0 && (
          <ReportPrint
            testId={`print-report-${name}`}
            lines={[
              title,
              ...[
                datesLine,
                asked.by === 'entered' ? texts.printByEntered : null,
                branchLine,
              ].filter((line) => line !== null),
              countsLine(printed.totals),
            ]}
            columns={columns}
            rows={printed.data}
            rowKey={rowKey}
            footer={footer(printed.totals)}
            total={printed.total}
          />
        )
      }
    />
  );
}
