import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  API_PATHS,
  MESSAGES,
  PAGE_TITLES,
  PASSWORD_CHANGE_TEXTS,
  STORAGE_KEYS,
  UI_TEXTS,
} from '@kanak/contract';
import { fakeServer, testOwner } from '../../test/fake-server';
import { renderApp, setScreenWidth, signedInAs } from '../../test/render';

const texts = PASSWORD_CHANGE_TEXTS;
const temporaryMe = {
  status: 200,
  body: { success: true, data: { ...testOwner, username: 'priya', mustChangePassword: true } },
};

async function fillIn(current: string, next: string, confirm = next) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(field(texts.currentPassword)), current);
  await user.type(screen.getByLabelText(field(texts.newPassword)), next);
  await user.type(screen.getByLabelText(field(texts.confirmPassword)), confirm);
  return user;
}
/** A required field's label ends in an asterisk. */
const field = (label: string) => new RegExp(`^${label}`);
const submit = () => screen.getByRole('button', { name: texts.submit });

// The first render loads the screen's lazy chunks, slow on a busy two-core machine.
describe('a temporary password', { timeout: 60_000 }, () => {
  it('after a login that says so, shows only "Change your password", then the app', async () => {
    setScreenWidth(1366);
    let changed = false;
    const server = fakeServer()
      .on('POST', API_PATHS.login, {
        status: 200,
        body: {
          success: true,
          accessToken: 'temp-token',
          username: 'priya',
          mustChangePassword: true,
        },
      })
      .on('GET', API_PATHS.me, () =>
        changed
          ? { status: 200, body: { success: true, data: { ...testOwner, username: 'priya' } } }
          : temporaryMe,
      )
      .on('POST', API_PATHS.updateCurrentUser, () => {
        changed = true;
        return {
          status: 200,
          body: { success: true, message: MESSAGES.passwordUpdated, accessToken: 'own-token' },
        };
      });
    renderApp('/');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(UI_TEXTS.login.username), 'priya');
    await user.type(screen.getByLabelText(UI_TEXTS.login.password), 'Temp#Pass12345');
    await user.click(screen.getByRole('button', { name: UI_TEXTS.login.submit }));

    expect(
      await screen.findByRole('heading', { name: texts.title }, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();

    // The two new passwords must agree before anything is sent.
    await fillIn('Temp#Pass12345', 'Priya@2026x', 'Priya@2026y');
    await user.click(submit());
    expect(await screen.findByText(texts.mismatch)).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.updateCurrentUser)).toHaveLength(0);

    await user.clear(screen.getByLabelText(field(texts.confirmPassword)));
    await user.type(screen.getByLabelText(field(texts.confirmPassword)), 'Priya@2026x');
    await user.click(submit());

    expect(await screen.findByRole('heading', { name: PAGE_TITLES.dashboard })).toBeInTheDocument();
    expect(screen.getByRole('navigation')).toBeInTheDocument();
    expect(server.sent('POST', API_PATHS.updateCurrentUser)[0]!.body).toEqual({
      username: 'priya',
      oldpassword: 'Temp#Pass12345',
      newpassword: 'Priya@2026x',
    });
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBe('own-token');
  });

  it("when /api/me says so after a reload, shows the server's refusal under its field", async () => {
    setScreenWidth(1366);
    fakeServer()
      .on('GET', API_PATHS.me, temporaryMe)
      .on('POST', API_PATHS.updateCurrentUser, {
        status: 400,
        body: { success: false, message: MESSAGES.passwordMustDiffer },
      });
    signedInAs('priya');
    renderApp('/home/loyalty-points');

    expect(
      await screen.findByRole('heading', { name: texts.title }, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    const user = await fillIn('Same@2026x', 'Same@2026x');
    await user.click(submit());
    const box = screen.getByLabelText(field(texts.newPassword)).closest('div')!.parentElement!;
    expect(await within(box).findByText(MESSAGES.passwordMustDiffer)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: texts.title })).toBeInTheDocument();
  });
});
