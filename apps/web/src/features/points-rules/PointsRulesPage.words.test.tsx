import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { API_PATHS, PAGE_TITLES, POINTS_RULES_TEXTS, type PointsRules } from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = POINTS_RULES_TEXTS;
const installed: PointsRules = {
  rupeesPerPoint: 100,
  excludedCategories: ['coin', 'bullion'],
  pointValue: 1,
  minRedeemPoints: 100,
  expiryMonths: 24,
  validFrom: '2000-01-01T00:00:00.000Z',
  isDefault: true,
};

async function openScreen() {
  fakeServer()
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: testOwner } })
    .on('GET', API_PATHS.pointsRules, {
      status: 200,
      body: { success: true, data: { current: installed, history: [installed] } },
    });
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp('/home/points-rules');
  await screen.findByRole('heading', { name: PAGE_TITLES.pointsRules, level: 1 });
  await screen.findByLabelText(texts.rupeesPerPoint);
  return userEvent.setup();
}

describe('Points Rules in plain words', () => {
  it('says the installed rules were never changed, not "In force since 01/01/2000"', async () => {
    await openScreen();
    expect(screen.getByText('Default rules (never changed).')).toBeInTheDocument();
    expect(screen.queryByText(/In force since/)).not.toBeInTheDocument();
    // The hint names the categories as they are kept.
    expect(screen.getByText('Comma separated, e.g. coin, bullion.')).toBeInTheDocument();
  });

  it('names each field as its label does, never by its code name', async () => {
    const user = await openScreen();
    for (const [label, typed] of [
      [texts.rupeesPerPoint, '0'],
      [texts.pointValue, 'x'],
      [texts.minRedeemPoints, '1.5'],
      [texts.expiryMonths, '121'],
    ]) {
      await user.clear(screen.getByLabelText(label!));
      await user.type(screen.getByLabelText(label!), typed!);
    }
    await user.click(screen.getByRole('button', { name: texts.save }));

    expect(
      await screen.findByText(
        'Rupees per point must be an amount in rupees with at most 2 decimals, above 0.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('The value of a point must be an amount in rupees with at most 2 decimals.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Minimum points to redeem must be a whole number from 0 to 9,999,999.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Points expire after a whole number of months from 0 (never) to 120.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByText(/rupeesPerPoint|pointValue|minRedeemPoints|expiryMonths/),
    ).not.toBeInTheDocument();
  });
});
