import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  EXPORT_FILE_NAME,
  MESSAGES,
  TIER_BY_HAND_TEXTS,
  type ConsentPurpose,
  type CustomerDataExport,
  type CustomerFormInput,
  type CustomerProfile,
  type CustomerTierRequest,
  type consentResponse,
  type customerTierResponse,
  type customerDataExportResponse,
  type customerProfileResponse,
  type eraseResponse,
  type exportTicketResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';
import { redeemTermsKey } from '../../lib/redeem-terms';
import { downloadUrl } from '../../components/saveFile';

export const customerKeys = {
  all: ['customers'] as const,
  search: ['customers', 'search'] as const,
};

/** POST /api/customers/get-customer-data: the whole profile (Aadhaar masked) with consents. */
export async function fetchCustomer(mobileno: string): Promise<CustomerProfile> {
  const { data } = await api.post<Answer<typeof customerProfileResponse>>(API_PATHS.customerData, {
    mobileno,
  });
  return expectSuccess(data).data;
}

/** POST /api/customers/update-customer-data: creates (no custid) or updates a customer. */
async function saveCustomer(formData: CustomerFormInput, key: string) {
  const { data } = await api.post<Answer<typeof customerProfileResponse>>(
    API_PATHS.saveCustomer,
    { formData },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/**
 * Export All: POST /api/customers/export-ticket answers a single-use link, which the browser
 * downloads itself as customer_list.csv. A million customers stream to disk, never through
 * this tab's memory. No customers: the POST is refused with 404 and nothing is downloaded.
 */
async function exportCustomers() {
  const { data } = await api.post<Answer<typeof exportTicketResponse>>(API_PATHS.exportTicket);
  const link = expectSuccess(data).data;
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
    failed: MESSAGES.saveFailed,
  });
}

export const useExportCustomers = () => useMutation({ mutationFn: exportCustomers });

export interface ConsentChange {
  custid: number;
  purpose: ConsentPurpose;
  granted: boolean;
}

/** POST /api/customers/consent: records a grant or withdrawal; answers the consents now. */
async function recordConsent(change: ConsentChange, key: string) {
  const { data } = await api.post<Answer<typeof consentResponse>>(
    API_PATHS.customerConsent,
    change,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export const useRecordConsent = () => useChange(recordConsent, { failed: MESSAGES.saveFailed });

/** GET /api/customers/data-export: everything held about one customer. */
export async function fetchCustomerData(custid: number): Promise<CustomerDataExport> {
  const { data } = await api.get<Answer<typeof customerDataExportResponse>>(
    API_PATHS.customerDataExport,
    { params: { custid } },
  );
  return expectSuccess(data).data;
}

export const useCustomerData = () => useMutation({ mutationFn: fetchCustomerData });

/** POST /api/customers/erase (owner): removes the customer's personal data for good. */
async function eraseCustomer(custid: number, key: string) {
  const { data } = await api.post<Answer<typeof eraseResponse>>(
    API_PATHS.eraseCustomer,
    { custid },
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useEraseCustomer() {
  const queryClient = useQueryClient();
  // The name and mobile are gone: searches ask again.
  return useChange(eraseCustomer, {
    onSuccess: () => refetchAfterChange(queryClient, customerKeys.all),
    failed: MESSAGES.saveFailed,
  });
}

/** POST /api/customers/tier (owner): a tier for one customer until a date, or none. */
async function setCustomerTier(request: CustomerTierRequest, key: string) {
  const { data } = await api.post<Answer<typeof customerTierResponse>>(
    API_PATHS.customerTier,
    request,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useSetCustomerTier() {
  const queryClient = useQueryClient();
  // The look-ups showing where the customer stands ask again.
  return useChange(setCustomerTier, {
    onSuccess: () => refetchAfterChange(queryClient, redeemTermsKey),
    failed: TIER_BY_HAND_TEXTS.failed,
    unmadeAsAlert: true,
  });
}
