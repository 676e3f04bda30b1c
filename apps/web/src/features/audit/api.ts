import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  API_PATHS,
  AUDIT_CSV_FILE_NAME,
  datedFileName,
  type AuditQuery,
  type AuditResponse,
  type auditCsvResponse,
} from '@kanak/contract';
import { saveFile } from '../../components/saveFile';
import { api, expectSuccess, type Answer } from '../../lib/api';

/** The screen's filters; '' means "any". Dates `YYYY-MM-DD`. */
export interface AuditFilters {
  user: string;
  entity: string;
  mobile: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { user: '', entity: '', mobile: '', from: '', to: '' };

/** Only the filters that are set: the address stays short and the server sees "any". */
const params = ({ user, entity, mobile, from, to }: AuditFilters): AuditQuery => ({
  user: user || undefined,
  entity: entity || undefined,
  mobile: mobile || undefined,
  from: from || undefined,
  to: to || undefined,
});

/** GET /api/audit: one page of changes, newest first, and how many match. */
export const auditQuery = (filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: ['audit', filters, page] as const,
    queryFn: async () => {
      const { data } = await api.get<AuditResponse>(API_PATHS.audit, {
        params: { ...params(filters), page },
      });
      return expectSuccess(data);
    },
    placeholderData: keepPreviousData,
    // Changes keep coming: every visit asks again.
    staleTime: 0,
  });

/** The filtered changes as CSV (the server's, capped), saved as audit_log_{dates}.csv. */
export async function downloadAuditCsv(filters: AuditFilters, today: string) {
  const { data } = await api.get<Answer<typeof auditCsvResponse>>(API_PATHS.audit, {
    params: { ...params(filters), format: 'csv' },
    responseType: 'text',
  });
  saveFile(data, datedFileName(AUDIT_CSV_FILE_NAME.replace(/\.csv$/, ''), filters, today, '_'));
}
