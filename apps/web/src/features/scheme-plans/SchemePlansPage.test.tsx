import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  MESSAGES,
  PAGE_TITLES,
  SCHEME_PLAN_TEXTS,
  SIDEBAR_LABELS,
  type SchemePlan,
} from '@kanak/contract';
import { deferred, fakeServer, type Reply } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { cells, dataRows } from '../../test/tables';

const texts = SCHEME_PLAN_TEXTS;

const plans: SchemePlan[] = [
  {
    code: 'STD',
    name: 'Standard scheme',
    kind: 'value',
    installments: 11,
    minAmount: 1000,
    bonusPercent: 100,
    graceDays: 7,
    redeemWithinDays: 60,
    active: true,
    schemes: 1250,
  },
  {
    code: 'GOLD11',
    name: 'Swarna 11',
    kind: 'weight',
    installments: 11,
    minAmount: 2000,
    bonusPercent: 50,
    graceDays: 7,
    redeemWithinDays: 60,
    active: true,
    schemes: 3,
  },
  {
    code: 'FLEX',
    name: 'Flexi',
    kind: 'value',
    installments: 6,
    minAmount: 25000,
    bonusPercent: 75,
    graceDays: 5,
    redeemWithinDays: 30,
    active: false,
    schemes: 0,
  },
];

/**
 * A server holding the plans: a save answers `refusals` first, one a press, then keeps the plan
 * (added, or replacing the one with its code).
 */
function plansServer(refusals: (() => Reply | Promise<Reply>)[] = []) {
  const held = plans.map((plan) => ({ ...plan }));
  return fakeServer()
    .on('GET', API_PATHS.schemePlans, () => ({ status: 200, body: { success: true, data: held } }))
    .on('POST', API_PATHS.saveSchemePlan, (request) => {
      const refusal = refusals.shift();
      if (refusal) return refusal();
      const body = request.body as Omit<SchemePlan, 'schemes'>;
      const saved = { ...body, schemes: 0 };
      const index = held.findIndex((plan) => plan.code === body.code);
      if (index >= 0) held[index] = saved;
      else held.push(saved);
      return {
        status: 200,
        body: { success: true, message: MESSAGES.schemePlanSaved(body.code), data: saved },
      };
    });
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp('/home/scheme-plans');
  await screen.findByRole(
    'heading',
    { name: PAGE_TITLES.schemePlans, level: 1 },
    { timeout: 30_000 },
  );
  await waitFor(() => expect(dataRows(texts.table)).toHaveLength(plans.length));
  return userEvent.setup();
}

