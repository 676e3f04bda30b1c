import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  BACKUP_MESSAGES,
  BACKUP_WARNING_TEXTS,
  BACKUPS_TEXTS,
  IDEMPOTENCY_HEADER,
  PAGE_TITLES,
  type BackupEntry,
  type BackupsList,
} from '@kanak/contract';
import { deferred, fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { PATHS } from '../../lib/paths';

const texts = BACKUPS_TEXTS;
const FOLDER = '/var/lib/kanak/backups';

const entry = (id: number, patch: Partial<BackupEntry> = {}): BackupEntry => ({
  id,
  startedAt: '2026-11-24T21:00:00.000Z',
  finishedAt: '2026-11-24T21:00:04.000Z',
  fileName: `kanak-backup-2026112${id}-210000.gz`,
  sizeBytes: 12_936_192,
  durationMs: 4_200,
  result: 'good',
  reason: null,
  trigger: 'schedule',
  by: null,
  path: `${FOLDER}/kanak-backup-2026112${id}-210000.gz`,
  ...patch,
});

const newest = entry(5);
const failed = entry(4, {
  startedAt: '2026-11-23T21:00:00.000Z',
  fileName: null,
  sizeBytes: null,
  durationMs: 900,
  result: 'failed',
  reason: BACKUP_MESSAGES.diskFull(FOLDER),
  path: null,
});
const pruned = entry(3, {
  startedAt: '2026-11-22T05:30:00.000Z',
  sizeBytes: 1_294_967_296,
  durationMs: 185_000,
  trigger: 'browser',
  by: 'admin',
  path: null,
});

const listOf = (patch: Partial<BackupsList> = {}): BackupsList => ({
  entries: [newest, failed, pruned],
  total: 3,
  lastGoodAt: newest.startedAt,
  stale: false,
  running: false,
  schedule: { at: '02:30', folder: FOLDER, keep: 14 },
  ...patch,
});

function backupsServer(list: BackupsList = listOf(), role = 'owner') {
  return fakeServer()
    .on('GET', API_PATHS.me, { status: 200, body: { success: true, data: { ...testOwner, role } } })
    .on('GET', API_PATHS.backups, { status: 200, body: { success: true, data: list } });
}

async function openScreen(width = 1366) {
  setScreenWidth(width);
  signedInAs('admin');
  renderApp(PATHS.backups);
  await screen.findByRole('heading', { name: PAGE_TITLES.backups, level: 1 }, { timeout: 20_000 });
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: texts.table });
/** The row of the backup begun at `when` (its first cell, as the screen shows it). */
async function rowOf(when: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = within(table())
      .getAllByRole('row')
      .find((row) => within(row).queryAllByRole('cell')[0]?.textContent === when);
    expect(found).toBeDefined();
  });
  return found!;
}
const backUpButton = () => screen.getByRole('button', { name: new RegExp(texts.backUpNow) });

