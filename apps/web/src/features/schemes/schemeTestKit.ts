/**
 * Test helpers for the scheme screens (imported by the *.test.tsx files only): a customer, a
 * fake server answering the scheme calls, and choosing a customer in the search box.
 */
import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import {
  API_PATHS,
  LEDGER_TEXTS,
  todayIn,
  type CustomerRecord,
  type SchemeRecord,
} from '@kanak/contract';
import { fakeServer } from '../../test/fake-server';
import { signedInAs } from '../../test/render';

export const today = () => todayIn('Asia/Kolkata');

export const customer: CustomerRecord = {
  custid: 41,
  mobileno: '9876543210',
  custname: 'Lakshmi Iyer',
  email: '',
  address: '',
  city: 'Chennai',
  pincode: '',
  state: '',
  dob: '',
  doa: '',
  aadhaar: '',
  pan: '',
  points: 0,
};

export const scheme = (fields: Partial<SchemeRecord> = {}): SchemeRecord => ({
  schemeid: 7,
  startdt: '2025-04-10',
  matdt: '2026-04-09',
  amount: 5000,
  matyn: 'a',
  installments: 11,
  paid: 1,
  ...fields,
});

export const ok = (body: object = {}) => ({ status: 200, body: { success: true, ...body } });
export const refused = (status: number, message: string) => ({
  status,
  body: { success: false, message },
});
export const serverError = { status: 500, body: { success: false, message: 'boom' } };

/** A signed-in fake server that finds `customer` by mobile and lists `schemes` for them. */
export function schemeServer({
  record = customer,
  schemes = [] as SchemeRecord[],
}: { record?: CustomerRecord; schemes?: SchemeRecord[] } = {}) {
  signedInAs('meera');
  return fakeServer()
    .on(
      'GET',
      API_PATHS.searchCustomers,
      ok({ data: [{ CUSTNAME: record.custname, MOBILENO: record.mobileno }] }),
    )
    .on('POST', API_PATHS.customerData, ok({ data: record }))
    .on('POST', API_PATHS.schemes, ok({ data: schemes }));
}

/** Types part of the mobile number, waits out the search pause and picks the customer. */
export async function pickCustomer(user: UserEvent, label: string, record = customer) {
  await user.type(screen.getByRole('combobox', { name: label }), record.mobileno.slice(0, 5));
  const option = await screen.findByRole(
    'option',
    {
      name: LEDGER_TEXTS.customerSearch.optionLabel({
        CUSTNAME: record.custname,
        MOBILENO: record.mobileno,
      }),
    },
    { timeout: 4000 },
  );
  await user.click(option);
}

/** The texts of the transient alerts now showing. */
export const alertTexts = () =>
  screen.queryAllByRole('alert').map((alert) => alert.textContent ?? '');

export { bodyRows, catchDownloads, cells } from '../../test/tables';
