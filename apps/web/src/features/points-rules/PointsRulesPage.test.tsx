import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  PAGE_TITLES,
  POINTS_RULES_TEXTS,
  POS_MESSAGES,
  type PointsRules,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = POINTS_RULES_TEXTS;
const current: PointsRules = {
  rupeesPerPoint: 100,
  excludedCategories: ['coins'],
  pointValue: 1,
  minRedeemPoints: 50,
  expiryMonths: 12,
  validFrom: '2026-04-01T05:00:00.000Z',
};

function rulesServer() {
  let rules = current;
  return fakeServer()
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: testOwner } })
    .on('GET', API_PATHS.pointsRules, () => ({
      status: 200,
      body: { success: true, data: { current: rules, history: [] } },
    }))
    .on('POST', API_PATHS.pointsRules, (request) => {
      rules = { ...(request.body as PointsRules), validFrom: '2026-04-05T05:00:00.000Z' };
      return {
        status: 200,
        body: {
          success: true,
          message: POS_MESSAGES.pointsRulesSaved,
          data: { current: rules, history: [current] },
        },
      };
    });
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp('/home/points-rules');
  await screen.findByRole('heading', { name: PAGE_TITLES.pointsRules, level: 1 });
  return userEvent.setup();
}

describe('Points Rules', () => {
  it('shows the rules in force and that a change applies from now on', async () => {
    rulesServer();
    await openScreen();
    expect(await screen.findByLabelText(texts.rupeesPerPoint)).toHaveValue('100');
    expect(screen.getByLabelText(texts.excludedCategories)).toHaveValue('coins');
    expect(screen.getByLabelText(texts.pointValue)).toHaveValue('1');
    expect(screen.getByLabelText(texts.minRedeemPoints)).toHaveValue('50');
    expect(screen.getByLabelText(texts.expiryMonths)).toHaveValue('12');
    expect(screen.getByText(texts.appliesFromNow)).toBeInTheDocument();
    expect(screen.getByText(texts.currentSince('01/04/2026'))).toBeInTheDocument();
  });

  it('checks the numbers before sending, then saves the new rules', async () => {
    const server = rulesServer();
    const user = await openScreen();
    const rupees = await screen.findByLabelText(texts.rupeesPerPoint);
    await user.clear(rupees);
    await user.type(rupees, '0');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(
      await screen.findByText(
        'Rupees per point must be an amount in rupees with at most 2 decimals, above 0.',
      ),
    ).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.pointsRules)).toHaveLength(0);

    await user.clear(rupees);
    await user.type(rupees, '250.5');
    const excluded = screen.getByLabelText(texts.excludedCategories);
    await user.clear(excluded);
    await user.type(excluded, 'coins, Bullion');
    // The chips show the categories as they are kept: lower case.
    expect(screen.getByText('bullion')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(texts.expiryMonths));
    await user.type(screen.getByLabelText(texts.expiryMonths), '0');
    // Grouped as the shop writes it.
    await user.clear(screen.getByLabelText(texts.minRedeemPoints));
    await user.type(screen.getByLabelText(texts.minRedeemPoints), '1,000');
    await user.click(screen.getByRole('button', { name: texts.save }));

    await waitFor(() => expect(server.sent('POST', API_PATHS.pointsRules)).toHaveLength(1));
    const [sent] = server.sent('POST', API_PATHS.pointsRules);
    expect(sent?.body).toEqual({
      rupeesPerPoint: 250.5,
      excludedCategories: ['coins', 'Bullion'],
      pointValue: 1,
      minRedeemPoints: 1000,
      expiryMonths: 0,
    });
    expect(sent?.headers[IDEMPOTENCY_HEADER]).toBeTruthy();
    expect(await screen.findByText(POS_MESSAGES.pointsRulesSaved)).toBeInTheDocument();
    expect(await screen.findByText(texts.currentSince('05/04/2026'))).toBeInTheDocument();
  });
});
