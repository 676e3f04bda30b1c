import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { isIndianMobile } from '@kanak/contract';
import { customerSearchQuery, type CustomerOption } from './CustomerSearch';

/** The address's parameter naming the customer a screen opens with (the counter home's links). */
export const CUSTOMER_PARAM = 'customer';

/** A screen's address with its customer: `/home/loyalty-points?customer=9876543210`. */
export const withCustomer = (path: string, customer: CustomerOption | null) =>
  customer ? `${path}?${new URLSearchParams({ [CUSTOMER_PARAM]: customer.MOBILENO })}` : path;

/**
 * The customer the address names, once found on file; null while asked, and for a number that
 * is not a mobile or no customer's (the screen then opens empty, as without it).
 */
export function useCustomerFromAddress(): CustomerOption | null {
  const [params] = useSearchParams();
  const mobile = params.get(CUSTOMER_PARAM)?.trim() ?? '';
  const valid = isIndianMobile(mobile);
  const found = useQuery({ ...customerSearchQuery(valid ? mobile : ''), retry: false });
  return found.data?.find((customer) => customer.MOBILENO === mobile) ?? null;
}
