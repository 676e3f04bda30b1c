import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  LIMITS,
  MESSAGES,
  PAGE_TITLES,
  STORAGE_KEYS,
  UI_TEXTS,
} from '@kanak/contract';
import { deferred, fakeServer } from '../../test/fake-server';
import { renderApp, signedInAs } from '../../test/render';

const texts = UI_TEXTS.profile;
const path = API_PATHS.updateCurrentUser;

async function openProfile(user = 'meera') {
  signedInAs(user);
  renderApp('/home/user');
  await screen.findByRole('heading', { name: PAGE_TITLES.user });
  return userEvent.setup();
}

const oldPassword = () => screen.getByLabelText(texts.oldPassword);
const newPassword = () => screen.getByLabelText(texts.newPassword);
const updateButton = () => screen.getByRole('button', { name: texts.submit });
const cancelButton = () => screen.getByRole('button', { name: texts.reset });
const alerts = async () =>
  (await screen.findAllByRole('alert')).map((alert) => alert.textContent ?? '');

describe('My Profile', () => {
  it('shows the signed-in username read-only, with the spec limits', async () => {
    fakeServer();
    await openProfile('meera');

    const username = screen.getByLabelText(texts.username);
    expect(username).toHaveValue('meera');
    expect(username).toHaveAttribute('readonly');
    expect(username).toHaveAttribute('maxlength', String(LIMITS.usernameMaxLength));
    expect(oldPassword()).toHaveAttribute('type', 'password');
    expect(oldPassword()).toHaveAttribute('maxlength', String(LIMITS.passwordMaxLength));
    expect(newPassword()).toHaveAttribute('maxlength', String(LIMITS.passwordMaxLength));
  });

  it('warns about both missing passwords at once, and sends nothing', async () => {
    const server = fakeServer();
    const user = await openProfile();
    await user.click(updateButton());

    await waitFor(async () =>
      expect(await alerts()).toEqual([MESSAGES.provideNewPassword, MESSAGES.provideOldPassword]),
    );
    for (const alert of screen.getAllByRole('alert')) {
      expect(alert).toHaveClass('MuiAlert-colorWarning');
    }
    expect(server.sent('POST', path)).toHaveLength(0);
  });

  it('warns only about the missing old password when the new one is given', async () => {
    const server = fakeServer();
    const user = await openProfile();
    await user.type(newPassword(), 'Fresh@2024');
    await user.click(updateButton());

    expect(await screen.findByText(MESSAGES.provideOldPassword)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.provideNewPassword)).not.toBeInTheDocument();
    expect(server.sent('POST', path)).toHaveLength(0);
  });

  it('on success: stores the fresh token, resets the form and shows the server message', async () => {
    const server = fakeServer().on('POST', path, {
      status: 200,
      body: { success: true, message: 'Password updated successfully.', accessToken: 'token-2' },
    });
    const user = await openProfile('meera');
    await user.type(oldPassword(), 'Old@2023');
    await user.type(newPassword(), 'Fresh@2024');
    await user.click(updateButton());

    const success = await screen.findByText('Password updated successfully.');
    expect(success.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorSuccess');
    const [request] = server.sent('POST', path);
    expect(request?.body).toEqual({
      username: 'meera',
      oldpassword: 'Old@2023',
      newpassword: 'Fresh@2024',
    });
    expect(request?.headers.Authorization).toBe('Bearer token-1');
    expect(request?.headers[IDEMPOTENCY_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBe('token-2');
    expect(oldPassword()).toHaveValue('');
    expect(newPassword()).toHaveValue('');
    expect(screen.getByLabelText(texts.username)).toHaveValue('meera');
  });

  it('shows a refusal (4xx) inline under the old password; editing clears it', async () => {
    fakeServer().on('POST', path, {
      status: 400,
      body: { success: false, message: 'Old password is incorrect.' },
    });
    const user = await openProfile();
    await user.type(oldPassword(), 'Wrong@2023');
    await user.type(newPassword(), 'Fresh@2024');
    await user.click(updateButton());

    await waitFor(() =>
      expect(oldPassword()).toHaveAccessibleDescription('Old password is incorrect.'),
    );
    const control = oldPassword().closest('.MuiFormControl-root') as HTMLElement;
    expect(within(control).getByText('Old password is incorrect.')).toHaveClass(
      'MuiFormHelperText-root',
    );
    expect(oldPassword()).toHaveAttribute('aria-invalid', 'true');
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBe('token-1');

    await user.type(newPassword(), '!');
    expect(screen.queryByText('Old password is incorrect.')).not.toBeInTheDocument();
  });

  it('shows the warning "Error in updating user." when the server fails (5xx)', async () => {
    fakeServer().on('POST', path, { status: 500, body: { success: false, message: 'boom' } });
    const user = await openProfile();
    await user.type(oldPassword(), 'Old@2023');
    await user.type(newPassword(), 'Fresh@2024');
    await user.click(updateButton());

    const warning = await screen.findByText(MESSAGES.updateUserFailed);
    expect(warning.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorWarning');
    expect(oldPassword()).not.toHaveAccessibleDescription();
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
  });

  it('disables both buttons while the update is in flight', async () => {
    const pending = deferred();
    fakeServer().on('POST', path, pending.handler);
    const user = await openProfile();
    await user.type(oldPassword(), 'Old@2023');
    await user.type(newPassword(), 'Fresh@2024');
    await user.click(updateButton());

    await waitFor(() => expect(updateButton()).toBeDisabled());
    expect(cancelButton()).toBeDisabled();

    pending.release({ status: 200, body: { success: true, message: 'Done.', accessToken: 't' } });
    await screen.findByText('Done.');
    expect(updateButton()).toBeEnabled();
    expect(cancelButton()).toBeEnabled();
  });

  it('Cancel empties both password fields', async () => {
    fakeServer();
    const user = await openProfile();
    await user.type(oldPassword(), 'Old@2023');
    await user.type(newPassword(), 'Fresh@2024');
    await user.click(cancelButton());

    expect(oldPassword()).toHaveValue('');
    expect(newPassword()).toHaveValue('');
  });

  it('an expired session (401) returns to the login screen and clears storage', async () => {
    fakeServer().on('POST', path, {
      status: 401,
      body: { success: false, message: MESSAGES.sessionExpired },
    });
    const user = await openProfile();
    await user.type(oldPassword(), 'Old@2023');
    await user.type(newPassword(), 'Fresh@2024');
    await user.click(updateButton());

    expect(await screen.findByText(MESSAGES.sessionExpired)).toBeInTheDocument();
    expect(screen.getByTestId('current-path')).toHaveTextContent(/^\/$/);
    expect(screen.getByLabelText(UI_TEXTS.login.password)).toBeInTheDocument();
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });
});
