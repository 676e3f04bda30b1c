import { screen, render, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SIGN_IN_MESSAGES } from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey } from '../lib/api';
import { useChange } from '../lib/change';
import { deferred, fakeServer } from '../test/fake-server';
import { ChangeError, ChangeForm, FormField, useSchemaForm } from './ChangeForm';
import { SubmitButton } from './SubmitButton';

const path = '/test/names';
const FAILED = 'Could not save the name.';
const schema = z.object({
  name: z.string().trim().min(1, { error: 'Name is required.' }),
});
type Name = z.infer<typeof schema>;

async function saveName(values: Name, key: string) {
  const { data } = await api.post<{ success: boolean; message?: string }>(
    path,
    values,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/** A one-field form as a screen builds it: the schema, the change, the kit's parts. */
function NameForm() {
  const save = useChange(saveName, { failed: FAILED });
  const form = useSchemaForm(schema, { name: '' });
  return (
    <ChangeForm form={form} change={save} onSubmit={(values) => save.submit(values)}>
      <FormField<Name> name="name" label="Name" help="As on the card." />
      <ChangeError />
      <SubmitButton pendingLabel="Saving">Save</SubmitButton>
    </ChangeForm>
  );
}

function open() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <NameForm />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const name = () => screen.getByLabelText('Name');
const save = () => screen.getByRole('button', { name: /Save/ });

describe('ChangeForm', () => {
  it('disables its submit button with the spinner named while the change is on its way', async () => {
    const server = fakeServer();
    const answer = deferred();
    server.on('POST', path, answer.handler);
    const user = open();
    await user.type(name(), 'Lakshmi');
    await user.click(save());

    await waitFor(() => expect(save()).toBeDisabled());
    expect(within(save()).getByRole('progressbar', { name: 'Saving' })).toBeVisible();
    expect(server.sent('POST', path)[0]?.body).toEqual({ name: 'Lakshmi' });

    answer.release({ status: 200, body: { success: true } });
    await waitFor(() => expect(save()).toBeEnabled());
    expect(within(save()).queryByRole('progressbar')).toBeNull();
  });

  it('shows a refusal in the server’s words, until the next press', async () => {
    const server = fakeServer();
    server.on('POST', path, {
      status: 409,
      body: { success: false, message: 'That name is taken.' },
    });
    const user = open();
    await user.type(name(), 'Lakshmi');
    await user.click(save());

    expect(await screen.findByRole('alert')).toHaveTextContent('That name is taken.');

    const answer = deferred();
    server.on('POST', path, answer.handler);
    await user.click(save());
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    answer.release({ status: 200, body: { success: true } });
    await waitFor(() => expect(save()).toBeEnabled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.sent('POST', path)).toHaveLength(2);
  });

  it('says the change’s fixed text, and that the server could not be reached, when it could not', async () => {
    const server = fakeServer();
    server.on('POST', path, 'network-error');
    const user = open();
    await user.type(name(), 'Lakshmi');
    await user.click(save());

    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(
      `${FAILED} ${SIGN_IN_MESSAGES.serverUnreachable}`,
    );
  });

  it('shows the schema’s message under its field, and sends nothing', async () => {
    const server = fakeServer();
    const user = open();
    expect(name()).toHaveAccessibleDescription('As on the card.');
    await user.type(name(), '   ');
    await user.click(save());

    await waitFor(() => expect(name()).toHaveAccessibleDescription('Name is required.'));
    expect(name()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('As on the card.')).toBeNull();
    expect(server.sent('POST', path)).toHaveLength(0);
  });
});
