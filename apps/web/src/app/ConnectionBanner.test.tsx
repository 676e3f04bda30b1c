import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_PATHS, CONNECTION_TEXTS, LIMITS, PAGE_TITLES, SCHEME_TEXTS } from '@kanak/contract';
import { fakeServer, type Reply } from '../test/fake-server';
import { renderApp, signedInAs } from '../test/render';
import { queryClient } from '../lib/query-client';
import { bodyRows, ok, scheme } from '../features/schemes/schemeTestKit';

const texts = CONNECTION_TEXTS;
const statement = SCHEME_TEXTS.statement;
const NARRATION = 'Installment 1 of 11 · Cash · Receipt 1';
const statementAnswer = ok({
  data: [
    {
      date: '2026-01-05',
      narration: NARRATION,
      amount: 5000,
      receiptNo: '1',
      branch: null,
      mode: 'cash',
      reference: '',
    },
  ],
  custname: 'Lakshmi Iyer',
  mobileno: '9876543210',
  scheme: scheme({ paid: 1 }),
});

/** A server the test takes away and brings back: every call fails while it is away. */
function serverThatGoes() {
  let away = false;
  const when = (reply: Reply) => () => (away ? ('network-error' as const) : reply);
  const fake = fakeServer()
    .on('POST', API_PATHS.schemeStatement, when(statementAnswer))
    .on('GET', API_PATHS.health, when({ status: 200, body: { success: true } }));
  return {
    fake,
    goAway: () => (away = true),
    comeBack: () => (away = false),
  };
}

async function openStatement() {
  signedInAs('meera');
  renderApp('/home/scheme-statement');
  await screen.findByRole('heading', { name: PAGE_TITLES.schemeStatement });
  return userEvent.setup();
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the connection banner', { timeout: 40_000 }, () => {
  it('says the server cannot be reached, and reads the statement again once it answers', async () => {
    const server = serverThatGoes();
    const user = await openStatement();
    expect(screen.queryByText(texts.unreachable)).not.toBeInTheDocument();

    server.goAway();
    await user.type(screen.getByRole('textbox', { name: statement.schemeId }), '7');
    await user.click(screen.getByRole('button', { name: statement.generate }));
    expect(await screen.findByText(texts.unreachable, {}, { timeout: 10_000 })).toBeVisible();
    // The read has failed for good, its retries spent: only a read that failed is read again
    // (one still retrying is answered by its own retry).
    const asked = LIMITS.requestRetries + 1;
    await waitFor(
      () => expect(server.fake.sent('POST', API_PATHS.schemeStatement)).toHaveLength(asked),
      { timeout: 10_000 },
    );
    await waitFor(() =>
      expect(queryClient.getQueryState(['schemes', 'statement', 7])?.status).toBe('error'),
    );

    server.comeBack();
    await user.click(screen.getByRole('button', { name: texts.tryNow }));
    expect(await screen.findByText(texts.back)).toBeVisible();
    expect(screen.queryByText(texts.unreachable)).not.toBeInTheDocument();
    // The statement that failed is asked for again without Generate being pressed.
    // (On the screen, and in the print sheet behind it.)
    expect(await screen.findAllByText(NARRATION)).not.toHaveLength(0);
    expect(bodyRows(statement.table)).toHaveLength(1);
    expect(server.fake.sent('POST', API_PATHS.schemeStatement).length).toBe(asked + 1);
  });

  it('says the computer is offline when the browser loses the network, and when it is back', async () => {
    const server = serverThatGoes();
    await openStatement();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(await screen.findByText(texts.offline)).toBeVisible();

    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText(texts.back)).toBeVisible();
    expect(screen.queryByText(texts.offline)).not.toBeInTheDocument();
    expect(server.fake.sent('GET', API_PATHS.health).length).toBeGreaterThan(0);
  });
});
