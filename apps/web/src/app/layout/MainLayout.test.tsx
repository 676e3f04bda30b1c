import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  MESSAGES,
  PAGE_TITLES,
  SIDEBAR_LABELS,
  STORAGE_KEYS,
  UI_TEXTS,
} from '@kanak/contract';
import { deferred, fakeServer, testBranding, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';
import { PATHS, SCREENS } from '../../lib/paths';

const layout = UI_TEXTS.layout;
const currentPath = () => screen.getByTestId('current-path').textContent;
const navigation = () => screen.getByRole('navigation', { name: layout.mainNavigation });

describe('main layout', () => {
  it('sends /home/* back to the login screen without a token', async () => {
    fakeServer();
    renderApp(PATHS.user);
    expect(await screen.findByLabelText(UI_TEXTS.login.password)).toBeInTheDocument();
    expect(currentPath()).toBe('/');
  });

  it('shows a cashier neither the settings screens nor their pages', async () => {
    fakeServer().on('GET', API_PATHS.me, {
      status: 200,
      body: { success: true, data: { ...testOwner, username: 'priya', role: 'cashier' } },
    });
    setScreenWidth(1366);
    signedInAs('priya');
    renderApp(PATHS.mobileApp);

    expect(await screen.findByText(MESSAGES.notAllowed)).toBeInTheDocument();
    const links = within(navigation())
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toContain(SIDEBAR_LABELS.loyaltyPoints);
    expect(links).not.toContain(SIDEBAR_LABELS.mobileApp);
    expect(links).not.toContain(SIDEBAR_LABELS.messageConfiguration);
    expect(links).not.toContain(SIDEBAR_LABELS.messageTemplates);
    expect(links).not.toContain(SIDEBAR_LABELS.deliveryLog);
  });

  it('shows the menu once the role is known, so no entry moves under the pointer', async () => {
    const me = deferred();
    fakeServer().on('GET', API_PATHS.me, me.handler);
    setScreenWidth(1366);
    signedInAs('meera');
    renderApp(PATHS.user);

    expect(
      await within(navigation()).findByRole('progressbar', { name: layout.loadingMenu }),
    ).toBeInTheDocument();
    expect(within(navigation()).queryByRole('button', { name: layout.logout })).toBeNull();
    me.release({ status: 200, body: { success: true, data: testOwner } });
    // Logout comes with the owner's screens above it, in its final place.
    expect(
      await within(navigation()).findByRole('button', { name: layout.logout }),
    ).toBeInTheDocument();
    expect(
      within(navigation()).getByRole('link', { name: SIDEBAR_LABELS.shopSettings }),
    ).toBeInTheDocument();
    expect(within(navigation()).queryByRole('progressbar')).toBeNull();
  });

  it('lists every screen in spec order, a divider before the statements, and Logout', async () => {
    fakeServer();
    setScreenWidth(1366);
    signedInAs('meera');
    renderApp(PATHS.home);

    // The owner's screens show once the role is known.
    await within(await screen.findByRole('navigation')).findByRole('link', {
      name: SIDEBAR_LABELS.mobileApp,
    });
    const links = within(navigation()).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      SIDEBAR_LABELS.dashboard,
      SIDEBAR_LABELS.counter,
      SIDEBAR_LABELS.mobileApp,
      SIDEBAR_LABELS.customerProfile,
      SIDEBAR_LABELS.loyaltyPoints,
      SIDEBAR_LABELS.redeemPoints,
      SIDEBAR_LABELS.schemeGeneration,
      SIDEBAR_LABELS.goldRate,
      SIDEBAR_LABELS.schemePlans,
      SIDEBAR_LABELS.messageConfiguration,
      SIDEBAR_LABELS.messageTemplates,
      SIDEBAR_LABELS.staff,
      SIDEBAR_LABELS.branches,
      SIDEBAR_LABELS.integrations,
      SIDEBAR_LABELS.pointsRules,
      SIDEBAR_LABELS.tiers,
      SIDEBAR_LABELS.accounting,
      SIDEBAR_LABELS.importData,
      SIDEBAR_LABELS.audit,
      SIDEBAR_LABELS.backups,
      SIDEBAR_LABELS.shopSettings,
      SIDEBAR_LABELS.deliveryLog,
      SIDEBAR_LABELS.user,
      SIDEBAR_LABELS.statement,
      SIDEBAR_LABELS.schemeStatement,
      SIDEBAR_LABELS.schemeSummary,
      SIDEBAR_LABELS.collectionsReport,
      SIDEBAR_LABELS.overdueReport,
      SIDEBAR_LABELS.maturingReport,
      SIDEBAR_LABELS.pointsLiabilityReport,
      SIDEBAR_LABELS.unrecoveredReturns,
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual(SCREENS.map((s) => s.path));
    const statements = within(navigation()).getByRole('link', { name: SIDEBAR_LABELS.statement });
    const profile = within(navigation()).getByRole('link', { name: SIDEBAR_LABELS.user });
    const follows = (a: Node, b: Node) =>
      Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    const dividers = Array.from(navigation().querySelectorAll('hr'));
    expect(dividers.some((hr) => follows(profile, hr) && follows(hr, statements))).toBe(true);
    expect(within(navigation()).getByRole('button', { name: SIDEBAR_LABELS.logout })).toBeVisible();
  });

  it('shows the username, the footer and the company from the branding API', async () => {
    fakeServer();
    signedInAs('meera');
    renderApp(PATHS.home);

    const banner = await screen.findByRole('banner');
    expect(within(banner).getByRole('button', { name: 'meera' })).toBeInTheDocument();
    await waitFor(() => expect(banner).toHaveTextContent(testBranding.companyName));
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`Powered by ${testBranding.poweredBy}`);
    expect(within(footer).getByRole('link', { name: testBranding.supportPhone })).toHaveAttribute(
      'href',
      'tel:+918047182200',
    );
  });

  it('on a small screen the sidebar is a drawer: menu button opens it, choosing an item closes it', async () => {
    fakeServer();
    setScreenWidth(390);
    signedInAs('meera');
    renderApp(PATHS.home);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: PAGE_TITLES.dashboard });
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: layout.openMenu }));
    await user.click(within(navigation()).getByRole('link', { name: SIDEBAR_LABELS.user }));

    expect(await screen.findByRole('heading', { name: PAGE_TITLES.user })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('navigation')).not.toBeInTheDocument());
  });

  it('the drawer closes with its close button and with a click outside', async () => {
    fakeServer();
    setScreenWidth(390);
    signedInAs('meera');
    renderApp(PATHS.home);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: PAGE_TITLES.dashboard });

    await user.click(screen.getByRole('button', { name: layout.openMenu }));
    await user.click(await screen.findByRole('button', { name: layout.closeMenu }));
    await waitFor(() => expect(screen.queryByRole('navigation')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: layout.openMenu }));
    await screen.findByRole('navigation');
    const backdrop = document.querySelector('.MuiBackdrop-root') as HTMLElement;
    await user.click(backdrop);
    await waitFor(() => expect(screen.queryByRole('navigation')).not.toBeInTheDocument());
    expect(currentPath()).toBe(PATHS.home);
  });

  it('Logout in the sidebar clears the stored session, returns to the login screen and ends the token on the server', async () => {
    const server = fakeServer().on('POST', API_PATHS.logout, {
      status: 200,
      body: { success: true, message: MESSAGES.loggedOut },
    });
    setScreenWidth(1366);
    signedInAs('meera', { stayLoggedIn: true, accessToken: 'token-sidebar' });
    renderApp(PATHS.mobileApp);
    const user = userEvent.setup();

    await user.click(
      await within(await screen.findByRole('navigation')).findByRole('button', {
        name: SIDEBAR_LABELS.logout,
      }),
    );

    expect(await screen.findByLabelText(UI_TEXTS.login.password)).toBeInTheDocument();
    expect(currentPath()).toBe('/');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    const sent = server.sent('POST', API_PATHS.logout);
    expect(sent.map((request) => request.headers.Authorization)).toEqual(['Bearer token-sidebar']);
  });

  it('Logout in the user menu does the same, even when the server cannot be reached', async () => {
    const server = fakeServer().on('POST', API_PATHS.logout, 'network-error');
    signedInAs('meera', { accessToken: 'token-menu' });
    renderApp(PATHS.home);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'meera' }));
    await user.click(await screen.findByRole('menuitem', { name: layout.logout }));

    expect(await screen.findByLabelText(UI_TEXTS.login.password)).toBeInTheDocument();
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(server.sent('POST', API_PATHS.logout)[0]?.headers.Authorization).toBe(
      'Bearer token-menu',
    );
    expect(screen.queryByText(MESSAGES.sessionExpired)).not.toBeInTheDocument();
  });

  it('shows a not-found page inside the layout for an unknown /home address', async () => {
    fakeServer();
    setScreenWidth(1366);
    signedInAs('meera');
    renderApp('/home/no-such-screen');

    expect(await screen.findByRole('heading', { name: PAGE_TITLES.notFound })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: layout.mainNavigation })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });
});
