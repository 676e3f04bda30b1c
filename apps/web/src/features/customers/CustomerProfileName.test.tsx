import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  LEDGER_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  type CustomerProfile,
} from '@kanak/contract';
import { fakeServer } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

/** The profile form checks a name with the server's own rule before it sends anything. */

const texts = LEDGER_TEXTS.customerProfile;
const P = API_PATHS;

const saved = (custname: string): CustomerProfile => ({
  custid: 90,
  mobileno: '9876543210',
  custname,
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
  consents: { transactional: false, marketing: false },
  consentHistory: [],
});

async function openProfile() {
  setScreenWidth(1366);
  signedInAs('asha');
  renderApp('/home/customer-profile');
  await screen.findByRole(
    'heading',
    { level: 1, name: PAGE_TITLES.customerProfile },
    { timeout: 20_000 },
  );
  return userEvent.setup();
}

const alertWith = (message: string) =>
  waitFor(() => {
    const alert = [...document.querySelectorAll<HTMLElement>('.MuiAlert-root')].find((element) =>
      element.textContent?.includes(message),
    );
    expect(alert).toBeDefined();
    return alert!;
  });

describe('Customer Profile: the name', { timeout: 60_000 }, () => {
  it('a name with a web address or a hidden character is refused on the form, nothing sent', async () => {
    const fake = fakeServer().on('GET', P.searchCustomers, {
      status: 200,
      body: { success: true, data: [] },
    });
    const user = await openProfile();
    await user.type(screen.getByRole('combobox', { name: texts.search }), '9876543210');
    const name = screen.getByRole('textbox', { name: texts.name });

    await user.type(name, 'Asha pay at http://evil.example/kyc');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await alertWith(MESSAGES.nameWithLink('Name'))).toHaveClass('MuiAlert-colorWarning');

    // A host under any top-level domain, its dot an ideographic full stop.
    await user.clear(name);
    await user.click(name);
    await user.paste('Asha - points frozen, verify KYC at kanak-kyc\u3002store');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await alertWith(MESSAGES.nameWithLink('Name'))).toHaveClass('MuiAlert-colorWarning');

    await user.clear(name);
    await user.click(name);
    await user.paste('Asha \u202ERao');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await alertWith(MESSAGES.nameOnOneLine('Name'))).toHaveClass('MuiAlert-colorWarning');
    expect(fake.sent('POST', P.saveCustomer)).toHaveLength(0);
  });

  it('a Hindi name with a joiner is sent as typed', async () => {
    const typed = 'आशा क्\u200Dष राव';
    const fake = fakeServer()
      .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [] } })
      .on('POST', P.saveCustomer, {
        status: 200,
        body: { success: true, message: MESSAGES.customerSaved, data: saved(typed) },
      });
    const user = await openProfile();
    await user.type(screen.getByRole('combobox', { name: texts.search }), '9876543210');
    await user.click(screen.getByRole('textbox', { name: texts.name }));
    await user.paste(typed);
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await alertWith(MESSAGES.customerSaved)).toHaveClass('MuiAlert-colorSuccess');
    expect(fake.sent('POST', P.saveCustomer)[0]?.body).toMatchObject({
      formData: { custname: typed },
    });
  });
});
