import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  EXPORT_FILE_NAME,
  IDEMPOTENCY_HEADER,
  LEDGER_TEXTS,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  POINTS_SUMMARY_TEXTS,
  TIER_BY_HAND_TEXTS,
  TIER_MESSAGES,
  TIER_STANDING_TEXTS,
  addDays,
  todayIn,
  type CustomerProfile,
  type TierStanding,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { ddmmyyyy, typeDate } from '../../components/DateField.testing';
import { deferred, fakeServer } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = LEDGER_TEXTS.customerProfile;
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
  doa: '1900-01-01',
  aadhaar: 'XXXXXXXX4321',
  pan: 'ABCDE1234F',
  points: 120,
  pointsValue: 60,
  pointsExpiringIn30Days: 40,
  consents: { transactional: false, marketing: false },
  consentHistory: [],
};
const MEERA_OPTION = { CUSTNAME: MEERA.custname, MOBILENO: MEERA.mobileno };

/** The fake server, answering customer searches with no match unless told otherwise. */
const server = () =>
  fakeServer().on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [] } });

async function openProfile() {
  setScreenWidth(1366);
  signedInAs('asha');
  renderApp('/home/customer-profile');
  // The first screen of a cold run compiles on demand: give it time.
  await screen.findByRole(
    'heading',
    { level: 1, name: PAGE_TITLES.customerProfile },
    { timeout: 20_000 },
  );
  return userEvent.setup();
}

const field = (label: string) => screen.getByRole('textbox', { name: label });
const search = () => screen.getByRole('combobox', { name: texts.search });
/** The text a date picker shows (its sections, as the user reads them). */
const dateText = (label: string) =>
  (screen.getByRole('group', { name: label }).textContent ?? '')
    .replace(label, '')
    .replace(/[\u2066-\u2069\u200e]/g, '');
/** The line above the fields that says what SAVE will do. */
const saveStatus = () => screen.getByText(/^(New customer|Updating)/);
/** The links the page hands to the browser's download manager: address and file name. */
function catchLinkDownloads() {
  const links: { href: string; download: string }[] = [];
  const original = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
    if (this.download) links.push({ href: this.href, download: this.download });
    else original.call(this);
  };
  return { links, restore: () => (HTMLAnchorElement.prototype.click = original) };
}
const button = (name: string) => screen.getByRole('button', { name });
/** The toast with `message` (the same words may also stand under the field concerned). */
const alertWith = (message: string) =>
  waitFor(() => {
    const alert = [...document.querySelectorAll<HTMLElement>('.MuiAlert-root')].find((element) =>
      element.textContent?.includes(message),
    );
    expect(alert).toBeDefined();
    return alert!;
  });

