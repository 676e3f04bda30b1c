import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  CONSENT_LABELS,
  DATA_RIGHTS_MESSAGES,
  DATA_RIGHTS_TEXTS,
  IDEMPOTENCY_HEADER,
  LEDGER_TEXTS,
  PAGE_TITLES,
  PRIVACY_NOTICE_VERSION,
  customerDataFileName,
  type ConsentEvent,
  type CustomerDataExport,
  type CustomerProfile,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = DATA_RIGHTS_TEXTS;
const P = API_PATHS;

const MEERA: CustomerProfile = {
  custid: 41,
  mobileno: '9876543210',
  custname: 'Meera Nair',
  email: 'meera@example.in',
  address: '14 MG Road',
  city: 'Kochi',
  pincode: '682001',
  state: 'Kerala',
  dob: '1990-05-14',
  doa: '',
  aadhaar: 'XXXXXXXX4321',
  pan: 'ABCDE1234F',
  points: 120,
  pointsValue: 60,
  pointsExpiringIn30Days: 40,
  consents: { transactional: false, marketing: false },
  consentHistory: [],
};
const MEERA_OPTION = { CUSTNAME: MEERA.custname, MOBILENO: MEERA.mobileno };

const event = (purpose: ConsentEvent['purpose'], granted: boolean, by = 'asha'): ConsentEvent => ({
  purpose,
  granted,
  method: 'staff',
  noticeVersion: PRIVACY_NOTICE_VERSION,
  recordedBy: by,
  recordedAt: '2026-03-04T05:06:00.000Z',
});

const EXPORT: CustomerDataExport = {
  exportedAt: '2026-03-05T06:00:00.000Z',
  noticeVersion: PRIVACY_NOTICE_VERSION,
  profile: { ...MEERA, erasedAt: null },
  consents: { transactional: true, marketing: false },
  consentHistory: [event('transactional', true)],
  pointsLedger: [
    {
      mrn: 7,
      date: '2026-01-02',
      narration: 'Points allocated',
      credit: 120,
      debit: 0,
      saleAmountPaise: 0,
      source: 'M',
      createdAt: '2026-01-02T10:00:00.000Z',
    },
  ],
  schemes: [],
  noticesSent: [],
};

function server(customer: CustomerProfile = MEERA, role = 'owner') {
  return fakeServer()
    .on('GET', P.me, { status: 200, body: { success: true, data: { ...testOwner, role } } })
    .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [MEERA_OPTION] } })
    .on('POST', P.customerData, { status: 200, body: { success: true, data: customer } });
}

async function openCustomer() {
  setScreenWidth(1366);
  signedInAs('asha');
  renderApp('/home/customer-profile');
  await screen.findByRole(
    'heading',
    { level: 1, name: PAGE_TITLES.customerProfile },
    { timeout: 20_000 },
  );
  const user = userEvent.setup();
  await pickCustomer(user, LEDGER_TEXTS.customerProfile.search, 'Meera', MEERA_OPTION);
  await screen.findByRole('heading', { level: 2, name: texts.heading });
  return user;
}

const toggle = (purpose: keyof typeof CONSENT_LABELS) =>
  screen.getByRole('switch', { name: CONSENT_LABELS[purpose] });

afterEach(() => vi.restoreAllMocks());

