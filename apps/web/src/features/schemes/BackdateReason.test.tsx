import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  BACKDATE_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_TEXTS,
  addDays,
  formatSchemeDate,
  type InstallmentReceipt,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { queryClient } from '../../lib/query-client';
import { renderApp, signedInAs } from '../../test/render';
import { ddmmyyyy, typeDate } from '../../components/DateField.testing';
import { ok, refused, scheme, today } from './schemeTestKit';

const texts = SCHEME_TEXTS.statement;
const installment = SCHEME_TEXTS.installment;

/** The statement of an Active scheme started a year ago, as `role` sees it. */
function server(role: 'owner' | 'cashier') {
  signedInAs('meera');
  const started = addDays(today(), -300);
  return fakeServer()
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: { ...testOwner, role } } })
    .on(
      'POST',
      API_PATHS.schemeStatement,
      ok({
        data: [],
        custname: 'Lakshmi Iyer',
        mobileno: '9876543210',
        scheme: scheme({ startdt: started, matdt: addDays(started, 364), paid: 1 }),
      }),
    );
}

/** Opens Add installment on scheme 7 and types a date 30 days back into its Date. */
async function installmentDatedBack() {
  renderApp('/home/scheme-statement');
  // The first render loads the screen's lazy chunks, slow on a busy machine.
  await screen.findByRole('heading', { name: PAGE_TITLES.schemeStatement }, { timeout: 20_000 });
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: texts.schemeId }), '7');
  await user.click(screen.getByRole('button', { name: texts.generate }));
  await user.click(await screen.findByRole('button', { name: texts.addInstallment }));
  const dialog = await screen.findByRole('dialog', { name: installment.title(7) });
  await typeDate(user, installment.date, ddmmyyyy(addDays(today(), -30)), dialog);
  return { user, dialog };
}

// The query cache is the app's own singleton: each test's role is read afresh.
beforeEach(() => queryClient.clear());

describe('a scheme payment dated further back than staff may date one', { timeout: 60_000 }, () => {
  it('asks the owner for a reason, and sends it with the installment', async () => {
    const fake = server('owner');
    const date = addDays(today(), -30);
    const receipt: InstallmentReceipt = {
      receiptNo: 'MAIN-000090',
      branch: null,
      schemeid: 7,
      custname: 'Lakshmi Iyer',
      mobileno: '9876543210',
      date,
      amount: 5000,
      mode: 'cash',
      reference: '',
      installmentNo: 2,
      installments: 11,
      forMonth: date.slice(0, 7),
      paidSoFar: 10000,
    };
    fake.on('POST', API_PATHS.addInstallment, ok({ message: 'Recorded.', data: receipt }));
    const { user, dialog } = await installmentDatedBack();

    const reason = await within(dialog).findByRole('textbox', { name: BACKDATE_TEXTS.reason });
    expect(
      within(dialog).getByText(BACKDATE_TEXTS.help(formatSchemeDate(addDays(today(), -7)))),
    ).toBeVisible();
    const record = within(dialog).getByRole('button', { name: installment.record });
    expect(record).toBeDisabled();
    await user.type(reason, 'Paper slip from the branch');
    expect(record).toBeEnabled();
    await user.click(record);
    await waitFor(() => expect(fake.sent('POST', API_PATHS.addInstallment)).toHaveLength(1));
    expect(fake.sent('POST', API_PATHS.addInstallment)[0]?.body).toEqual({
      schemeid: 7,
      date,
      mode: 'cash',
      reference: '',
      backdateReason: 'Paper slip from the branch',
    });
  });

  it('offers a cashier no reason: the server’s refusal shows in the dialog', async () => {
    const fake = server('cashier');
    const message = MESSAGES.backdateTooFar(
      'cashier',
      'an installment',
      formatSchemeDate(addDays(today(), -7)),
    );
    fake.on('POST', API_PATHS.addInstallment, refused(403, message));
    const { user, dialog } = await installmentDatedBack();

    expect(within(dialog).queryByRole('textbox', { name: BACKDATE_TEXTS.reason })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: installment.record }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(fake.sent('POST', API_PATHS.addInstallment)[0]?.body).not.toHaveProperty(
      'backdateReason',
    );
  });
});
