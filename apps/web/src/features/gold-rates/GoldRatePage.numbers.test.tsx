import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  GOLD_RATE_TEXTS,
  MESSAGES,
  PAGE_TITLES,
  todayIn,
  type GoldRate,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = GOLD_RATE_TEXTS;
const today = todayIn('Asia/Kolkata');

describe('Gold rate, typed as the shop writes it', { timeout: 60_000 }, () => {
  it('saves 7,904 and ₹ 8,623.50 as 7904 and 8623.5, and refuses 7,9,04', async () => {
    const held: GoldRate[] = [];
    const server = fakeServer()
      .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: testOwner } })
      .on('GET', API_PATHS.goldRates, () => ({ status: 200, body: { success: true, data: held } }))
      .on('POST', API_PATHS.saveGoldRate, (request) => {
        const body = request.body as { date: string; rate22k: number; rate24k: number };
        held.unshift({ ...body, enteredBy: 'Admin', updatedAt: new Date().toISOString() });
        return {
          status: 200,
          body: { success: true, message: MESSAGES.goldRateSaved(body.date), data: held[0] },
        };
      });
    setScreenWidth(1366);
    signedInAs('admin');
    renderApp('/home/gold-rate');
    await screen.findByRole(
      'heading',
      { name: PAGE_TITLES.goldRate, level: 1 },
      { timeout: 30_000 },
    );
    const user = userEvent.setup();
    const rate22k = await screen.findByLabelText(texts.rate22k);

    await user.type(rate22k, '7,9,04');
    await user.type(screen.getByLabelText(texts.rate24k), '₹ 8,623.50');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(
      await screen.findByText('22K rate must be a number of rupees per gram.'),
    ).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveGoldRate)).toHaveLength(0);

    await user.clear(rate22k);
    await user.type(rate22k, '7,904');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await screen.findByText(MESSAGES.goldRateSaved(today))).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveGoldRate)[0]?.body).toEqual({
      date: today,
      rate22k: 7904,
      rate24k: 8623.5,
    });
    const table = screen.getByRole('table', { name: texts.historyTable });
    expect(await within(table).findByText('₹7,904')).toBeInTheDocument();
  });
});
