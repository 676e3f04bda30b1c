import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  CONSENT_LABELS,
  DATA_RIGHTS_MESSAGES,
  DATA_RIGHTS_TEXTS,
  LEDGER_TEXTS,
  PAGE_TITLES,
  PRIVACY_NOTICE_VERSION,
  type CustomerProfile,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { deferred, fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = DATA_RIGHTS_TEXTS;
const P = API_PATHS;
const MEERA: CustomerProfile = {
  custid: 41,
  mobileno: '9876543210',
  custname: 'Meera Nair',
  email: '',
  address: '',
  city: '',
  pincode: '',
  state: '',
  dob: '',
  doa: '',
  aadhaar: '',
  pan: '',
  points: 0,
  pointsValue: 0,
  pointsExpiringIn30Days: 0,
  consents: { transactional: true, marketing: false },
  consentHistory: [
    {
      purpose: 'transactional',
      granted: false,
      method: 'staff',
      noticeVersion: PRIVACY_NOTICE_VERSION,
      recordedBy: 'asha',
      recordedAt: '2026-03-04T05:06:00.000Z',
    },
  ],
};
const OPTION = { CUSTNAME: MEERA.custname, MOBILENO: MEERA.mobileno };

async function openCustomer() {
  const fake = fakeServer()
    .on('GET', P.me, { status: 200, body: { success: true, data: testOwner } })
    .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [OPTION] } })
    .on('POST', P.customerData, { status: 200, body: { success: true, data: MEERA } })
    .on('POST', P.customerConsent, {
      status: 200,
      body: {
        success: true,
        message: DATA_RIGHTS_MESSAGES.consentRecorded('marketing', true),
        data: {
          consents: { transactional: true, marketing: true },
          consentHistory: MEERA.consentHistory,
        },
      },
    });
  setScreenWidth(1366);
  signedInAs('asha');
  renderApp('/home/customer-profile');
  await screen.findByRole(
    'heading',
    { level: 1, name: PAGE_TITLES.customerProfile },
    { timeout: 20_000 },
  );
  const user = userEvent.setup();
  await pickCustomer(user, LEDGER_TEXTS.customerProfile.search, 'Meera', OPTION);
  await screen.findByRole('heading', { level: 2, name: texts.heading });
  return { user, fake };
}

const marketing = () => screen.getByRole('switch', { name: CONSENT_LABELS.marketing });

describe('the consent switch', { timeout: 60_000 }, () => {
  it('asks before recording: Cancel records nothing, Record records it', async () => {
    const { user, fake } = await openCustomer();

    await user.click(marketing());
    const dialog = await screen.findByRole('dialog', { name: texts.consentConfirmTitle(true) });
    expect(dialog).toHaveAccessibleDescription(
      texts.consentConfirmBody(MEERA.custname, CONSENT_LABELS.marketing, true),
    );
    // Cancel has the focus: a stray Enter records nothing.
    expect(within(dialog).getByRole('button', { name: texts.consentCancel })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: texts.consentCancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.sent('POST', P.customerConsent)).toHaveLength(0);
    expect(marketing()).not.toBeChecked();

    await user.click(marketing());
    await user.click(await screen.findByRole('button', { name: texts.consentConfirm }));
    await waitFor(() => expect(marketing()).toBeChecked());
    expect(fake.sent('POST', P.customerConsent).map((sent) => sent.body)).toEqual([
      { custid: 41, purpose: 'marketing', granted: true },
    ]);
  });

  it('records a Record pressed twice once, the switch and the button off while it is sent', async () => {
    const { user, fake } = await openCustomer();
    const pending = deferred();
    fake.on('POST', P.customerConsent, pending.handler);
    await user.click(marketing());
    const dialog = await screen.findByRole('dialog', { name: texts.consentConfirmTitle(true) });
    await user.dblClick(within(dialog).getByRole('button', { name: texts.consentConfirm }));
    // The page behind the dialog is hidden from the accessibility tree while it is open.
    await waitFor(() =>
      expect(
        screen.getByRole('switch', { name: CONSENT_LABELS.marketing, hidden: true }),
      ).toBeDisabled(),
    );
    expect(
      within(dialog).getByRole('button', { name: new RegExp(texts.consentConfirm) }),
    ).toBeDisabled();
    pending.release({
      status: 200,
      body: {
        success: true,
        message: DATA_RIGHTS_MESSAGES.consentRecorded('marketing', true),
        data: {
          consents: { transactional: true, marketing: true },
          consentHistory: MEERA.consentHistory,
        },
      },
    });
    await waitFor(() => expect(marketing()).toBeChecked());
    expect(fake.sent('POST', P.customerConsent)).toHaveLength(1);
  });

  it('keeps "Withdrawn" on one line in the history', async () => {
    await openCustomer();
    const history = screen.getByRole('table', { name: texts.consentHistory });
    expect(within(history).getByText(texts.withdrawn).closest('[role="cell"]')).toHaveStyle({
      whiteSpace: 'nowrap',
    });
  });
});
