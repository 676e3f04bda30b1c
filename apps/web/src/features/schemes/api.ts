import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  API_PATHS,
  LIMITS,
  MESSAGES,
  SCHEME_TEXTS,
  type GenerateSchemeRequest,
  type closeSchemeResponse,
  type customerResponse,
  type generateSchemeResponse,
  type messageResponse,
  type schemeStatementResponse,
  type schemeSummaryRequest,
  type schemeSummaryResponse,
  type schemesResponse,
  type verifyPanResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import {
  postPayment,
  schemesKey,
  useRefreshSchemes,
  type PaymentForm,
} from '../../lib/installments';
import { refetchAfterChange } from '../../lib/query-client';

type StatementAnswer = Answer<typeof schemeStatementResponse>;

/** One scheme's statement as the screens use it (POST /api/scheme/generate-statement). */
export type SchemeStatement = Pick<StatementAnswer, 'custname' | 'mobileno' | 'scheme'> & {
  rows: StatementAnswer['data'];
};

/** The summary's filter as sent: status label plus mobile and start-date range. */
export type SummaryFilter = Pick<z.output<typeof schemeSummaryRequest>, 'selected' | 'formData'>;

export type { PaymentForm };

export const schemeKeys = {
  all: schemesKey,
  customer: (mobileno: string) => ['schemes', 'customer', mobileno] as const,
  lists: ['schemes', 'list'] as const,
  list: (custid: number | null) => ['schemes', 'list', custid] as const,
  statements: ['schemes', 'statement'] as const,
  statement: (schemeid: number | null) => ['schemes', 'statement', schemeid] as const,
  summaries: ['schemes', 'summary'] as const,
  summary: (filter: SummaryFilter | null, page: number) =>
    ['schemes', 'summary', filter, page] as const,
};

/** The chosen customer's id, name and PAN, from POST /api/customers/get-customer-data. */
export const schemeCustomerQuery = (mobileno: string) =>
  queryOptions({
    queryKey: schemeKeys.customer(mobileno),
    queryFn: async () => {
      const { data } = await api.post<Answer<typeof customerResponse>>(API_PATHS.customerData, {
        mobileno,
      });
      return expectSuccess(data).data;
    },
    enabled: mobileno !== '',
    staleTime: 0,
  });

/** POST /api/scheme/get-all: the customer's schemes, newest first. */
export const schemesQuery = (custid: number | null) =>
  queryOptions({
    queryKey: schemeKeys.list(custid),
    queryFn: async () => {
      const { data } = await api.post<Answer<typeof schemesResponse>>(API_PATHS.schemes, {
        custid,
      });
      return expectSuccess(data).data;
    },
    enabled: custid !== null,
    staleTime: 0,
  });

/** POST /api/scheme/generate-statement. */
export async function fetchStatement(schemeid: number): Promise<SchemeStatement> {
  const { data } = await api.post<Answer<typeof schemeStatementResponse>>(
    API_PATHS.schemeStatement,
    { schemeid },
  );
  const body = expectSuccess(data);
  return {
    rows: body.data,
    custname: body.custname,
    mobileno: body.mobileno,
    scheme: body.scheme,
  };
}

export const statementQuery = (schemeid: number | null) =>
  queryOptions({
    queryKey: schemeKeys.statement(schemeid),
    queryFn: () => fetchStatement(schemeid!),
    enabled: schemeid !== null,
    staleTime: 0,
  });

/**
 * POST /api/scheme/generate-summary, one page of rows with the count and amount of the whole
 * filter; no rows is `success: false` (a refusal).
 */
export const summaryQuery = (filter: SummaryFilter | null, page: number) =>
  queryOptions({
    queryKey: schemeKeys.summary(filter, page),
    queryFn: async () => {
      const { data } = await api.post<Answer<typeof schemeSummaryResponse>>(
        API_PATHS.schemeSummary,
        { ...filter, page, pageSize: LIMITS.summaryPageSize },
      );
      const body = expectSuccess(data);
      return { rows: body.data, count: body.count ?? body.data.length, total: body.total };
    },
    enabled: filter !== null,
    staleTime: 0,
  });

