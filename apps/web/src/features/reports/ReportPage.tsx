import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS, REPORT_TEXTS, type ReportName } from '@kanak/contract';
import type { DataColumn } from '../../components/DataTable';
import { ListPage } from '../../components/ListPage';
import { useListQuery } from '../../components/useListQuery';
import { usePrintAll } from '../../components/usePrintAll';
import { useStoreToday } from '../../components/useStoreToday';
import { reportFailure } from '../../lib/failure';
import { useMayCall, useMe } from '../../lib/me';
import { reportQuery, type ReportFilter, type ReportRow, type ReportTotals } from './api';
import { ReportActions } from './ReportActions';
import { ReportFilterFields, reportFieldCount } from './ReportFilterFields';
import { ReportPrint } from './ReportPrint';
import {
  addressOf,
  askedLines,
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
  const queryClient = useQueryClient();

  // Only the dates the report reads, each falling back to its default.
  const readable = (filter: ReportFilter) =>
    filterFromAddress(name, new URLSearchParams(addressOf(filter)), today);
  const list = useListQuery({
    address: { read: (params) => filterFromAddress(name, params, today), write: addressOf },
    query: (filter: ReportFilter, page: number) => reportQuery(name, filter, page),
    pageSize: LIMITS.reportPageSize,
    tidy: readable,
    failed: (error) => reportFailure(error, texts.loadFailed),
  });
  const { asked, answer } = list;

  // The rows printed: the whole report (up to a large page), for the filter asked.
  const shown = list.result.data;
  const everyRow = usePrintAll({
    asked: JSON.stringify(addressOf(asked)),
    wholeOnScreen:
      shown && shown.total <= shown.data.length && !list.result.isPlaceholderData ? shown : null,
    fetchWhole: () => queryClient.fetchQuery(reportQuery(name, asked, 1, LIMITS.reportPageSizeMax)),
    failed: (error) => reportFailure(error, texts.loadFailed),
  });

  const toCells = (row: ReportFooterRow) => ({
    key: row.key,
    cells: columns.map((column) => row.cells[column.key] ?? ''),
  });
  const countsLine = (totals: ReportTotals<Name>) =>
    counts(totals)
      .map(([label, value]) => `${label}: ${grouped(value)}`)
      .join(' · ');

  const printed = everyRow.printout ?? answer;
  const fieldCount = reportFieldCount(name, mayPickBranch);

  return (
    <ListPage
      title={title}
      actions={
        <ReportActions
          name={name}
          asked={asked}
          empty={list.rows.length === 0}
          printing={everyRow.fetching}
          print={() => void everyRow.print()}
        />
      }
      intro={<Typography sx={{ mb: 2 }}>{texts.reports[name].intro}</Typography>}
      list={list}
      filters={
        fieldCount > 0
          ? {
              title: texts.filters,
              columns: { sm: '1fr 1fr', lg: `repeat(${fieldCount}, minmax(0, 1fr)) auto` },
              search: texts.search,
              pendingLabel: texts.loading,
              // Back to the report's default dates, read afresh.
              clear: {
                label: texts.clear,
                onClick: () => list.searchFor(defaultDates(name, today)),
              },
              children: (
                <ReportFilterFields
                  name={name}
                  form={list.form}
                  edit={list.edit}
                  today={today}
                  mayPickBranch={mayPickBranch}
                />
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
        rowKey,
        bodyHeight: 440,
        minWidth,
        emptyText: texts.reports[name].empty,
        footer: answer ? footer(answer.totals).map(toCells) : [],
        loadingLabel: texts.loading,
      }}
      pageOf={(page, pages, total) => texts.pageOf(page, pages, total)}
      printout={
        printed &&
        printed.data.length > 0 && (
          <ReportPrint
            testId={`print-report-${name}`}
            lines={[
              title,
              ...askedLines(name, asked, today, {
                mayPickBranch,
                branch: me?.branch?.code ?? null,
              }),
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
