import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  LEDGER_TEXTS,
  MESSAGES,
  PAGE_TITLES,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { deferred, fakeServer } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = LEDGER_TEXTS.redeem;
const P = API_PATHS;
const RAVI = { CUSTNAME: 'Ravi Kumar', MOBILENO: '9123456780' };
const TERMS = { balance: 1250, value: 625, pointValue: 0.5, minRedeemPoints: 100 };

const server = () =>
  fakeServer()
    .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [RAVI] } })
    .on('POST', P.redeemTerms, { status: 200, body: { success: true, data: TERMS } });

async function openScreen(address = '/home/redeem-points') {
  setScreenWidth(1366);
  signedInAs('asha');
  renderApp(address);
  await screen.findByRole(
    'heading',
    { level: 1, name: PAGE_TITLES.redeemPoints },
    { timeout: 20_000 },
  );
  return userEvent.setup();
}

const pointsField = () => screen.getByRole('textbox', { name: texts.points });
const redeemButton = () => screen.getByRole('button', { name: texts.redeem });

async function chooseRavi(user: ReturnType<typeof userEvent.setup>) {
  await pickCustomer(user, texts.search, '91234', RAVI);
  await screen.findByText(`${texts.balance}: ${texts.balanceValue('1,250', '₹625')}`);
}

describe('Redeem Points', { timeout: 60_000 }, () => {
  it('shows the balance, its worth and the minimum of the chosen customer', async () => {
    server();
    const user = await openScreen();
    await waitFor(() => expect(screen.getByRole('combobox', { name: texts.search })).toHaveFocus());
    await chooseRavi(user);
    expect(screen.getByText(texts.minimum('100'))).toBeInTheDocument();
    await user.type(pointsField(), '2x00');
    expect(pointsField()).toHaveValue('200');
    // Grouped as the shop writes it, typed or pasted whole.
    await user.clear(pointsField());
    await user.paste('1,000');
    expect(pointsField()).toHaveValue('1000');
    await user.clear(pointsField());
    await user.type(pointsField(), '200');
    expect(screen.getByText(texts.pointsWorth('₹100'))).toBeInTheDocument();
  });

  it('refuses, before asking, no customer, no points, fewer than the minimum and more than the balance', async () => {
    const fake = server().on('POST', P.redeemPoints, {
      status: 200,
      body: { success: true, data: { points: 1, value: 1, balance: 1 } },
    });
    const user = await openScreen();
    await user.click(redeemButton());
    expect(await screen.findByText(texts.chooseCustomer)).toBeInTheDocument();

    await chooseRavi(user);
    await user.click(redeemButton());
    expect(await screen.findByText(texts.enterPoints)).toBeInTheDocument();
    await user.type(pointsField(), '99');
    await user.click(redeemButton());
    expect(await screen.findByText(MESSAGES.redeemBelowMinimum(100))).toBeInTheDocument();
    expect(pointsField()).toHaveFocus();
    await user.clear(pointsField());
    await user.type(pointsField(), '1251{Enter}');
    expect(await screen.findByText(MESSAGES.insufficientPoints(1250))).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fake.sent('POST', P.redeemPoints)).toHaveLength(0);
  });

  it('asks first, sends one request with a key however often confirmed, and hands over the slip', async () => {
    const answer = deferred();
    const fake = server().on('POST', P.redeemPoints, answer.handler);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const user = await openScreen();
    await chooseRavi(user);
    await user.type(pointsField(), '200');
    await user.type(screen.getByRole('textbox', { name: texts.invoiceNo }), 'B-17');
    await user.click(redeemButton());

    const dialog = await screen.findByRole('dialog', { name: texts.confirmTitle });
    expect(dialog).toHaveTextContent(
      texts.confirmQuestion('200', '₹100', 'Ravi Kumar (+91) 9123456780'),
    );
    // Cancel has the focus: Enter alone never takes the points.
    expect(within(dialog).getByRole('button', { name: texts.cancel })).toHaveFocus();
    const confirm = within(dialog).getByRole('button', { name: texts.confirm });
    // A double press, both before the re-render that disables the button.
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await waitFor(() => expect(confirm).toBeDisabled());
    expect(within(confirm).getByLabelText(texts.redeeming)).toBeInTheDocument();
    answer.release({
      status: 200,
      body: {
        success: true,
        message: MESSAGES.pointsRedeemed,
        data: { points: 200, value: 100, balance: 1050 },
      },
    });

    const slip = await screen.findByRole('dialog', { name: texts.slip.title });
    const sent = fake.sent('POST', P.redeemPoints);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({ mobile: RAVI.MOBILENO, points: 200, invoiceNo: 'B-17' });
    expect(sent[0]!.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(slip).toHaveTextContent(texts.slip.pointsValue('200'));
    expect(slip).toHaveTextContent('₹100');
    expect(slip).toHaveTextContent(texts.slip.pointsValue('1,050'));
    expect(slip).toHaveTextContent('B-17');
    await user.click(within(slip).getByRole('button', { name: texts.slip.print }));
    expect(print).toHaveBeenCalledTimes(1);
    print.mockRestore();
    await user.click(within(slip).getByRole('button', { name: texts.slip.close }));
    await waitFor(() => expect(pointsField()).toHaveValue(''));
  });

  it("shows the server's refusal inside the confirmation, and takes nothing", async () => {
    server().on('POST', P.redeemPoints, {
      status: 409,
      body: { success: false, message: MESSAGES.insufficientPoints(150) },
    });
    const user = await openScreen();
    await chooseRavi(user);
    await user.type(pointsField(), '200{Enter}');
    const dialog = await screen.findByRole('dialog', { name: texts.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      MESSAGES.insufficientPoints(150),
    );
    expect(screen.queryByRole('dialog', { name: texts.slip.title })).not.toBeInTheDocument();
  });

  it('opens with the customer the address names', async () => {
    server();
    await openScreen(`/home/redeem-points?customer=${RAVI.MOBILENO}`);
    await screen.findByText(`${texts.balance}: ${texts.balanceValue('1,250', '₹625')}`);
    expect(screen.getByRole('combobox', { name: texts.search })).toHaveValue(
      'Ravi Kumar (+91) 9123456780',
    );
  });

  it('opens empty for an address naming no customer on file', async () => {
    const fake = server();
    await openScreen('/home/redeem-points?customer=9000000001');
    await waitFor(() => expect(fake.sent('GET', P.searchCustomers)).toHaveLength(1));
    expect(screen.getByRole('combobox', { name: texts.search })).toHaveValue('');
    expect(screen.queryByRole('status', { name: texts.balance })).not.toBeInTheDocument();
  });
});
