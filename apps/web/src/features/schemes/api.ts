import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  type CustomerRecord,
  type GenerateSchemeRequest,
  type InstallmentReceipt,
  type PaymentMode,
  type SchemeRecord,
  type SchemeStatementRow,
  type SchemeSummaryRow,
  type SummaryStatusLabel,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Envelope } from '../../lib/api';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';

/** One scheme's statement as the screens use it (POST /api/scheme/generate-statement). */
export interface SchemeStatement {
  rows: SchemeStatementRow[];
  custname: string;
  mobileno: string;
  scheme: SchemeRecord;
}

/** The summary's filter as sent: status label plus mobile and start-date range. */
export interface SummaryFilter {
  selected: SummaryStatusLabel;
  formData: { mobileno: string; datefrom: string; dateto: string };
}

export interface PaymentForm {
  schemeid: number;
  date: string;
  mode: PaymentMode;
  reference: string;
}

export const schemeKeys = {
  all: ['schemes'] as const,
  customer: (mobileno: string) => ['schemes', 'customer', mobileno] as const,
  lists: ['schemes', 'list'] as const,
  list: (custid: number | null) => ['schemes', 'list', custid] as const,
  statements: ['schemes', 'statement'] as const,
  statement: (schemeid: number | null) => ['schemes', 'statement', schemeid] as const,
  summaries: ['schemes', 'summary'] as const,
  summary: (filter: SummaryFilter | null) => ['schemes', 'summary', filter] as const,
};

/** The chosen customer's id, name and PAN, from POST /api/customers/get-customer-data. */
export const schemeCustomerQuery = (mobileno: string) =>
  queryOptions({
    queryKey: schemeKeys.customer(mobileno),
    queryFn: async () => {
      const { data } = await api.post<Envelope & { data?: CustomerRecord }>(
        API_PATHS.customerData,
        { mobileno },
      );
      const record = expectSuccess(data).data;
      if (!record) throw new Error('get-customer-data answered without data');
      return record;
    },
    enabled: mobileno !== '',
    staleTime: 0,
  });

/** POST /api/scheme/get-all: the customer's schemes, newest first. */
export const schemesQuery = (custid: number | null) =>
  queryOptions({
    queryKey: schemeKeys.list(custid),
    queryFn: async () => {
      const { data } = await api.post<Envelope & { data?: SchemeRecord[] }>(API_PATHS.schemes, {
        custid,
      });
      return expectSuccess(data).data ?? [];
    },
    enabled: custid !== null,
    staleTime: 0,
  });

/** POST /api/scheme/generate-statement. */
export async function fetchStatement(schemeid: number): Promise<SchemeStatement> {
  const { data } = await api.post<
    Envelope & Partial<SchemeStatement> & { data?: SchemeStatementRow[] }
  >(API_PATHS.schemeStatement, { schemeid });
  const body = expectSuccess(data);
  if (!body.scheme) throw new Error('generate-statement answered without the scheme');
  return {
    rows: body.data ?? [],
    custname: body.custname ?? '',
    mobileno: body.mobileno ?? '',
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

/** POST /api/scheme/generate-summary; no rows is `success: false` (a refusal). */
export const summaryQuery = (filter: SummaryFilter | null) =>
  queryOptions({
    queryKey: schemeKeys.summary(filter),
    queryFn: async () => {
      const { data } = await api.post<Envelope & { data?: SchemeSummaryRow[]; total?: number }>(
        API_PATHS.schemeSummary,
        filter,
      );
      return expectSuccess(data).data ?? [];
    },
    enabled: filter !== null,
    staleTime: 0,
  });

export { financialYearQuery } from '../../lib/financial-year';

// ---- Changes ------------------------------------------------------------------------------

async function generateScheme(payload: GenerateSchemeRequest, key: string) {
  const { data } = await api.post<Envelope & { data?: { schemeid: number } }>(
    API_PATHS.generateScheme,
    payload,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

async function verifyPan(custid: number, key: string) {
  const { data } = await api.post<Envelope & { data?: { pan?: string | null } }>(
    API_PATHS.verifyPan,
    { custid },
    withIdempotencyKey(key),
  );
  return expectSuccess(data).data?.pan ?? '';
}

async function updatePan(input: { custid: number; pan: string }, key: string) {
  const { data } = await api.post<Envelope>(API_PATHS.updatePan, input, withIdempotencyKey(key));
  return expectSuccess(data);
}

async function deleteScheme(schemeid: number, key: string) {
  const { data } = await api.post<Envelope>(
    API_PATHS.deleteScheme,
    { schemeid },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

async function postPayment(path: string, form: PaymentForm, key: string) {
  const { data } = await api.post<Envelope & { data?: InstallmentReceipt }>(
    path,
    form,
    withIdempotencyKey(key),
  );
  const body = expectSuccess(data);
  if (!body.data) throw new Error(`${path} answered without the receipt`);
  return { message: body.message ?? '', receipt: body.data };
}

async function closeScheme(schemeid: number, key: string) {
  const { data } = await api.post<
    Envelope & { data?: { bonus: number; maturityValue: number; paid: number } }
  >(API_PATHS.closeScheme, { schemeid }, withIdempotencyKey(key));
  const body = expectSuccess(data);
  if (!body.data) throw new Error('close answered without the figures');
  return { message: body.message ?? '', ...body.data };
}

/** After any change: every scheme list, statement and summary on screen asks again. */
function useRefreshSchemes() {
  const queryClient = useQueryClient();
  return () => refetchAfterChange(queryClient, schemeKeys.all);
}

export function useGenerateScheme() {
  const refresh = useRefreshSchemes();
  return useChange(generateScheme, { onSuccess: refresh });
}

/** POST /api/scheme/verify-pan: the customer's stored PAN ('' when none). */
export const useVerifyPan = () => useChange(verifyPan);

export function useUpdatePan() {
  const queryClient = useQueryClient();
  return useChange(updatePan, {
    onSuccess: () => refetchAfterChange(queryClient, ['schemes', 'customer']),
  });
}

export function useDeleteScheme() {
  const refresh = useRefreshSchemes();
  return useChange(deleteScheme, { onSuccess: refresh });
}

/** POST /api/scheme/activate: the first installment; the scheme becomes Active. */
export function useActivateScheme() {
  const refresh = useRefreshSchemes();
  return useChange(
    (form: PaymentForm, key: string) => postPayment(API_PATHS.activateScheme, form, key),
    { onSuccess: refresh },
  );
}

/** POST /api/scheme/add-installment. */
export function useAddInstallment() {
  const refresh = useRefreshSchemes();
  return useChange(
    (form: PaymentForm, key: string) => postPayment(API_PATHS.addInstallment, form, key),
    { onSuccess: refresh },
  );
}

/** POST /api/scheme/close: pays out; bonus and maturity value come back. */
export function useCloseScheme() {
  const refresh = useRefreshSchemes();
  return useChange(closeScheme, { onSuccess: refresh });
}