const originalClick = HTMLAnchorElement.prototype.click;
afterEach(() => {
  HTMLAnchorElement.prototype.click = originalClick;
});

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('Backups', { timeout: 60_000 }, () => {
  it('lists each backup: when (store time), size in MB, duration, result, who, reason, its file', async () => {
    backupsServer();
    await openScreen();

    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    // 21:00 UTC is 02:30 the next day in the store.
    expect(cells(await rowOf('25/11/2026, 02:30'))).toEqual([
      '25/11/2026, 02:30',
      '12.3 MB',
      '4.2 s',
      'Good',
      'Schedule',
      '',
      texts.download,
    ]);
    expect(cells(await rowOf('24/11/2026, 02:30'))).toEqual([
      '24/11/2026, 02:30',
      '',
      '0.9 s',
      'Failed',
      'Schedule',
      BACKUP_MESSAGES.diskFull(FOLDER),
      '',
    ]);
    // Grouped the Indian way; its file no longer kept.
    expect(cells(await rowOf('22/11/2026, 11:00'))).toEqual([
      '22/11/2026, 11:00',
      '1,235.0 MB',
      '3 min 05 s',
      'Good',
      'admin',
      '',
      texts.fileGone,
    ]);
    expect(screen.getByText(texts.intro('02:30', FOLDER, 14))).toBeInTheDocument();
    // Restoring the newest kept one, as the restore command's own usage says.
    expect(
      within(screen.getByRole('region', { name: texts.restoreHeading })).getByText(
        `npm run restore -- ${newest.path}`,
      ),
    ).toBeInTheDocument();
  });

  it('copies the restore command, quoting a path with a space', async () => {
    const spaced = entry(6, { path: '/srv/Kanak Data/backups/kanak-backup-20261126-210000.gz' });
    backupsServer(listOf({ entries: [spaced, newest], total: 2 }));
    const user = await openScreen();
    // After user-event's setup, which puts a clipboard of its own in place.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const restore = await screen.findByRole('region', { name: texts.restoreHeading });
    const command = `npm run restore -- '/srv/Kanak Data/backups/kanak-backup-20261126-210000.gz'`;
    expect(within(restore).getByText(command)).toBeInTheDocument();
    await user.click(within(restore).getByRole('button', { name: texts.copy }));
    expect(writeText).toHaveBeenCalledWith(command);
    expect(await within(restore).findByText(texts.copied)).toBeInTheDocument();
  });

  it('"Back up now" shows its pending state, sends an Idempotency-Key, then lists the backup running', async () => {
    const server = backupsServer();
    const user = await openScreen();
    await rowOf('25/11/2026, 02:30');
    const started = entry(7, {
      startedAt: '2026-11-26T06:00:00.000Z',
      finishedAt: null,
      fileName: null,
      sizeBytes: null,
      durationMs: null,
      result: 'running',
      trigger: 'browser',
      by: 'admin',
      path: null,
    });
    const answer = deferred();
    server.on('POST', API_PATHS.backupNow, answer.handler);
    await user.click(backUpButton());
    await waitFor(() => expect(backUpButton()).toBeDisabled());
    expect(screen.getByLabelText(texts.backingUp)).toBeInTheDocument();
    const [sent] = server.sent('POST', API_PATHS.backupNow);
    expect(sent!.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);

    server.on('GET', API_PATHS.backups, {
      status: 200,
      body: {
        success: true,
        data: listOf({ entries: [started, newest, failed, pruned], total: 4, running: true }),
      },
    });
    answer.release({
      status: 200,
      body: { success: true, message: BACKUP_MESSAGES.started, data: started },
    });
    expect(await screen.findByText(BACKUP_MESSAGES.started)).toBeInTheDocument();
    expect(await rowOf('26/11/2026, 11:30')).toHaveTextContent('Running');
    // Still being made: the button says so and stays pressed.
    expect(screen.getByText(texts.runningNow)).toBeInTheDocument();
    expect(backUpButton()).toBeDisabled();
  });

  it('tells the server’s refusal while another backup is being made', async () => {
    const server = backupsServer();
    const user = await openScreen();
    await rowOf('25/11/2026, 02:30');
    server.on('POST', API_PATHS.backupNow, {
      status: 409,
      body: { success: false, message: BACKUP_MESSAGES.running },
    });
    await user.click(backUpButton());
    expect(await screen.findByText(BACKUP_MESSAGES.running)).toBeInTheDocument();
    await waitFor(() => expect(backUpButton()).toBeEnabled());
  });

  it('downloads a kept backup by a single-use link the browser fetches itself', async () => {
    const server = backupsServer().on('POST', API_PATHS.backupTicket, {
      status: 200,
      body: {
        success: true,
        data: { url: '/api/backups/download?ticket=abc', expiresInSeconds: 60 },
      },
    });
    const clicked: { href: string; download: string }[] = [];
    HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    };
    const user = await openScreen();
    const row = await rowOf('25/11/2026, 02:30');
    await user.click(
      within(row).getByRole('button', { name: texts.downloadLabel('25/11/2026, 02:30') }),
    );
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(server.sent('POST', API_PATHS.backupTicket)[0]!.body).toEqual({ id: 5 });
    expect(clicked[0]!.href).toMatch(/\/api\/backups\/download\?ticket=abc$/);
    expect(clicked[0]!.download).toBe(newest.fileName);
    // Only a good backup still kept has a download.
    expect(within(await rowOf('22/11/2026, 11:00')).queryByRole('button')).toBeNull();
  });

  it('fits a phone: each backup a card, the button and the command in view', async () => {
    backupsServer();
    await openScreen(390);
    await rowOf('25/11/2026, 02:30');
    expect(backUpButton()).toBeInTheDocument();
    expect(screen.getByRole('region', { name: texts.restoreHeading })).toBeInTheDocument();
  });
});

describe('the owner’s dashboard and the backups', { timeout: 60_000 }, () => {
  async function openDashboard(list: BackupsList | null, role = 'owner') {
    const server = backupsServer(list ?? listOf(), role)
      // The figures never arrive: only the warning is looked at here.
      .on('GET', API_PATHS.dashboard, deferred().handler)
      .on('GET', API_PATHS.goldRateToday, { status: 200, body: { success: true, data: null } })
      .on('GET', API_PATHS.onlineRefunds, { status: 200, body: { success: true, data: [] } })
      .on('GET', API_PATHS.branches, { status: 200, body: { success: true, data: [] } });
    setScreenWidth(1366);
    signedInAs('admin');
    renderApp(PATHS.home);
    await screen.findByRole(
      'heading',
      { name: PAGE_TITLES.dashboard, level: 1 },
      { timeout: 20_000 },
    );
    return { server, user: userEvent.setup() };
  }

  it('warns when no backup was ever made, with the way to the Backups screen', async () => {
    const { user } = await openDashboard(
      listOf({ entries: [], total: 0, lastGoodAt: null, stale: true }),
    );
    expect(await screen.findByText(BACKUP_WARNING_TEXTS.none)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: BACKUP_WARNING_TEXTS.open }));
    expect(screen.getByTestId('current-path')).toHaveTextContent(PATHS.backups);
  });

  it('warns when the last good backup is older than 26 hours, saying when it was', async () => {
    await openDashboard(listOf({ stale: true }));
    expect(
      await screen.findByText(BACKUP_WARNING_TEXTS.stale('25/11/2026, 02:30')),
    ).toBeInTheDocument();
  });

  it('says nothing while the last good backup is recent, nor to a manager', async () => {
    const { server } = await openDashboard(listOf());
    await waitFor(() => expect(server.sent('GET', API_PATHS.backups)).toHaveLength(1));
    expect(screen.queryByText(BACKUP_WARNING_TEXTS.none)).toBeNull();
    expect(screen.queryByRole('link', { name: BACKUP_WARNING_TEXTS.open })).toBeNull();
  });

  it('asks a manager nothing about backups', async () => {
    const { server } = await openDashboard(listOf({ stale: true }), 'manager');
    await screen.findByRole('heading', { name: PAGE_TITLES.dashboard, level: 1 });
    await waitFor(() => expect(server.sent('GET', API_PATHS.dashboard).length).toBeGreaterThan(0));
    expect(server.sent('GET', API_PATHS.backups)).toEqual([]);
    expect(screen.queryByRole('link', { name: BACKUP_WARNING_TEXTS.open })).toBeNull();
  });
});
