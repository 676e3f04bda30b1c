import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  GOLD_RATE_TEXTS,
  GOLD_RATE_UNUSUAL,
  IDEMPOTENCY_HEADER,
  MESSAGES,
  PAGE_TITLES,
  addDays,
  formatRupees,
  formatSlashDate,
  todayIn,
  type GoldRate,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = GOLD_RATE_TEXTS;
const today = todayIn('Asia/Kolkata');

/** A server holding `rates`: the history filters them by date, a save adds or replaces one. */
function goldRateServer(role: 'owner' | 'cashier', rates: GoldRate[] = []) {
  const held = [...rates];
  return fakeServer()
    .on('GET', API_PATHS.me, {
      status: 200,
      body: { success: true, data: { ...testOwner, role } },
    })
    .on('GET', API_PATHS.goldRates, (request) => {
      const { from, to } = request.params as { from: string; to: string };
      const data = held.filter((rate) => rate.date >= from && rate.date <= to);
      return { status: 200, body: { success: true, data } };
    })
    .on('POST', API_PATHS.saveGoldRate, (request) => {
      const body = request.body as { date: string; rate22k: number; rate24k: number };
      const index = held.findIndex((rate) => rate.date === body.date);
      const saved = { ...body, enteredBy: 'Admin', updatedAt: new Date().toISOString() };
      if (index >= 0) held[index] = saved;
      else held.unshift(saved);
      const message =
        index >= 0 ? MESSAGES.goldRateCorrected(body.date) : MESSAGES.goldRateSaved(body.date);
      return {
        status: 200,
        body: { success: true, message, data: { ...saved, corrected: index >= 0 } },
      };
    });
}

async function openScreen(role: 'owner' | 'cashier') {
  setScreenWidth(1366);
  signedInAs(role === 'owner' ? 'admin' : 'cashier');
  renderApp('/home/gold-rate');
  await screen.findByRole('heading', { name: PAGE_TITLES.goldRate, level: 1 }, { timeout: 30_000 });
  // Who may enter the rate is known once GET /api/me has answered.
  if (role === 'owner') await screen.findByLabelText(texts.rate22k);
  else await screen.findByText(texts.readOnly);
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: texts.historyTable });

