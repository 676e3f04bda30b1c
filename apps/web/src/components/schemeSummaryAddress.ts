import { SUMMARY_STATUS_OPTIONS, type SummaryStatusLabel } from '@kanak/contract';
import type { CustomerOption } from './CustomerSearch';
import type { AddressFilter } from './useAddressFilter';
import { PATHS } from '../lib/paths';

/** The summary's filter form; a date left null shows its default (From: the financial year's start). */
export interface SummaryForm {
  customer: CustomerOption | null;
  status: SummaryStatusLabel;
  from: string | null;
  to: string | null;
}

const isStatus = (value: string | null): value is SummaryStatusLabel =>
  SUMMARY_STATUS_OPTIONS.some((option) => option.label === value);
const isDate = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The summary asked for, in the address (`?status=Active&from=…&to=…&mobile=…&name=…`): the
 * dates say it was generated; the customer's name rides along so the search box shows them.
 */
export const summaryAddress: AddressFilter<SummaryForm> = {
  read: (params) => {
    const mobile = params.get('mobile');
    const status = params.get('status');
    const from = params.get('from');
    const to = params.get('to');
    return {
      customer: mobile ? { MOBILENO: mobile, CUSTNAME: params.get('name') ?? '' } : null,
      status: isStatus(status) ? status : 'All',
      from: isDate(from) ? from : null,
      to: isDate(to) ? to : null,
    };
  },
  write: ({ customer, status, from, to }) =>
    from === null || to === null
      ? {}
      : {
          status,
          from,
          to,
          ...(customer && { mobile: customer.MOBILENO, name: customer.CUSTNAME }),
        },
};

/** The earliest day the date fields take: a From that leaves out no scheme. */
export const EVERY_START = '1900-01-01';

/**
 * Scheme Summary listing every scheme of `customer` up to `today`, whenever it started: where
 * the counter takes an installment. The summary's own From (1 April) would hide a scheme started
 * last year that is still being paid; a scheme awaiting its first installment shows too, with
 * its Activate button. The address is a generated summary's, so it opens listed.
 */
export const customerSchemesPath = (customer: CustomerOption, today: string) =>
  `${PATHS.schemeSummary}?${new URLSearchParams(
    summaryAddress.write({ customer, status: 'All', from: EVERY_START, to: today }),
  )}`;
