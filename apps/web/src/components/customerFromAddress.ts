import { useEffect, useRef } from 'react';
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

/**
 * Chooses the customer the address names, once, when found, unless staff have already chosen
 * one themselves (`current`).
 */
export function usePreselectedCustomer(
  current: CustomerOption | null,
  choose: (customer: CustomerOption) => void,
) {
  const found = useCustomerFromAddress();
  const done = useRef(false);
  useEffect(() => {
    if (!found || done.current) return;
    done.current = true;
    if (current === null) choose(found);
    // Only the customer found matters: the screen's own choices come after it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [found]);
}
