/**
 * Test helpers for the report screens (imported by the *.test.tsx files only): who is signed
 * in, the shop's branches, a fake server answering one report, and opening its screen.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API_PATHS, LIMITS, todayIn, type Branch, type Role } from '@kanak/contract';
import { fakeServer, type Reply, type SeenRequest } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

export const today = () => todayIn('Asia/Kolkata');

export const BRANCHES: Branch[] = [
  { code: 'MAIN', name: 'Zaveri Bazaar', address: '12 Zaveri Bazaar, Mumbai', phone: '2223421928' },
  { code: 'ANNA', name: 'Anna Nagar', address: '4 2nd Avenue, Chennai', phone: '4426161928' },
];

/** GET /api/me for a staff member of this role (a manager and a cashier work at MAIN). */
const me = (role: Role) => ({
  status: 200,
  body: {
    success: true,
    data: {
      username: role,
      name: `The ${role}`,
      role,
      branch: role === 'owner' ? null : BRANCHES[0],
      mustChangePassword: false,
    },
  },
});

/** One page of a report: its rows, how many in all, and the totals of all. */
export const reportAnswer = (data: unknown[], total: number, totals: object) => ({
  status: 200,
  body: { success: true, data, total, totals },
});

/** A signed-in fake server for `role` answering POST `path` with `reply`. */
export function reportServer(
  role: Role,
  path: string,
  reply: Reply | ((request: SeenRequest) => Reply),
) {
  signedInAs(role);
  return fakeServer()
    .on('GET', API_PATHS.me, me(role))
    .on('GET', API_PATHS.branches, { status: 200, body: { success: true, data: BRANCHES } })
    .on('POST', path, reply);
}

/** Opens a report screen on a counter's screen and waits for its heading. */
export async function openReport(address: string, title: string) {
  setScreenWidth(1366);
  renderApp(address);
  await screen.findByRole('heading', { name: title, level: 1 }, { timeout: 20_000 });
  return userEvent.setup();
}

/** The body of each POST to `path` (the reports' requests). */
export const bodies = (server: ReturnType<typeof fakeServer>, path: string) =>
  server.sent('POST', path).map((request) => request.body);

/** A page of the first page's request, as every report screen sends it first. */
export const firstPage = { page: 1, pageSize: LIMITS.reportPageSize };