/**
 * Every row of the filter in one answer, as the summary's original call gives them: Print
 * and CSV cover the whole filter, read at one moment, whatever page is on screen.
 */
export async function fetchWholeSummary(filter: SummaryFilter) {
  const { data } = await api.post<Answer<typeof schemeSummaryResponse>>(
    API_PATHS.schemeSummary,
    filter,
  );
  return expectSuccess(data).data;
}

export { financialYearQuery } from '../../lib/financial-year';

// ---- Changes ------------------------------------------------------------------------------

async function generateScheme(payload: GenerateSchemeRequest, key: string) {
  const { data } = await api.post<Answer<typeof generateSchemeResponse>>(
    API_PATHS.generateScheme,
    payload,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

async function verifyPan(custid: number, key: string) {
  const { data } = await api.post<Answer<typeof verifyPanResponse>>(
    API_PATHS.verifyPan,
    { custid },
    withIdempotencyKey(key),
  );
  return expectSuccess(data).data.pan;
}

async function updatePan(input: { custid: number; pan: string }, key: string) {
  const { data } = await api.post<Answer<typeof messageResponse>>(
    API_PATHS.updatePan,
    input,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

async function deleteScheme(schemeid: number, key: string) {
  const { data } = await api.post<Answer<typeof messageResponse>>(
    API_PATHS.deleteScheme,
    { schemeid },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

async function closeScheme(schemeid: number, key: string) {
  const { data } = await api.post<Answer<typeof closeSchemeResponse>>(
    API_PATHS.closeScheme,
    { schemeid },
    withIdempotencyKey(key),
  );
  const body = expectSuccess(data);
  return { message: body.message ?? '', ...body.data };
}

export function useGenerateScheme() {
  const refresh = useRefreshSchemes();
  return useChange(generateScheme, { onSuccess: refresh, failed: MESSAGES.schemeGenerateFailed });
}

/** POST /api/scheme/verify-pan: the customer's stored PAN ('' when none). */
export const useVerifyPan = () => useChange(verifyPan, { failed: MESSAGES.panVerifyFailed });

export function useUpdatePan() {
  const queryClient = useQueryClient();
  return useChange(updatePan, {
    onSuccess: () => refetchAfterChange(queryClient, ['schemes', 'customer']),
    failed: MESSAGES.panUpdateFailed,
  });
}

export function useDeleteScheme() {
  const refresh = useRefreshSchemes();
  return useChange(deleteScheme, {
    onSuccess: refresh,
    failed: MESSAGES.schemeDeleteFailed,
    unmadeAsAlert: true,
  });
}

/** POST /api/scheme/activate: the first installment; the scheme becomes Active. */
export function useActivateScheme() {
  const refresh = useRefreshSchemes();
  return useChange(
    (form: PaymentForm, key: string) => postPayment(API_PATHS.activateScheme, form, key),
    { onSuccess: refresh, failed: SCHEME_TEXTS.activation.activateFailed, unmadeAsAlert: true },
  );
}

/**
 * POST /api/scheme/close-preview: what closing would pay today (the plan's bonus for the
 * installments paid on time; a weight scheme's gold at today's rate), shown before CONFIRM.
 */
export const closePreviewQuery = (schemeid: number) =>
  queryOptions({
    queryKey: [...schemeKeys.statement(schemeid), 'close-preview'],
    queryFn: async () => {
      const { data } = await api.post<Answer<typeof closeSchemeResponse>>(
        API_PATHS.closeSchemePreview,
        { schemeid },
      );
      return expectSuccess(data).data;
    },
    staleTime: 0,
    retry: false,
  });

/** POST /api/scheme/close: pays out; bonus and maturity value come back. */
export function useCloseScheme() {
  const refresh = useRefreshSchemes();
  return useChange(closeScheme, {
    onSuccess: refresh,
    failed: SCHEME_TEXTS.close.closeFailed,
    unmadeAsAlert: true,
  });
}
