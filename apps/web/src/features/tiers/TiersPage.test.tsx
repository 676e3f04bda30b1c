import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  PAGE_TITLES,
  TIERS_TEXTS,
  TIER_MESSAGES,
  type TiersFormInput,
  type TiersSettings,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = TIERS_TEXTS;
const SILVER = { code: 'SILVER', name: 'Silver', minSpend: 50_000, earnPercent: 110 };
const GOLD = { code: 'GOLD', name: 'Gold', minSpend: 200_000, earnPercent: 125 };

/** A server holding the tiers; like the real one, it refuses to drop SILVER, which customers hold. */
function tiersServer() {
  let settings: TiersSettings = { tiers: [SILVER, GOLD], downgrade: 'never' };
  return fakeServer()
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: testOwner } })
    .on('GET', API_PATHS.tiers, () => ({ status: 200, body: { success: true, data: settings } }))
    .on('POST', API_PATHS.tiers, (request) => {
      const body = request.body as TiersFormInput;
      if (!body.tiers.some((tier) => tier.code === SILVER.code)) {
        return {
          status: 409,
          body: { success: false, message: TIER_MESSAGES.tierHeld(SILVER.code, 3) },
        };
      }
      settings = { tiers: body.tiers, downgrade: body.downgrade };
      return {
        status: 200,
        body: { success: true, message: TIER_MESSAGES.saved, data: settings },
      };
    });
}

const tier = (n: number) => screen.getByRole('group', { name: texts.tier(n) });
const save = () => screen.getByRole('button', { name: texts.save });

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  n: number,
  values: Partial<Record<'code' | 'name' | 'minSpend' | 'earnPercent', string>>,
) {
  for (const [field, value] of Object.entries(values)) {
    const input = within(tier(n)).getByLabelText(texts[field as keyof typeof values]);
    await user.clear(input);
    if (value) await user.type(input, value);
  }
}

describe('Tiers', { timeout: 120_000 }, () => {
  it('checks each tier, asks before tiers start falling, saves the ladder lowest first, and shows a refusal', async () => {
    const server = tiersServer();
    setScreenWidth(1366);
    signedInAs('admin');
    renderApp('/home/tiers');
    await screen.findByRole('heading', { name: PAGE_TITLES.tiers, level: 1 }, { timeout: 30_000 });
    const user = userEvent.setup();

    // The ladder in force, spends in rupees as the shop writes them.
    const first = await screen.findByRole('group', { name: texts.tier(1) });
    expect(within(first).getByLabelText(texts.code)).toHaveValue('SILVER');
    expect(within(tier(2)).getByLabelText(texts.minSpend)).toHaveValue('200000');
    expect(within(tier(2)).getByText('₹2,00,000')).toBeInTheDocument();
    expect(screen.getByLabelText(texts.downgrade)).toHaveValue('never');

    // A new tier typed wrong: each field says what is wrong with it, and nothing is sent.
    await user.click(screen.getByRole('button', { name: texts.add }));
    await fill(user, 3, { code: 'plat!', minSpend: '12.345', earnPercent: '0' });
    await user.click(save());
    const third = tier(3);
    expect(
      await within(third).findByText("A tier's code must be 1 to 12 letters, digits or _."),
    ).toBeInTheDocument();
    expect(
      within(third).getByText('Minimum spend must be an amount in rupees with at most 2 decimals.'),
    ).toBeInTheDocument();
    expect(
      within(third).getByText('Earning % must be a whole number from 1 to 1000.'),
    ).toBeInTheDocument();
    expect(within(tier(1)).queryByText(/must be/)).not.toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.tiers)).toHaveLength(0);

    // Put right, a fourth tier below the others, ordered by spend.
    await fill(user, 3, { code: 'plat', name: 'Platinum', minSpend: '500000', earnPercent: '150' });
    await user.click(screen.getByRole('button', { name: texts.add }));
    await fill(user, 4, { code: 'brz', name: 'Bronze', minSpend: '10000.50' });
    await user.click(screen.getByRole('button', { name: texts.order }));
    expect(within(tier(1)).getByLabelText(texts.code)).toHaveValue('brz');
    expect(within(tier(1)).getByText('₹10,000.50')).toBeInTheDocument();

    // From never to the anniversary: the owner is told what the next daily run does first.
    await user.selectOptions(screen.getByLabelText(texts.downgrade), 'anniversary');
    await user.click(save());
    let dialog = await screen.findByRole('dialog', { name: texts.confirmTitle });
    expect(dialog).toHaveTextContent(texts.confirmQuestion);
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.sent('POST', API_PATHS.tiers)).toHaveLength(0);

    await user.click(save());
    dialog = await screen.findByRole('dialog', { name: texts.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: texts.confirm }));
    expect(await screen.findByText(TIER_MESSAGES.saved)).toBeInTheDocument();
    const [sent] = server.sent('POST', API_PATHS.tiers);
    expect(sent?.body).toEqual({
      tiers: [
        { code: 'BRZ', name: 'Bronze', minSpend: 10000.5, earnPercent: 100 },
        SILVER,
        GOLD,
        { code: 'PLAT', name: 'Platinum', minSpend: 500000, earnPercent: 150 },
      ],
      downgrade: 'anniversary',
    });
    expect(sent?.headers[IDEMPOTENCY_HEADER]).toBeTruthy();

    // A tier customers hold cannot go: the server's words, and no question this time.
    await waitFor(() => expect(within(tier(2)).getByLabelText(texts.code)).toHaveValue('SILVER'));
    await user.click(screen.getByRole('button', { name: texts.remove(2) }));
    expect(screen.queryByRole('group', { name: texts.tier(4) })).not.toBeInTheDocument();
    await user.click(save());
    expect(await screen.findByText(TIER_MESSAGES.tierHeld('SILVER', 3))).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.tiers)).toHaveLength(2);
  });

  it('takes spends typed as the shop writes them, 2,00,000 or 10,00,000, and refuses misplaced commas', async () => {
    const server = tiersServer();
    setScreenWidth(1366);
    signedInAs('admin');
    renderApp('/home/tiers');
    await screen.findByRole('group', { name: texts.tier(2) }, { timeout: 30_000 });
    const user = userEvent.setup();

    await fill(user, 2, { minSpend: '2,00,000' });
    expect(within(tier(2)).getByText('₹2,00,000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.add }));
    await fill(user, 3, { code: 'plat', name: 'Platinum', minSpend: '10,0,000' });
    await user.click(save());
    expect(
      await within(tier(3)).findByText(
        'Minimum spend must be an amount in rupees with at most 2 decimals.',
      ),
    ).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.tiers)).toHaveLength(0);

    await fill(user, 3, { minSpend: '₹ 10,00,000' });
    await user.click(save());
    expect(await screen.findByText(TIER_MESSAGES.saved)).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.tiers)[0]?.body).toEqual({
      tiers: [
        SILVER,
        { ...GOLD, minSpend: 200_000 },
        { code: 'PLAT', name: 'Platinum', minSpend: 1_000_000, earnPercent: 100 },
      ],
      downgrade: 'never',
    });
  });
});
