import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  POINTS_SUMMARY_TEXTS,
  API_PATHS,
  IDEMPOTENCY_HEADER,
  LEDGER_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  addDays,
  todayIn,
} from '@kanak/contract';
import { pickCustomer } from '../../components/CustomerSearch.testing';
import { dateShown, ddmmyyyy, typeDate } from '../../components/DateField.testing';
import { fakeServer } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = LEDGER_TEXTS.loyaltyPoints;
const P = API_PATHS;
const RAVI = { CUSTNAME: 'Ravi Kumar', MOBILENO: '9123456780' };
const today = () => todayIn('Asia/Kolkata');

const server = () =>
  fakeServer()
    .on('GET', P.searchCustomers, { status: 200, body: { success: true, data: [RAVI] } })
    .on('POST', P.customerData, {
      status: 200,
      body: {
        success: true,
        data: {
          custid: 5,
          mobileno: RAVI.MOBILENO,
          custname: RAVI.CUSTNAME,
          points: 1250,
          pointsValue: 625,
          pointsExpiringIn30Days: 300,
        },
      },
    });

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('asha');
  renderApp('/home/loyalty-points');
  // The first screen of a cold run compiles on demand: give it time.
  await screen.findByRole(
    'heading',
    { level: 1, name: PAGE_TITLES.loyaltyPoints },
    { timeout: 20_000 },
  );
  return userEvent.setup();
}

/** A label's text, without the asterisk of a required field. */
const labelled = (label: string) => (text: string) => text.replace(/[\s\u2009]*\*$/, '') === label;
const field = (label: string) => screen.getByLabelText(labelled(label), { selector: 'input' });
const toggle = (name: string) => screen.getByRole('button', { name });
const update = () => screen.getByRole('button', { name: texts.update });
const alertWith = async (message: string) =>
  (await screen.findByText(message)).closest('.MuiAlert-root') as HTMLElement;
/** Expects the warning, then closes it (so the next one is seen afresh). */
async function expectWarning(user: ReturnType<typeof userEvent.setup>, message: string) {
  const alert = await alertWith(message);
  expect(alert).toHaveClass('MuiAlert-colorWarning');
  await user.click(within(alert).getByRole('button', { name: /close/i }));
  await waitFor(() => expect(screen.queryByText(message)).not.toBeInTheDocument());
}