describe('Gold rate', { timeout: 60_000 }, () => {
  it("refuses bad rates in the contract's words, then saves the day's rate", async () => {
    const server = goldRateServer('owner');
    const user = await openScreen('owner');
    await screen.findByText(texts.historyEmpty);

    await user.type(screen.getByLabelText(texts.rate22k), '7250.555');
    await user.type(screen.getByLabelText(texts.rate24k), '0');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(
      await screen.findByText('22K rate can have at most 2 decimals (whole paise).'),
    ).toBeInTheDocument();
    expect(screen.getByText('24K rate must be more than zero.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(texts.rate22k));
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(
      await screen.findByText('22K rate must be a number of rupees per gram.'),
    ).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveGoldRate)).toHaveLength(0);

    await user.type(screen.getByLabelText(texts.rate22k), '7250.5');
    await user.clear(screen.getByLabelText(texts.rate24k));
    await user.type(screen.getByLabelText(texts.rate24k), '7910');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await screen.findByText(MESSAGES.goldRateSaved(today))).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const [sent] = server.sent('POST', API_PATHS.saveGoldRate);
    expect(sent?.body).toEqual({ date: today, rate22k: 7250.5, rate24k: 7910 });
    expect(sent?.headers[IDEMPOTENCY_HEADER]).toBeTruthy();
    // The history asks again and shows the new rate.
    expect(await within(table()).findByText(formatRupees(7250.5))).toBeInTheDocument();
    expect(within(table()).getByText(formatSlashDate(today))).toBeInTheDocument();
  }, 120_000);

  it("shows when each rate was entered in the store's time, not the computer's", async () => {
    // 20:15 UTC is 01:45 the next morning in Kolkata, the store's zone in the tests' branding.
    goldRateServer('cashier', [
      {
        date: today,
        rate22k: 7904,
        rate24k: 8623,
        enteredBy: 'Admin',
        updatedAt: `${addDays(today, -1)}T20:15:00.000Z`,
      },
    ]);
    await openScreen('cashier');
    const [year, month, day] = today.split('-') as [string, string, string];
    expect(
      await within(table()).findByText(`${day}/${month}/${year.slice(2)}, 1:45 am`),
    ).toBeVisible();
  });

  it("asks before correcting a date's rate, showing both rates", async () => {
    const entered: GoldRate = {
      date: today,
      rate22k: 7200,
      rate24k: 7850,
      enteredBy: 'Meena',
      updatedAt: new Date().toISOString(),
    };
    const server = goldRateServer('owner', [entered]);
    const user = await openScreen('owner');
    await within(table()).findByText('Meena');

    await user.type(screen.getByLabelText(texts.rate22k), '7210');
    await user.type(screen.getByLabelText(texts.rate24k), '7860.25');
    await user.click(screen.getByRole('button', { name: texts.save }));
    const dialog = await screen.findByRole('dialog', { name: texts.confirmTitle });
    expect(dialog).toHaveTextContent(
      texts.confirmQuestion(
        formatSlashDate(today),
        texts.ratePair('₹7,200', '₹7,850'),
        texts.ratePair('₹7,210', '₹7,860.25'),
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.sent('POST', API_PATHS.saveGoldRate)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: texts.save }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: texts.confirm }),
    );
    expect(await screen.findByText(MESSAGES.goldRateCorrected(today))).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveGoldRate)[0]?.body).toEqual({
      date: today,
      rate22k: 7210,
      rate24k: 7860.25,
    });
    expect(await within(table()).findByText('₹7,860.25')).toBeInTheDocument();
  });

  it('asks before saving a rate far from the last one, in the words the server would use', async () => {
    const yesterday: GoldRate = {
      date: addDays(today, -1),
      rate22k: 7200,
      rate24k: 7850,
      enteredBy: 'Meena',
      updatedAt: new Date().toISOString(),
    };
    const server = goldRateServer('owner', [yesterday]);
    const user = await openScreen('owner');
    await within(table()).findByText('Meena');

    // A digit short on the 22K rate.
    await user.type(screen.getByLabelText(texts.rate22k), '720');
    await user.type(screen.getByLabelText(texts.rate24k), '7860');
    await user.click(screen.getByRole('button', { name: texts.save }));
    const dialog = await screen.findByRole('dialog', { name: texts.unusualTitle });
    expect(dialog).toHaveTextContent(
      MESSAGES.goldRateFarFromLast('22K', '₹720', -90, '₹7,200', formatSlashDate(yesterday.date)),
    );
    await user.click(within(dialog).getByRole('button', { name: texts.saveUnusual }));
    expect(await screen.findByText(MESSAGES.goldRateSaved(today))).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveGoldRate)[0]?.body).toEqual({
      date: today,
      rate22k: 720,
      rate24k: 7860,
      confirmed: true,
    });
  });

  it('asks before saving a first rate outside the usual band, and sends it confirmed', async () => {
    const server = goldRateServer('owner');
    const user = await openScreen('owner');
    await user.type(screen.getByLabelText(texts.rate22k), '4.35');
    await user.type(screen.getByLabelText(texts.rate24k), '4.75');
    await user.click(screen.getByRole('button', { name: texts.save }));
    const dialog = await screen.findByRole('dialog', { name: texts.unusualTitle });
    expect(dialog).toHaveTextContent(
      MESSAGES.goldRateOutsideBand('22K', '₹4.35', '₹2,000', '₹50,000', 31),
    );
    expect(server.sent('POST', API_PATHS.saveGoldRate)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: texts.saveUnusual }));
    expect(await screen.findByText(MESSAGES.goldRateSaved(today))).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveGoldRate)[0]?.body).toEqual({
      date: today,
      rate22k: 4.35,
      rate24k: 4.75,
      confirmed: true,
    });
  });

  it('asks when the server finds the rate unusual, in its words, and sends it confirmed', async () => {
    const server = goldRateServer('owner');
    const refusal = MESSAGES.goldRateFarFromLast('22K', '₹7,000', -12, '₹8,000', '09/03/2026');
    let posts = 0;
    server.on('POST', API_PATHS.saveGoldRate, (request) => {
      posts++;
      const body = request.body as { confirmed?: boolean };
      return body.confirmed
        ? { status: 200, body: { success: true, message: MESSAGES.goldRateSaved(today) } }
        : {
            status: 409,
            body: { success: false, message: refusal, code: GOLD_RATE_UNUSUAL },
          };
    });
    const user = await openScreen('owner');
    await user.type(screen.getByLabelText(texts.rate22k), '7000');
    await user.type(screen.getByLabelText(texts.rate24k), '7600');
    await user.click(screen.getByRole('button', { name: texts.save }));
    const dialog = await screen.findByRole('dialog', { name: texts.unusualTitle });
    expect(dialog).toHaveTextContent(refusal);
    expect(posts).toBe(1);
    await user.click(within(dialog).getByRole('button', { name: texts.saveUnusual }));
    expect(await screen.findByText(MESSAGES.goldRateSaved(today))).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.saveGoldRate).map((sent) => sent.body)).toEqual([
      { date: today, rate22k: 7000, rate24k: 7600 },
      { date: today, rate22k: 7000, rate24k: 7600, confirmed: true },
    ]);
  });

  it("shows the server's refusal beside the form", async () => {
    const server = goldRateServer('owner');
    server.on('POST', API_PATHS.saveGoldRate, {
      status: 400,
      body: { success: false, message: MESSAGES.goldRateFuture },
    });
    const user = await openScreen('owner');
    await user.type(screen.getByLabelText(texts.rate22k), '7000');
    await user.type(screen.getByLabelText(texts.rate24k), '7600');
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.goldRateFuture);
  });

  it('shows a cashier the rates without the form', async () => {
    goldRateServer('cashier', [
      {
        date: today,
        rate22k: 7200,
        rate24k: 7850,
        enteredBy: 'Meena',
        updatedAt: new Date().toISOString(),
      },
    ]);
    await openScreen('cashier');
    expect(await within(table()).findByText('₹7,850')).toBeInTheDocument();
    expect(screen.getByText(texts.readOnly)).toBeInTheDocument();
    expect(screen.queryByLabelText(texts.rate22k)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.save })).not.toBeInTheDocument();
  });
});