/** The description MUI links to a field: its helper text or error. */
const said = (dialog: HTMLElement, label: string) =>
  within(dialog)
    .getByLabelText(label)
    .getAttribute('aria-describedby')
    ?.split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Scheme plans', { timeout: 90_000 }, () => {
  it("lists the plans in rupees; adds one after refusing bad input beside its field, the server's too", async () => {
    const server = plansServer([
      () => ({
        status: 400,
        body: { success: false, message: 'Bonus percent must be a whole number from 0 to 1,000.' },
      }),
    ]);
    const user = await openScreen();

    expect(dataRows(texts.table).map(cells)).toEqual([
      [
        'STD',
        'Standard scheme',
        'Value (rupees)',
        '11',
        '₹1,000',
        '100%',
        '7 days',
        '60 days',
        'Yes',
        '1,250',
        '',
      ],
      [
        'GOLD11',
        'Swarna 11',
        'Weight (22K grams)',
        '11',
        '₹2,000',
        '50%',
        '7 days',
        '60 days',
        'Yes',
        '3',
        '',
      ],
      [
        'FLEX',
        'Flexi',
        'Value (rupees)',
        '6',
        '₹25,000',
        '75%',
        '5 days',
        '30 days',
        'No',
        '0',
        '',
      ],
    ]);
    // The standard plan is the server's settings: it has no edit.
    expect(screen.queryByRole('button', { name: texts.edit('STD') })).not.toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: SIDEBAR_LABELS.schemePlans })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: texts.add }));
    const dialog = await screen.findByRole('dialog', { name: texts.addTitle });
    const installments = within(dialog).getByLabelText(texts.installments);
    await user.clear(installments);
    await user.type(installments, '12');
    const save = within(dialog).getByRole('button', { name: texts.save });
    await user.click(save);
    expect(said(dialog, texts.code)).toContain('Code must be 2 to 10 letters or digits.');
    expect(said(dialog, texts.name)).toContain('Name is required.');
    expect(said(dialog, texts.installments)).toContain(
      'Installments must be a whole number from 1 to 11.',
    );
    expect(said(dialog, texts.minAmount)).toContain(
      'Minimum installment must be a whole number from 1 to 99,99,999.',
    );

    // A taken code would change that plan: refused before anything is sent.
    await user.type(within(dialog).getByLabelText(texts.code), 'gold11');
    await user.type(within(dialog).getByLabelText(texts.name), 'Swarna 9');
    await user.selectOptions(within(dialog).getByLabelText(texts.kind), 'weight');
    await user.clear(installments);
    await user.type(installments, '9');
    await user.type(within(dialog).getByLabelText(texts.minAmount), '3000');
    await user.click(save);
    expect(said(dialog, texts.code)).toContain(texts.codeTaken('GOLD11'));
    expect(said(dialog, texts.installments)).not.toContain('must be');
    expect(server.sent('POST', API_PATHS.saveSchemePlan)).toHaveLength(0);

    const code = within(dialog).getByLabelText(texts.code);
    await user.clear(code);
    await user.type(code, 'gold9');
    await user.click(save);
    // The server's refusal goes beside the field it names.
    await waitFor(() =>
      expect(said(dialog, texts.bonusPercent)).toContain(
        'Bonus percent must be a whole number from 0 to 1,000.',
      ),
    );
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    await user.click(save);
    expect(await screen.findByText(MESSAGES.schemePlanSaved('GOLD9'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sent = server.sent('POST', API_PATHS.saveSchemePlan);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body).toEqual({
      code: 'GOLD9',
      name: 'Swarna 9',
      kind: 'weight',
      installments: 9,
      minAmount: 3000,
      bonusPercent: 100,
      graceDays: 7,
      redeemWithinDays: 60,
      active: true,
    });
    expect(sent[1]?.headers[IDEMPOTENCY_HEADER]).toBeTruthy();
    await waitFor(() => expect(dataRows(texts.table)).toHaveLength(4));
    expect(cells(dataRows(texts.table)[3]!).slice(0, 5)).toEqual([
      'GOLD9',
      'Swarna 9',
      'Weight (22K grams)',
      '9',
      '₹3,000',
    ]);
  });

  it("edits a plan: one in use shows its terms fixed; the server's 409 is shown in its words", async () => {
    const answer = deferred();
    const server = plansServer([answer.handler]);
    const user = await openScreen();

    await user.click(screen.getByRole('button', { name: texts.edit('GOLD11') }));
    let dialog = await screen.findByRole('dialog', { name: texts.editTitle('GOLD11') });
    expect(dialog).toHaveTextContent(texts.inUse(3));
    expect(within(dialog).getByLabelText(texts.code)).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText(texts.installments)).toHaveAttribute('readonly');
    expect(
      within(within(dialog).getByLabelText(texts.kind))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([texts.kinds.weight]);
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // No scheme used FLEX when the list was read; one started since, so the server refuses.
    await user.click(screen.getByRole('button', { name: texts.edit('FLEX') }));
    dialog = await screen.findByRole('dialog', { name: texts.editTitle('FLEX') });
    const installments = within(dialog).getByLabelText(texts.installments);
    expect(installments).not.toHaveAttribute('readonly');
    await user.clear(installments);
    await user.type(installments, '8');
    await user.click(within(dialog).getByRole('switch', { name: texts.active }));
    const save = within(dialog).getByRole('button', { name: texts.save });
    await user.click(save);
    // Pending: the button is off, so a second press sends nothing.
    await waitFor(() => expect(save).toBeDisabled());
    answer.release({
      status: 409,
      body: { success: false, message: MESSAGES.schemePlanInUse('FLEX', 1) },
    });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      MESSAGES.schemePlanInUse('FLEX', 1),
    );
    expect(save).toBeEnabled();
    const sent = server.sent('POST', API_PATHS.saveSchemePlan);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({
      code: 'FLEX',
      name: 'Flexi',
      kind: 'value',
      installments: 8,
      minAmount: 25000,
      bonusPercent: 75,
      graceDays: 5,
      redeemWithinDays: 30,
      active: true,
    });
    // Nothing changed: the list still shows FLEX's terms.
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cells(dataRows(texts.table)[2]!)[3]).toBe('6');
  });

  it('takes a minimum typed as the shop writes it, 1,000, and refuses misplaced commas', async () => {
    const server = plansServer();
    const user = await openScreen();
    await user.click(screen.getByRole('button', { name: texts.add }));
    const dialog = await screen.findByRole('dialog', { name: texts.addTitle });
    await user.type(within(dialog).getByLabelText(texts.code), 'flex5');
    await user.type(within(dialog).getByLabelText(texts.name), 'Flexi 5');
    const minAmount = within(dialog).getByLabelText(texts.minAmount);
    await user.type(minAmount, '1,00,0');
    const save = within(dialog).getByRole('button', { name: texts.save });
    await user.click(save);
    expect(said(dialog, texts.minAmount)).toContain(
      'Minimum installment must be a whole number from 1 to 99,99,999.',
    );
    expect(server.sent('POST', API_PATHS.saveSchemePlan)).toHaveLength(0);

    await user.clear(minAmount);
    await user.type(minAmount, '1,000');
    await user.click(save);
    expect(await screen.findByText(MESSAGES.schemePlanSaved('FLEX5'))).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveSchemePlan)[0]?.body).toMatchObject({
      code: 'FLEX5',
      minAmount: 1000,
    });
  });
});
