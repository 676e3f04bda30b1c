import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  EXPORT_FILE_NAME,
  type CustomerFormInput,
  type CustomerRecord,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Envelope } from '../../lib/api';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';
import { downloadUrl } from '../../components/saveFile';

export const customerKeys = {
  all: ['customers'] as const,
  search: ['customers', 'search'] as const,
};

interface CustomerResponse extends Envelope {
  data?: CustomerRecord;
}

/** POST /api/customers/get-customer-data: the whole profile (Aadhaar masked). */
export async function fetchCustomer(mobileno: string): Promise<CustomerRecord> {
  const { data } = await api.post<CustomerResponse>(API_PATHS.customerData, { mobileno });
  const record = expectSuccess(data).data;
  if (!record) throw new Error('get-customer-data answered without data');
  return record;
}

/** POST /api/customers/update-customer-data: creates (no custid) or updates a customer. */
async function saveCustomer(formData: CustomerFormInput, key: string) {
  const { data } = await api.post<CustomerResponse>(
    API_PATHS.saveCustomer,
    { formData },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

interface ExportTicketResponse extends Envelope {
  data?: { url: string; expiresInSeconds: number };
}

/**
 * Export All: POST /api/customers/export-ticket answers a single-use link, which the browser
 * downloads itself as customer_list.csv. A million customers stream to disk, never through
 * this tab's memory. No customers: the POST is refused with 404 and nothing is downloaded.
 */
async function exportCustomers() {
  const { data } = await api.post<ExportTicketResponse>(API_PATHS.exportTicket);
  const link = expectSuccess(data).data;
  if (!link) throw new Error('export-ticket answered without data');
  // The link is relative to the API server's origin, wherever that is.
  const apiBase = new URL(api.defaults.baseURL ?? '/', window.location.href);
  downloadUrl(new URL(link.url, apiBase).href, EXPORT_FILE_NAME);
}

/** Loads a chosen customer; only the latest call's callbacks run, so a late answer is dropped. */
export const useCustomerLookup = () => useMutation({ mutationFn: fetchCustomer });

export function useSaveCustomer() {
  const queryClient = useQueryClient();
  // Names and mobiles may have changed: searches (here and on other screens) ask again.
  return useChange(saveCustomer, {
    onSuccess: () => refetchAfterChange(queryClient, customerKeys.all),
  });
}

export const useExportCustomers = () => useMutation({ mutationFn: exportCustomers });
