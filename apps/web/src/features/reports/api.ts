import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  API_PATHS,
  LIMITS,
  reportCsvFileName,
  type CollectionsBy,
  type ReportName,
  type ReportRequest,
  type collectionsReportResponse,
  type maturingReportResponse,
  type overdueReportResponse,
  type pointsLiabilityReportResponse,
  type reportCsvResponse,
  type unrecoveredReportResponse,
} from '@kanak/contract';
import { saveFile } from '../../components/saveFile';
import { api, expectSuccess, type Answer, type Envelope } from '../../lib/api';

/** What each report answers: a page of its rows, how many in all, and the totals of all. */
interface ReportAnswers {
  collections: Answer<typeof collectionsReportResponse>;
  overdue: Answer<typeof overdueReportResponse>;
  maturing: Answer<typeof maturingReportResponse>;
  'points-liability': Answer<typeof pointsLiabilityReportResponse>;
  unrecovered: Answer<typeof unrecoveredReportResponse>;
}
export type ReportRow<Name extends ReportName> = ReportAnswers[Name]['data'][number];
export type ReportTotals<Name extends ReportName> = ReportAnswers[Name]['totals'];

/**
 * A report screen's filter: the dates the report reads (`YYYY-MM-DD`) and the branch's code,
 * each left out when unset (the whole chain; the report's own default dates).
 */
export interface ReportFilter {
  from?: string;
  to?: string;
  asOf?: string;
  /** The cash book by the day its installments were entered; unset, by the day dated. */
  by?: CollectionsBy;
  branch?: string;
}

const REPORT_PATHS = {
  collections: API_PATHS.collectionsReport,
  overdue: API_PATHS.overdueReport,
  maturing: API_PATHS.maturingReport,
  'points-liability': API_PATHS.pointsLiabilityReport,
  unrecovered: API_PATHS.unrecoveredReport,
} as const satisfies Record<ReportName, string>;

type Fetchers = { [Name in ReportName]: (body: ReportRequest) => Promise<ReportAnswers[Name]> };

/** The answer of a call, refused unless it says success. */
const answered = async <T extends Envelope>(call: Promise<{ data: T }>) =>
  expectSuccess((await call).data);

/** POST /api/reports/<name>: one page. Each call names its answer's own schema. */
const fetchers: Fetchers = {
  collections: (body) =>
    answered(api.post<Answer<typeof collectionsReportResponse>>(REPORT_PATHS.collections, body)),
  overdue: (body) =>
    answered(api.post<Answer<typeof overdueReportResponse>>(REPORT_PATHS.overdue, body)),
  maturing: (body) =>
    answered(api.post<Answer<typeof maturingReportResponse>>(REPORT_PATHS.maturing, body)),
  'points-liability': (body) =>
    answered(
      api.post<Answer<typeof pointsLiabilityReportResponse>>(
        REPORT_PATHS['points-liability'],
        body,
      ),
    ),
  unrecovered: (body) =>
    answered(api.post<Answer<typeof unrecoveredReportResponse>>(REPORT_PATHS.unrecovered, body)),
};

/** One page of a report; the page before stays on screen while the next one loads. */
export const reportQuery = <Name extends ReportName>(
  name: Name,
  filter: ReportFilter,
  page: number,
  pageSize: number = LIMITS.reportPageSize,
) =>
  queryOptions({
    queryKey: ['reports', name, filter, page, pageSize] as const,
    queryFn: () => fetchers[name]({ ...filter, page, pageSize }),
    placeholderData: keepPreviousData,
    // Payments keep coming in: every visit asks again.
    staleTime: 0,
  });

/**
 * The whole report as the server writes it (every row, not one page), saved under its name and
 * the dates it covers (as of `today` when it has none).
 */
export async function downloadReportCsv(name: ReportName, filter: ReportFilter, today: string) {
  const { data } = await api.post<Answer<typeof reportCsvResponse>>(
    REPORT_PATHS[name],
    { ...filter, format: 'csv' },
    { responseType: 'text' },
  );
  saveFile(data, reportCsvFileName(name, filter, today));
}
