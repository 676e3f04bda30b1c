import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  DELIVERY_LOG_TEXTS,
  IDEMPOTENCY_HEADER,
  LIMITS,
  MESSAGES,
  NOTICE_MESSAGES,
  PAGE_TITLES,
  SIDEBAR_LABELS,
  UI_TEXTS,
  type NoticeEntry,
} from '@kanak/contract';
import { typeDate } from '../../components/DateField.testing';
import { deferred, fakeServer, testOwner, type SeenRequest } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const texts = DELIVERY_LOG_TEXTS;

const notice = (id: number, patch: Partial<NoticeEntry> = {}): NoticeEntry => ({
  id,
  event: 'installmentReceived',
  mobile: '9800011111',
  text: 'Dear Lakshmi, we received ₹5,000 for your scheme at Kanak Jewellers, receipt MAIN-000123 (installment 3 of 11). Thank you.',
  status: 'sent',
  attempts: 1,
  reason: null,
  branch: 'MAIN',
  createdAt: '2026-11-24T08:35:00.000Z',
  sentAt: '2026-11-24T08:35:04.000Z',
  ...patch,
});

const failed = notice(7, {
  event: 'pointsAdjusted',
  mobile: '9800022222',
  text: 'அன்புள்ள Ravi, 120 புள்ளிகள்.',
  status: 'failed',
  attempts: 5,
  reason: NOTICE_MESSAGES.providerTimeout(10),
  sentAt: null,
});
const skipped = notice(8, {
  event: 'pointsEarned',
  mobile: '9800033333',
  status: 'skipped',
  attempts: 0,
  reason: NOTICE_MESSAGES.skippedNoConsent,
  sentAt: null,
});

/** A fake of the notices calls: 120 notices, one page of three shown, and resend. */
function noticesServer(role = 'owner') {
  let rows = [notice(6), failed, skipped];
  return fakeServer()
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: { ...testOwner, role } } })
    .on('GET', API_PATHS.notices, () => ({
      status: 200,
      body: { success: true, data: rows, total: 120 },
    }))
    .on('POST', API_PATHS.noticeResend, (request: SeenRequest) => {
      const { id } = request.body as { id: number };
      rows = rows.map((row) =>
        row.id === id ? { ...row, status: 'queued', attempts: 0, reason: null } : row,
      );
      return {
        status: 200,
        body: {
          success: true,
          message: NOTICE_MESSAGES.noticeResent(id),
          data: rows.find((row) => row.id === id),
        },
      };
    });
}

async function openScreen() {
  setScreenWidth(1366);
  signedInAs('admin');
  renderApp(PATHS.deliveryLog);
  await screen.findByRole(
    'heading',
    { name: PAGE_TITLES.deliveryLog, level: 1 },
    {
      timeout: 20_000,
    },
  );
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: texts.table });
const rowWith = async (text: string) =>
  (await within(table()).findByText(text)).closest('[role="row"]') as HTMLElement;