describe('Edit customer balance (Loyalty Points)', { timeout: 60_000 }, () => {
  it('shows the form: search focused, read-only mobile and name, today, no allocation choice', async () => {
    server();
    await openScreen();

    expect(screen.getByRole('heading', { level: 2, name: texts.form })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: texts.search })).toHaveFocus());
    expect(field(texts.mobile)).toHaveAttribute('readonly');
    expect(field(texts.name)).toHaveAttribute('readonly');
    expect(dateShown(texts.date)).toBe(ddmmyyyy(today()));
    expect(screen.getByRole('group', { name: texts.entryType })).toBeInTheDocument();
    expect(toggle(texts.allocation)).toHaveAttribute('aria-pressed', 'false');
    expect(toggle(texts.deduction)).toHaveAttribute('aria-pressed', 'false');
    expect(field(texts.points)).toHaveValue('');
    expect(field(texts.narration)).toHaveValue('');
  });

  it('takes only digits in Loyalty Points, kept as text', async () => {
    server();
    const user = await openScreen();

    await user.type(field(texts.points), '1a2-3.4 e5');
    expect(field(texts.points)).toHaveValue('12345');
    // Grouped as the shop writes it, typed or pasted whole: the digits, never cut short.
    await user.clear(field(texts.points));
    await user.type(field(texts.points), '1,000');
    expect(field(texts.points)).toHaveValue('1000');
    await user.clear(field(texts.points));
    await user.paste('10,00,000');
    expect(field(texts.points)).toHaveValue('1000000');
  });

  it('the toggle chooses one of allocation and deduction', async () => {
    server();
    const user = await openScreen();

    await user.click(toggle(texts.deduction));
    expect(toggle(texts.deduction)).toHaveAttribute('aria-pressed', 'true');
    expect(toggle(texts.allocation)).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle(texts.allocation));
    expect(toggle(texts.allocation)).toHaveAttribute('aria-pressed', 'true');
    expect(toggle(texts.deduction)).toHaveAttribute('aria-pressed', 'false');
  });

  it('warns about missing mobile, points or allocation choice, and sends nothing', async () => {
    const fake = server();
    const user = await openScreen();

    // The spec's warning, then what is missing.
    const warning = (...missing: string[]) => [MESSAGES.requiredFields, ...missing].join(' ');
    await user.click(update());
    await expectWarning(
      user,
      warning(texts.missing.customer, texts.missing.entryType, texts.missing.points),
    );

    // A customer and points, but no allocation/deduction choice.
    await pickCustomer(user, texts.search, '9123', RAVI);
    await user.type(field(texts.points), '100');
    await user.click(update());
    await expectWarning(user, warning('Choose Points Allocation or Points Deduction.'));

    // A choice but no points.
    await user.click(toggle(texts.allocation));
    await user.clear(field(texts.points));
    await user.click(update());
    await expectWarning(user, warning('Enter the loyalty points.'));

    expect(fake.sent('POST', P.updatePoints)).toHaveLength(0);
  });

  it('shows the chosen customer, their balance, and fills Mobile no. and Name only by picking', async () => {
    server();
    const user = await openScreen();

    await pickCustomer(user, texts.search, '9123', RAVI);

    expect(field(texts.mobile)).toHaveValue(RAVI.MOBILENO);
    expect(field(texts.name)).toHaveValue(RAVI.CUSTNAME);
    expect(await screen.findByText(texts.balanceValue('1,250'))).toBeVisible();
    // Its worth in rupees and the points about to expire, before a deduction is typed.
    expect(screen.getByText(POINTS_SUMMARY_TEXTS.expiring('300'))).toBeVisible();
    expect(screen.getByText(POINTS_SUMMARY_TEXTS.worth('₹625'), { exact: false })).toBeVisible();
  });

  it('on success: sends the entry, says so, and clears the form back to today', async () => {
    const fake = server().on('POST', P.updatePoints, {
      status: 200,
      body: { success: true, message: MESSAGES.pointsUpdated },
    });
    const user = await openScreen();
    const yesterday = addDays(today(), -1);

    await pickCustomer(user, texts.search, '9123', RAVI);
    await typeDate(user, texts.date, ddmmyyyy(yesterday));
    await user.click(toggle(texts.deduction));
    await user.type(field(texts.points), '30');
    await user.type(field(texts.narration), 'Redeemed on bill 4411');
    await user.click(update());

    expect(await alertWith(MESSAGES.pointsUpdated)).toHaveClass('MuiAlert-colorSuccess');
    const [request] = fake.sent('POST', P.updatePoints);
    expect(request?.body).toEqual({
      formData: {
        CUSTNAME: RAVI.CUSTNAME,
        MOBILENO: RAVI.MOBILENO,
        POINTS: '30',
        NARRATION: 'Redeemed on bill 4411',
        INVDATE: yesterday,
        CASHCR: 'DB',
      },
    });
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);

    await waitFor(() => expect(field(texts.mobile)).toHaveValue(''));
    expect(field(texts.name)).toHaveValue('');
    expect(field(texts.points)).toHaveValue('');
    expect(field(texts.narration)).toHaveValue('');
    expect(dateShown(texts.date)).toBe(ddmmyyyy(today()));
    expect(toggle(texts.allocation)).toHaveAttribute('aria-pressed', 'false');
    expect(toggle(texts.deduction)).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('combobox', { name: texts.search })).toHaveValue('');
  });

  it('a server failure shows "Error in updating Loyalty points."; a refusal its own message', async () => {
    let reply: 'fail' | 'refuse' = 'fail';
    server().on('POST', P.updatePoints, () =>
      reply === 'fail'
        ? { status: 500, body: { success: false, message: 'boom' } }
        : { status: 409, body: { success: false, message: MESSAGES.insufficientPoints(20) } },
    );
    const user = await openScreen();
    await pickCustomer(user, texts.search, '9123', RAVI);
    await user.click(toggle(texts.deduction));
    await user.type(field(texts.points), '30');

    await user.click(update());
    expect(await alertWith(MESSAGES.pointsUpdateFailed)).toHaveClass('MuiAlert-colorError');
    // The form stays as it was, to try again.
    expect(field(texts.points)).toHaveValue('30');

    reply = 'refuse';
    await user.click(update());
    expect(await alertWith('Insufficient points. Available balance: 20.')).toHaveClass(
      'MuiAlert-colorError',
    );
    expect(field(texts.mobile)).toHaveValue(RAVI.MOBILENO);
  });
});
