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
import { saveFile } from '../../components/saveFile';

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

/**
 * GET /api/customers/download-customer-data?format=csv, streamed by the server, saved as
 * customer_list.csv.
 */
async function exportCustomers() {
  const { data } = await api.get<Blob>(API_PATHS.exportCustomers, {
    params: { format: 'csv' },
    responseType: 'blob',
    headers: { Accept: 'text/csv' },
  });
  saveFile(data, EXPORT_FILE_NAME);
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