const resendButton = (id: number) => screen.queryByRole('button', { name: texts.resend(id) });

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Delivery Log', { timeout: 60_000 }, () => {
  it('shows each notice: when (store time), event, mobile, message, status, attempts, reason, sent', async () => {
    noticesServer();
    await openScreen();

    const sent = await rowWith('9800011111');
    const cells = within(sent)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      '24/11/2026, 14:05',
      'Installment received',
      '9800011111',
      notice(6).text,
      'Sent',
      '1',
      '',
      '24/11/2026, 14:05',
      '',
    ]);
    // Numbers inside the message never break over two lines; the message is one text in its
    // cell (a flex box would set each piece beside the other).
    const message = within(sent).getAllByRole('cell')[3]!;
    expect(message.childNodes).toHaveLength(1);
    expect(within(sent).getByText('000123')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(within(sent).getByText('₹5,000')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(
      within(sent).getByText('24/11/2026,', { selector: '[role="cell"]:first-child *' }),
    ).toHaveStyle({ whiteSpace: 'nowrap' });

    const failedRow = await rowWith('9800022222');
    expect(failedRow).toHaveTextContent('Points adjusted by staff');
    expect(failedRow).toHaveTextContent('அன்புள்ள Ravi, 120 புள்ளிகள்.');
    expect(within(failedRow).getByText('Failed')).toBeInTheDocument();
    expect(failedRow).toHaveTextContent(failed.reason!);
    expect(within(failedRow).getByText('10')).toHaveStyle({ whiteSpace: 'nowrap' });

    // Only a failed notice may be sent again.
    expect(resendButton(7)).toBeInTheDocument();
    expect(resendButton(6)).toBeNull();
    expect(resendButton(8)).toBeNull();
    expect(screen.getByText(texts.pageOf(1, 3, 120))).toBeInTheDocument();
  });

  it('sends the filters (dates as YYYY-MM-DD) and pages through the results', async () => {
    const server = noticesServer();
    const user = await openScreen();
    await rowWith('9800011111');
    expect(server.sent('GET', API_PATHS.notices)[0]?.params).toEqual({ page: 1 });

    await user.selectOptions(screen.getByLabelText(texts.status), 'Failed');
    await user.selectOptions(screen.getByLabelText(texts.event), 'Points adjusted by staff');
    await user.type(screen.getByLabelText(texts.mobile), '98000-22222');
    await typeDate(user, texts.from, '01/11/2026');
    await typeDate(user, texts.to, '24/11/2026');
    await user.click(screen.getByRole('button', { name: texts.search }));

    await waitFor(() =>
      expect(server.sent('GET', API_PATHS.notices).at(-1)!.params).toEqual({
        status: 'failed',
        event: 'pointsAdjusted',
        mobile: '9800022222',
        from: '2026-11-01',
        to: '2026-11-24',
        page: 1,
      }),
    );
    await user.click(screen.getByRole('button', { name: UI_TEXTS.pager.next }));
    await waitFor(() => expect(server.sent('GET', API_PATHS.notices).at(-1)!.params?.page).toBe(2));
    expect(await screen.findByText(texts.pageOf(2, 3, 120))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: UI_TEXTS.pager.previous })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: texts.clear }));
    await waitFor(() =>
      expect(server.sent('GET', API_PATHS.notices).at(-1)!.params).toEqual({ page: 1 }),
    );
    expect(screen.getByLabelText(texts.mobile)).toHaveValue('');
  });

  it('says what is wrong with a filter instead of asking', async () => {
    const server = noticesServer();
    const user = await openScreen();
    await rowWith('9800011111');
    const asked = server.sent('GET', API_PATHS.notices).length;

    await user.type(screen.getByLabelText(texts.mobile), '98765');
    await user.click(screen.getByRole('button', { name: texts.search }));

    expect(screen.getByLabelText(texts.mobile)).toHaveAccessibleDescription(
      'Mobile no. must be 10 digits.',
    );
    expect(screen.getByLabelText(texts.mobile)).toHaveAttribute(
      'maxlength',
      String(LIMITS.mobileLength),
    );
    expect(server.sent('GET', API_PATHS.notices)).toHaveLength(asked);
  });

  it('"Send again" queues a failed notice again and shows the list anew', async () => {
    const server = noticesServer();
    const user = await openScreen();
    await rowWith('9800022222');

    const answer = deferred();
    server.on('POST', API_PATHS.noticeResend, answer.handler);
    await user.click(resendButton(7)!);
    await waitFor(() => expect(resendButton(7)).toBeDisabled());
    expect(screen.getByRole('progressbar', { name: texts.resending })).toBeVisible();
    const [request] = server.sent('POST', API_PATHS.noticeResend);
    expect(request?.body).toEqual({ id: 7 });
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);

    const asked = server.sent('GET', API_PATHS.notices).length;
    server.on('GET', API_PATHS.notices, {
      status: 200,
      body: {
        success: true,
        data: [notice(6), { ...failed, status: 'queued', attempts: 0, reason: null }, skipped],
        total: 120,
      },
    });
    answer.release({
      status: 200,
      body: {
        success: true,
        message: NOTICE_MESSAGES.noticeResent(7),
        data: { ...failed, status: 'queued', attempts: 0, reason: null },
      },
    });

    expect(await screen.findByText(NOTICE_MESSAGES.noticeResent(7))).toBeInTheDocument();
    await waitFor(() => expect(resendButton(7)).toBeNull());
    expect(server.sent('GET', API_PATHS.notices).length).toBeGreaterThan(asked);
    expect(within(await rowWith('9800022222')).getByText('Queued')).toBeInTheDocument();
  });

  it('"Send again" refused shows the server’s words and leaves the row as it was', async () => {
    const server = noticesServer();
    server.on('POST', API_PATHS.noticeResend, {
      status: 409,
      body: { success: false, message: NOTICE_MESSAGES.onlyFailedResent },
    });
    const user = await openScreen();
    await rowWith('9800022222');
    await user.click(resendButton(7)!);

    expect(await screen.findByText(NOTICE_MESSAGES.onlyFailedResent)).toBeInTheDocument();
    expect(resendButton(7)).toBeEnabled();
  });

  it('a list that cannot be loaded says so, and the table is empty', async () => {
    fakeServer().on('GET', API_PATHS.notices, { status: 500, body: { success: false } });
    await openScreen();

    expect(await screen.findByText(texts.loadFailed)).toBeInTheDocument();
    expect(within(table()).getByText(texts.empty)).toBeInTheDocument();
  });

  it('is in a manager’s sidebar too', async () => {
    noticesServer('manager');
    await openScreen();
    await rowWith('9800011111');
    const nav = screen.getByRole('navigation');
    expect(within(nav).getByRole('link', { name: SIDEBAR_LABELS.deliveryLog })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('is not for a cashier: neither notices screen in the sidebar, and "not allowed"', async () => {
    noticesServer('cashier');
    await openScreen();
    expect(await screen.findByText(MESSAGES.notAllowed)).toBeInTheDocument();
    const nav = screen.getByRole('navigation');
    await within(nav).findByRole('link', { name: SIDEBAR_LABELS.loyaltyPoints });
    expect(within(nav).queryByRole('link', { name: SIDEBAR_LABELS.deliveryLog })).toBeNull();
    expect(within(nav).queryByRole('link', { name: SIDEBAR_LABELS.messageTemplates })).toBeNull();
  });
});
