import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { API_PATHS, MESSAGES, PAGE_TITLES, STORAGE_KEYS, UI_TEXTS } from '@kanak/contract';
import { setLoginNotice } from '../../lib/app-state';
import { deferred, fakeServer, testBranding } from '../../test/fake-server';
import { renderApp, signedInAs } from '../../test/render';

const texts = UI_TEXTS.login;
const ok = (username = 'meera') => ({
  status: 200,
  body: { success: true, accessToken: 'token-abc', username },
});

async function fillIn(username = 'meera', password = 'Secret@123') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(texts.username), username);
  await user.type(screen.getByLabelText(texts.password), password);
  return user;
}

const loginButton = () => screen.getByRole('button', { name: texts.submit });
const currentPath = () => screen.getByTestId('current-path').textContent;

describe('login screen', () => {
  it('shows the company, its tagline and a welcome line from the branding API', async () => {
    fakeServer();
    renderApp('/');

    expect(
      await screen.findByRole('heading', { level: 1, name: testBranding.companyName }),
    ).toBeInTheDocument();
    expect(screen.getByText(testBranding.companyTagline)).toBeInTheDocument();
    expect(screen.getByText(texts.welcome)).toBeInTheDocument();
    expect(screen.getByLabelText(texts.username)).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText(texts.password)).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: texts.stayLoggedIn })).not.toBeChecked();
    expect(loginButton()).toBeEnabled();
  });

  it('sends USERNAME, PASSWORD and stayLoggedIn, and goes to /home', async () => {
    const server = fakeServer().on('POST', API_PATHS.login, ok());
    renderApp('/');
    const user = await fillIn('meera', 'Secret@123');
    await user.click(loginButton());

    expect(await screen.findByRole('heading', { name: PAGE_TITLES.dashboard })).toBeInTheDocument();
    expect(currentPath()).toBe('/home');
    expect(server.sent('POST', API_PATHS.login)[0]?.body).toEqual({
      USERNAME: 'meera',
      PASSWORD: 'Secret@123',
      stayLoggedIn: false,
    });
  });

  it('shows "Invalid credentials." in small text under the password field on a 401', async () => {
    fakeServer().on('POST', API_PATHS.login, {
      status: 401,
      body: { success: false, message: 'Invalid credentials.' },
    });
    renderApp('/');
    const user = await fillIn('meera', 'wrong-password');
    await user.click(loginButton());

    const password = screen.getByLabelText(texts.password);
    const error = await screen.findByText(MESSAGES.invalidCredentials);
    expect(password).toHaveAccessibleDescription(MESSAGES.invalidCredentials);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    // Under the password field: inside its form control, after the input.
    const control = password.closest('.MuiFormControl-root') as HTMLElement;
    expect(within(control).getByText(MESSAGES.invalidCredentials)).toBe(error);
    expect(password.compareDocumentPosition(error) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(error).toHaveClass('MuiFormHelperText-root');
    expect(currentPath()).toBe('/');
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('editing any field clears the error', async () => {
    fakeServer().on('POST', API_PATHS.login, { status: 401, body: { success: false } });
    renderApp('/');
    const user = await fillIn();
    await user.click(loginButton());
    await screen.findByText(MESSAGES.invalidCredentials);

    await user.type(screen.getByLabelText(texts.username), 'x');
    expect(screen.queryByText(MESSAGES.invalidCredentials)).not.toBeInTheDocument();

    await user.click(loginButton());
    await screen.findByText(MESSAGES.invalidCredentials);
    await user.click(screen.getByRole('checkbox', { name: texts.stayLoggedIn }));
    expect(screen.queryByText(MESSAGES.invalidCredentials)).not.toBeInTheDocument();
  });

  it('shows the lockout message of a 429, and "Error in logging in." for anything else', async () => {
    const lockout = 'Too many failed sign-in attempts. Please try again in 15 minutes.';
    let reply = { status: 429, body: { success: false, message: lockout } };
    fakeServer().on('POST', API_PATHS.login, () => reply);
    renderApp('/');
    const user = await fillIn();

    await user.click(loginButton());
    expect(await screen.findByText(lockout)).toBeInTheDocument();

    reply = { status: 500, body: { success: false, message: 'internal' } };
    await user.click(loginButton());
    expect(await screen.findByText(MESSAGES.loginFailed)).toBeInTheDocument();
  });

  it('Enter in the password field submits the form', async () => {
    const server = fakeServer().on('POST', API_PATHS.login, ok());
    renderApp('/');
    const user = await fillIn();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(currentPath()).toBe('/home'));
    expect(server.sent('POST', API_PATHS.login)).toHaveLength(1);
  });

  it('Enter on the "Stay logged in" checkbox submits the form too', async () => {
    const server = fakeServer().on('POST', API_PATHS.login, ok());
    renderApp('/');
    const user = await fillIn();
    screen.getByRole('checkbox', { name: texts.stayLoggedIn }).focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(server.sent('POST', API_PATHS.login)).toHaveLength(1));
  });

  it('disables the button and shows a spinner while the request is pending', async () => {
    const pending = deferred();
    const server = fakeServer().on('POST', API_PATHS.login, pending.handler);
    renderApp('/');
    const user = await fillIn();
    await user.click(loginButton());

    await waitFor(() => expect(loginButton()).toBeDisabled());
    expect(within(loginButton()).getByRole('progressbar')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(server.sent('POST', API_PATHS.login)).toHaveLength(1);

    pending.release({ status: 401, body: { success: false } });
    await screen.findByText(MESSAGES.invalidCredentials);
    expect(loginButton()).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('keeps the session in localStorage when "Stay logged in" is ticked', async () => {
    const server = fakeServer().on('POST', API_PATHS.login, ok('Meera'));
    renderApp('/');
    const user = await fillIn('meera');
    await user.click(screen.getByRole('checkbox', { name: texts.stayLoggedIn }));
    await user.click(loginButton());

    await waitFor(() => expect(currentPath()).toBe('/home'));
    expect(server.sent('POST', API_PATHS.login)[0]?.body).toMatchObject({ stayLoggedIn: true });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('token-abc');
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBe('Meera');
    expect(localStorage.getItem(STORAGE_KEYS.stayLoggedIn)).toBe('true');
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('keeps the session in sessionStorage when "Stay logged in" is not ticked', async () => {
    fakeServer().on('POST', API_PATHS.login, ok());
    renderApp('/');
    const user = await fillIn();
    await user.click(loginButton());

    await waitFor(() => expect(currentPath()).toBe('/home'));
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBe('token-abc');
    expect(sessionStorage.getItem(STORAGE_KEYS.user)).toBe('meera');
    expect(sessionStorage.getItem(STORAGE_KEYS.stayLoggedIn)).toBe('false');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('goes straight to /home when a token is already saved', async () => {
    fakeServer();
    signedInAs('meera', { stayLoggedIn: true });
    renderApp('/');

    expect(await screen.findByRole('heading', { name: PAGE_TITLES.dashboard })).toBeInTheDocument();
    expect(currentPath()).toBe('/home');
  });

  it('shows the "session expired" notice after being sent back', async () => {
    fakeServer();
    setLoginNotice(MESSAGES.sessionExpired);
    renderApp('/');
    expect(await screen.findByText(MESSAGES.sessionExpired)).toBeInTheDocument();
  });
});