describe('Customer Profile: consent and data rights', { timeout: 60_000 }, () => {
  it('asks for consent when none is recorded, records a grant, and shows the history', async () => {
    const recorded = {
      consents: { transactional: true, marketing: false },
      consentHistory: [event('transactional', true)],
    };
    const fake = server().on('POST', P.customerConsent, {
      status: 200,
      body: {
        success: true,
        message: DATA_RIGHTS_MESSAGES.consentRecorded('transactional', true),
        data: recorded,
      },
    });
    const user = await openCustomer();
    expect(screen.getByText(texts.consentPrompt)).toBeInTheDocument();
    expect(toggle('transactional')).not.toBeChecked();
    expect(toggle('marketing')).not.toBeChecked();
    expect(screen.getByText(texts.noHistory)).toBeInTheDocument();

    await user.click(toggle('transactional'));
    await user.click(await screen.findByRole('button', { name: texts.consentConfirm }));
    await waitFor(() => expect(toggle('transactional')).toBeChecked());
    const [sent] = fake.sent('POST', P.customerConsent);
    expect(sent!.body).toEqual({ custid: 41, purpose: 'transactional', granted: true });
    expect(
      sent!.headers[IDEMPOTENCY_HEADER.toLowerCase()] ?? sent!.headers[IDEMPOTENCY_HEADER],
    ).toBeTruthy();
    expect(screen.queryByText(texts.consentPrompt)).not.toBeInTheDocument();
    const history = screen.getByRole('table', { name: texts.consentHistory });
    expect(within(history).getByText(texts.granted)).toBeInTheDocument();
    expect(within(history).getByText('asha')).toBeInTheDocument();
    expect(
      within(history).getByText(`at the counter, ${texts.noticeVersion(PRIVACY_NOTICE_VERSION)}`),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(DATA_RIGHTS_MESSAGES.consentRecorded('transactional', true)),
    ).toBeInTheDocument();
  });

  it('downloads the customer data as a JSON file', async () => {
    server().on('GET', P.customerDataExport, {
      status: 200,
      body: { success: true, data: EXPORT },
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:customer-data';
    });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    const user = await openCustomer();
    await user.click(screen.getByRole('button', { name: texts.downloadJson }));
    await waitFor(() => expect(downloads).toEqual([customerDataFileName(41)]));
    expect(blobs[0]!.type).toBe('application/json;charset=utf-8');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    expect(JSON.parse(text)).toEqual(EXPORT);
  });

  it('prints the customer data with the ledger and an empty list of notices', async () => {
    server().on('GET', P.customerDataExport, {
      status: 200,
      body: { success: true, data: EXPORT },
    });
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const user = await openCustomer();
    await user.click(screen.getByRole('button', { name: texts.printData }));
    await waitFor(() => expect(print).toHaveBeenCalledOnce());
    const sheet = screen.getByTestId('print-customer-data');
    expect(within(sheet).getByText('Meera Nair')).toBeInTheDocument();
    expect(within(sheet).getByText('Points allocated')).toBeInTheDocument();
    expect(within(sheet).getByText(texts.noticesSentNone)).toBeInTheDocument();
  });

  it('erases only after the mobile number is typed, and shows the refusal reason', async () => {
    const refusal = DATA_RIGHTS_MESSAGES.eraseActiveScheme(12);
    const fake = server().on('POST', P.eraseCustomer, {
      status: 409,
      body: { success: false, message: refusal },
    });
    const user = await openCustomer();
    await user.click(await screen.findByRole('button', { name: texts.erase }));
    const dialog = await screen.findByRole('dialog', { name: texts.eraseTitle });
    await user.click(within(dialog).getByRole('button', { name: texts.eraseConfirm }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      texts.eraseConfirmLabel(MEERA.mobileno),
    );
    expect(fake.sent('POST', P.eraseCustomer)).toHaveLength(0);

    await user.type(
      within(dialog).getByRole('textbox', { name: texts.eraseConfirmLabel(MEERA.mobileno) }),
      MEERA.mobileno,
    );
    await user.click(within(dialog).getByRole('button', { name: texts.eraseConfirm }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent(refusal));
    expect(fake.sent('POST', P.eraseCustomer).map((request) => request.body)).toEqual([
      { custid: 41 },
    ]);

    // Allowed now: the screen starts over.
    fake.on('POST', P.eraseCustomer, {
      status: 200,
      body: {
        success: true,
        message: DATA_RIGHTS_MESSAGES.customerErased,
        data: { custid: 41, erasedAt: '2026-03-05T06:00:00.000Z', alreadyErased: false },
      },
    });
    await user.click(within(dialog).getByRole('button', { name: texts.eraseConfirm }));
    expect(await screen.findByText(DATA_RIGHTS_MESSAGES.customerErased)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: texts.heading })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: LEDGER_TEXTS.customerProfile.name })).toHaveValue(
      '',
    );
  });

  it('shows a cashier the consents but not the download or erase', async () => {
    server(MEERA, 'cashier');
    await openCustomer();
    expect(toggle('marketing')).toBeEnabled();
    expect(screen.queryByRole('button', { name: texts.downloadJson })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.erase })).not.toBeInTheDocument();
  });

  it('shows a manager the download but not the erase', async () => {
    server(MEERA, 'manager');
    await openCustomer();
    expect(await screen.findByRole('button', { name: texts.downloadJson })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.erase })).not.toBeInTheDocument();
  });
});