describe('Customer Profile', { timeout: 60_000 }, () => {
  it('shows the form with the search box focused, its fields and limits', async () => {
    server();
    await openProfile();

    expect(
      screen.getByRole('heading', { level: 2, name: PAGE_TITLES.customerProfileForm }),
    ).toBeInTheDocument();
    await waitFor(() => expect(search()).toHaveFocus());
    for (const label of [
      texts.name,
      texts.email,
      texts.address,
      texts.city,
      texts.pincode,
      texts.state,
      texts.aadhaar,
      texts.pan,
    ]) {
      expect(field(label)).toHaveValue('');
    }
    expect(screen.getByRole('group', { name: texts.dob })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: texts.doa })).toBeInTheDocument();
    expect(field(texts.aadhaar)).toHaveAttribute('maxlength', String(LIMITS.aadhaarMaxLength));
    expect(field(texts.pan)).toHaveAttribute('maxlength', String(LIMITS.panLength));
    expect(button(texts.save)).toBeEnabled();
    expect(button(texts.cancel)).toBeEnabled();
    expect(button(texts.exportAll)).toBeEnabled();
    expect(saveStatus()).toHaveTextContent(texts.newCustomer);
  });

  it('searches after the 1000 ms pause; choosing clears the form, then fills it', async () => {
    const lookup = deferred();
    let searchedAt = 0;
    const fake = server()
      .on('GET', P.searchCustomers, () => {
        searchedAt = Date.now();
        return { status: 200, body: { success: true, data: [MEERA_OPTION] } };
      })
      .on('POST', P.customerData, lookup.handler);
    const user = await openProfile();
    await user.type(field(texts.name), 'Someone typed earlier');

    await user.click(search());
    const typedAt = Date.now();
    await user.paste('98765');
    await user.click(
      await screen.findByRole('option', { name: 'Meera Nair (+91) 9876543210' }, { timeout: 8000 }),
    );
    // Sent once, and not before the pause had passed.
    expect(fake.sent('GET', P.searchCustomers).map((r) => r.params?.search)).toEqual(['98765']);
    expect(searchedAt - typedAt).toBeGreaterThanOrEqual(LIMITS.customerSearchPauseMs - 10);

    // Cleared while the customer loads, with the loading flag on.
    await waitFor(() => expect(field(texts.name)).toHaveValue(''));
    expect(button(texts.save)).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: texts.loading })).toBeInTheDocument();

    lookup.release({ status: 200, body: { success: true, data: MEERA } });
    await waitFor(() => expect(field(texts.name)).toHaveValue('Meera Nair'));
    expect(fake.sent('POST', P.customerData)[0]?.body).toEqual({ mobileno: '9876543210' });
    expect(field(texts.email)).toHaveValue('meera@example.in');
    expect(field(texts.address)).toHaveValue('14 MG Road');
    expect(field(texts.city)).toHaveValue('Kochi');
    expect(field(texts.pincode)).toHaveValue('682001');
    expect(field(texts.state)).toHaveValue('Kerala');
    expect(field(texts.aadhaar)).toHaveValue('XXXXXXXX4321');
    expect(field(texts.pan)).toHaveValue('ABCDE1234F');
    expect(dateText(texts.dob)).toBe('14/05/1990');
    // 1900-01-01 means "no date".
    expect(dateText(texts.doa)).toBe('DD/MM/YYYY');
    expect(saveStatus()).toHaveTextContent('Updating Meera Nair (+91) 9876543210');
    expect(button(texts.save)).toBeEnabled();
  });

  it('SAVE warns in the spec order: mobile missing, not 10 digits, name missing', async () => {
    const fake = server();
    const user = await openProfile();

    await user.click(button(texts.save));
    expect(await alertWith(MESSAGES.enterMobile)).toHaveClass('MuiAlert-colorWarning');
    expect(screen.queryByText(MESSAGES.mobileLength)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.enterName)).not.toBeInTheDocument();

    await user.type(search(), '98765');
    await user.click(button(texts.save));
    expect(await alertWith(MESSAGES.mobileLength)).toHaveClass('MuiAlert-colorWarning');
    expect(screen.queryByText(MESSAGES.enterName)).not.toBeInTheDocument();

    await user.clear(search());
    await user.type(search(), '9876543210');
    await user.click(button(texts.save));
    expect(await alertWith(MESSAGES.enterName)).toHaveClass('MuiAlert-colorWarning');

    expect(fake.sent('POST', P.saveCustomer)).toHaveLength(0);
  });

  it('saves a new customer: the typed mobile, the fields, empty dates; shows the server message', async () => {
    const saved = { ...MEERA, custid: 77, doa: '', dob: '' };
    const fake = server().on('POST', P.saveCustomer, {
      status: 200,
      body: { success: true, message: MESSAGES.customerSaved, data: saved },
    });
    const user = await openProfile();

    await user.type(search(), '9876543210');
    await user.type(field(texts.name), '  Meera Nair ');
    await user.type(field(texts.city), 'Kochi');
    await user.type(field(texts.pan), 'abcde1234f');
    await user.click(button(texts.save));

    expect(await alertWith(MESSAGES.customerSaved)).toHaveClass('MuiAlert-colorSuccess');
    const [request] = fake.sent('POST', P.saveCustomer);
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.body).toEqual({
      formData: {
        custid: null,
        mobileno: '9876543210',
        custname: 'Meera Nair',
        email: '',
        address: '',
        city: 'Kochi',
        pincode: '',
        state: '',
        dob: '',
        doa: '',
        aadhaar: '',
        pan: 'ABCDE1234F',
      },
    });
    // The saved record is now the one on screen: the next SAVE updates it.
    await waitFor(() =>
      expect(saveStatus()).toHaveTextContent('Updating Meera Nair (+91) 9876543210'),
    );
    expect(search()).toHaveValue('Meera Nair (+91) 9876543210');
  });

  it('a refusal (4xx) shows the server message as a warning; a failure shows "Error in saving"', async () => {
    let reply: 'refuse' | 'fail' = 'refuse';
    server().on('POST', P.saveCustomer, () =>
      reply === 'refuse'
        ? { status: 409, body: { success: false, message: MESSAGES.mobileTaken } }
        : { status: 500, body: { success: false, message: 'boom' } },
    );
    const user = await openProfile();
    await user.type(search(), '9876543210');
    await user.type(field(texts.name), 'Meera Nair');

    await user.click(button(texts.save));
    expect(await alertWith(MESSAGES.mobileTaken)).toHaveClass('MuiAlert-colorWarning');

    reply = 'fail';
    await user.click(button(texts.save));
    expect(await alertWith(MESSAGES.saveFailed)).toHaveClass('MuiAlert-colorError');
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
  });

  it('CANCEL empties the fields, the chosen customer and the search text', async () => {
    server()
      .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [MEERA_OPTION] } })
      .on('POST', P.customerData, { status: 200, body: { success: true, data: MEERA } });
    const user = await openProfile();
    await pickCustomer(user, texts.search, 'Meera', MEERA_OPTION);
    await waitFor(() => expect(field(texts.name)).toHaveValue('Meera Nair'));
    // The customer's points: the balance, its rupee value and what expires within 30 days.
    expect(screen.getByRole('status', { name: POINTS_SUMMARY_TEXTS.label })).toHaveTextContent(
      '120 points· worth ₹60 · 40 expire within 30 days',
    );

    await user.click(button(texts.cancel));
    expect(screen.queryByRole('status', { name: POINTS_SUMMARY_TEXTS.label })).toBeNull();

    expect(search()).toHaveValue('');
    expect(field(texts.name)).toHaveValue('');
    expect(field(texts.email)).toHaveValue('');
    expect(field(texts.aadhaar)).toHaveValue('');
    expect(dateText(texts.dob)).toBe('DD/MM/YYYY');
    expect(saveStatus()).toHaveTextContent(texts.newCustomer);
    await waitFor(() => expect(search()).toHaveFocus());
  });

  it('shows where the customer stands; the owner sets a tier by hand until a date', async () => {
    let standing: TierStanding = {
      tier: 'SILVER',
      tierName: 'Silver',
      spend12m: 150000,
      nextTier: 'GOLD',
      toNextTier: 50000,
    };
    const until = addDays(todayIn('Asia/Kolkata'), 30);
    const fake = server()
      .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [MEERA_OPTION] } })
      .on('POST', P.customerData, { status: 200, body: { success: true, data: MEERA } })
      .on('POST', P.redeemTerms, () => ({
        status: 200,
        body: {
          success: true,
          data: { balance: 120, value: 60, pointValue: 0.5, minRedeemPoints: 10, ...standing },
        },
      }))
      .on('GET', P.tiers, {
        status: 200,
        body: {
          success: true,
          data: {
            tiers: [
              { code: 'SILVER', name: 'Silver', minSpend: 100000, earnPercent: 110 },
              { code: 'GOLD', name: 'Gold', minSpend: 200000, earnPercent: 125 },
            ],
            downgrade: 'anniversary',
          },
        },
      })
      .on('POST', P.customerTier, () => {
        standing = {
          ...standing,
          tier: 'GOLD',
          tierName: 'Gold',
          nextTier: null,
          toNextTier: null,
        };
        return {
          status: 200,
          body: {
            success: true,
            message: TIER_MESSAGES.manualSet,
            data: {
              custid: 41,
              earnedTier: 'SILVER',
              manualTier: 'GOLD',
              manualUntil: until,
              ...standing,
            },
          },
        };
      });
    const user = await openProfile();
    await pickCustomer(user, texts.search, 'Meera', MEERA_OPTION);
    expect(await screen.findByText('Silver')).toBeInTheDocument();
    expect(screen.getByText(TIER_STANDING_TEXTS.spend12m('₹1,50,000'))).toBeInTheDocument();
    expect(
      screen.getByText(TIER_STANDING_TEXTS.toNext('₹50,000', 'GOLD'), { exact: false }),
    ).toBeInTheDocument();

    await user.click(button(TIER_BY_HAND_TEXTS.open));
    const dialog = await screen.findByRole('dialog', { name: TIER_BY_HAND_TEXTS.title });
    await within(dialog).findByRole('option', { name: TIER_BY_HAND_TEXTS.option('Gold', 'GOLD') });
    await user.selectOptions(within(dialog).getByLabelText(TIER_BY_HAND_TEXTS.tier), 'GOLD');
    // A tier needs its date: said in the dialog, and nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: TIER_BY_HAND_TEXTS.confirm }));
    expect(
      await within(dialog).findByText('Choose the date the tier lasts until.'),
    ).toBeInTheDocument();
    expect(fake.sent('POST', P.customerTier)).toHaveLength(0);

    await typeDate(user, TIER_BY_HAND_TEXTS.until, ddmmyyyy(until), dialog);
    await user.click(within(dialog).getByRole('button', { name: TIER_BY_HAND_TEXTS.confirm }));
    expect(await alertWith(TIER_MESSAGES.manualSet)).toHaveClass('MuiAlert-colorSuccess');
    expect(fake.sent('POST', P.customerTier)[0]?.body).toEqual({ custid: 41, tier: 'GOLD', until });
    // The look-up asks again and shows the tier now applying.
    expect(await screen.findByText('Gold')).toBeInTheDocument();
    expect(screen.queryByText(/more to reach/)).toBeNull();
  }, 120_000);

  it('a date picker clears with its clear button', async () => {
    server()
      .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [MEERA_OPTION] } })
      .on('POST', P.customerData, { status: 200, body: { success: true, data: MEERA } });
    const user = await openProfile();
    await pickCustomer(user, texts.search, '98765', MEERA_OPTION);
    await waitFor(() => expect(dateText(texts.dob)).toBe('14/05/1990'));

    const dob = screen.getByRole('group', { name: texts.dob }).closest('.MuiFormControl-root');
    await user.click(within(dob as HTMLElement).getByRole('button', { name: /clear/i }));

    expect(dateText(texts.dob)).toBe('DD/MM/YYYY');
  });

  it('Export All hands a single-use link to the browser download; no data and failures show their errors', async () => {
    let reply: 'ticket' | 'empty' | 'fail' = 'ticket';
    const ticketUrl = `${P.exportDownload}?ticket=abc123`;
    const fake = server().on('POST', P.exportTicket, () =>
      reply === 'ticket'
        ? {
            status: 200,
            body: { success: true, data: { url: `/api${ticketUrl}`, expiresInSeconds: 60 } },
          }
        : reply === 'empty'
          ? { status: 404, body: { success: false, message: MESSAGES.noExportData } }
          : { status: 500, body: {} },
    );
    const downloads = catchLinkDownloads();
    try {
      const user = await openProfile();

      // Shown once the role is known to be one that may export.
      await user.click(await screen.findByRole('button', { name: texts.exportAll }));
      await waitFor(() => expect(downloads.links).toHaveLength(1));
      expect(downloads.links[0]).toEqual({
        href: new URL(`/api${ticketUrl}`, window.location.href).href,
        download: EXPORT_FILE_NAME,
      });
      // The file itself is never fetched through the API client.
      expect(fake.sent('GET', P.exportCustomers)).toHaveLength(0);
      expect(fake.sent('POST', P.exportTicket)).toHaveLength(1);

      reply = 'empty';
      await user.click(button(texts.exportAll));
      expect(await alertWith(MESSAGES.noExportData)).toHaveClass('MuiAlert-colorError');

      reply = 'fail';
      await user.click(button(texts.exportAll));
      expect(await alertWith(MESSAGES.exportFailed)).toHaveClass('MuiAlert-colorError');
      expect(downloads.links).toHaveLength(1);
    } finally {
      downloads.restore();
    }
  });
});
