import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { API_PATHS, LEDGER_TEXTS, MESSAGES, PAGE_TITLES, UI_TEXTS } from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { fakeServer } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = LEDGER_TEXTS.loyaltyPoints;
const P = API_PATHS;
const RAVI = { CUSTNAME: 'Ravi Kumar', MOBILENO: '9123456780' };

const labelled = (label: string) => (text: string) => text.replace(/[\s\u2009]*\*$/, '') === label;
const field = (label: string) => screen.getByLabelText(labelled(label), { selector: 'input' });

describe('a server that cannot be reached', { timeout: 60_000 }, () => {
  it('at sign-in says so beside "Error in logging in.", not as a wrong password', async () => {
    fakeServer().on('POST', P.login, 'network-error');
    renderApp('/');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(UI_TEXTS.login.username), 'meera');
    await user.type(screen.getByLabelText(UI_TEXTS.login.password), 'Secret@123');
    await user.click(screen.getByRole('button', { name: UI_TEXTS.login.submit }));

    expect(
      await screen.findByText(`${MESSAGES.loginFailed} ${MESSAGES.loginUnreachable}`),
    ).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.invalidCredentials)).not.toBeInTheDocument();
  });

  it('on a points update says so after the fixed text, and the typed entry survives leaving the screen', async () => {
    const server = fakeServer()
      .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [RAVI] } })
      .on('POST', P.customerData, {
        status: 200,
        body: { success: true, data: { custid: 5, ...lower(RAVI), points: 10, pointsValue: 5 } },
      })
      .on('POST', P.updatePoints, 'network-error');
    setScreenWidth(1366);
    signedInAs('asha');
    renderApp('/home/loyalty-points');
    await screen.findByRole(
      'heading',
      { level: 1, name: PAGE_TITLES.loyaltyPoints },
      { timeout: 20_000 },
    );
    const user = userEvent.setup();
    await pickCustomer(user, texts.search, '9123', RAVI);
    await user.type(field(texts.points), '250');
    await user.click(screen.getByRole('button', { name: texts.allocation }));
    await user.type(field(texts.narration), 'Festival bonus');
    await user.click(screen.getByRole('button', { name: texts.update }));

    expect(
      await screen.findByText(`${MESSAGES.pointsUpdateFailed} ${MESSAGES.serverUnreachable}`),
    ).toBeInTheDocument();
    expect(server.sent('POST', P.updatePoints).length).toBeGreaterThan(0);

    // To another screen and back: the entry is still there, to send again with one press.
    await user.click(screen.getByRole('link', { name: 'Customer Profile' }));
    await screen.findByRole('heading', { level: 1, name: PAGE_TITLES.customerProfile });
    await user.click(screen.getByRole('link', { name: 'Loyalty Points' }));
    await screen.findByRole('heading', { level: 1, name: PAGE_TITLES.loyaltyPoints });
    await waitFor(() => expect(field(texts.mobile)).toHaveValue(RAVI.MOBILENO));
    expect(field(texts.name)).toHaveValue(RAVI.CUSTNAME);
    expect(field(texts.points)).toHaveValue('250');
    expect(field(texts.narration)).toHaveValue('Festival bonus');
    expect(screen.getByRole('button', { name: texts.allocation })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // Sent again as it was: with the first press's key, so a server that did get the first
    // one credits the points once.
    const before = server.sent('POST', P.updatePoints).length;
    await user.click(screen.getByRole('button', { name: texts.update }));
    await waitFor(() => expect(server.sent('POST', P.updatePoints).length).toBeGreaterThan(before));
    const keys = new Set(
      server.sent('POST', P.updatePoints).map((sent) => sent.headers['Idempotency-Key']),
    );
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBeTruthy();
  });
});

function lower(customer: typeof RAVI) {
  return { custname: customer.CUSTNAME, mobileno: customer.MOBILENO };
}
