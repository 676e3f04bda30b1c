import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { API_PATHS, LEDGER_TEXTS, LIMITS } from '@kanak/contract';
import { fakeServer } from '../test/fake-server';
import { CustomerSearch, type CustomerOption } from './CustomerSearch';

const search = API_PATHS.searchCustomers;
const PRIYA = { CUSTNAME: 'Priya Sharma', MOBILENO: '9876543210' };
const PRAKASH = { CUSTNAME: 'Prakash Iyer', MOBILENO: '9876500000' };

function Harness({
  onSelect,
  pause = 300,
}: {
  onSelect: (customer: CustomerOption | null) => void;
  pause?: number;
}) {
  const [value, setValue] = useState<CustomerOption | null>(null);
  return (
    <CustomerSearch
      value={value}
      onSelect={(customer) => {
        setValue(customer);
        onSelect(customer);
      }}
      label="Find customer"
      pause={pause}
      autoFocus
    />
  );
}

function renderSearch(pause?: number) {
  const onSelect = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Harness onSelect={onSelect} pause={pause} />
    </QueryClientProvider>,
  );
  return { onSelect, user: userEvent.setup(), input: screen.getByRole('combobox') };
}

const searchesSent = (server: ReturnType<typeof fakeServer>) =>
  server.sent('GET', search).map((request) => request.params?.search);

describe('CustomerSearch', { timeout: 30_000 }, () => {
  it('lists matches as "Name (+91) mobile", the list at most 40vh tall', async () => {
    const server = fakeServer().on('GET', search, {
      status: 200,
      body: { success: true, data: [PRIYA, PRAKASH] },
    });
    const { user, input } = renderSearch(300);
    expect(input).toHaveFocus();
    expect(screen.getByLabelText('Find customer')).toBe(input);

    await user.click(input);
    await user.paste('98765');

    expect(
      await screen.findByRole('option', { name: 'Priya Sharma (+91) 9876543210' }),
    ).toBeVisible();
    expect(screen.getByRole('option', { name: 'Prakash Iyer (+91) 9876500000' })).toBeVisible();
    expect(screen.getByRole('listbox')).toHaveStyle({ maxHeight: LIMITS.autocompleteMaxHeight });
    expect(searchesSent(server)).toEqual(['98765']);
  });

  it('sends the text only after typing pauses, and never an empty or blank text', async () => {
    const server = fakeServer().on('GET', search, {
      status: 200,
      body: { success: true, data: [PRIYA] },
    });
    // Long enough that even a slow, busy machine types the word within it.
    const { user, input } = renderSearch(1500);

    await user.type(input, '   ');
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(server.sent('GET', search)).toHaveLength(0);

    await user.clear(input);
    await user.type(input, 'Priya');
    await screen.findByRole(
      'option',
      { name: LEDGER_TEXTS.customerSearch.optionLabel(PRIYA) },
      { timeout: 8000 },
    );
    // One search for the whole word, not one per keystroke.
    expect(searchesSent(server)).toEqual(['Priya']);
  });

  it('chooses with the keyboard (arrow keys and Enter) and shows the choice', async () => {
    fakeServer().on('GET', search, {
      status: 200,
      body: { success: true, data: [PRIYA, PRAKASH] },
    });
    const { user, input, onSelect } = renderSearch();

    await user.type(input, '98765');
    await screen.findByRole('option', { name: LEDGER_TEXTS.customerSearch.optionLabel(PRAKASH) });
    await user.keyboard('{ArrowDown}{Enter}');

    expect(onSelect).toHaveBeenLastCalledWith(PRAKASH);
    expect(input).toHaveValue('Prakash Iyer (+91) 9876500000');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('clearing the box empties the options and the choice', async () => {
    const server = fakeServer().on('GET', search, {
      status: 200,
      body: { success: true, data: [PRIYA] },
    });
    const { user, input, onSelect } = renderSearch();

    await user.type(input, 'Pri');
    await user.click(await screen.findByRole('option', { name: /Priya Sharma/ }));
    expect(onSelect).toHaveBeenLastCalledWith(PRIYA);

    await user.clear(input);
    expect(onSelect).toHaveBeenLastCalledWith(null);
    expect(input).toHaveValue('');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(searchesSent(server)).toEqual(['Pri']);
  });

  it('says so when nothing matches, and a failed search shows nothing (logged only)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let reply: 'empty' | 'fail' = 'empty';
    fakeServer().on('GET', search, () =>
      reply === 'empty'
        ? { status: 200, body: { success: true, data: [] } }
        : {
            status: 400,
            body: { success: false, message: 'Search must be at most 100 characters.' },
          },
    );
    const { user, input } = renderSearch();

    await user.type(input, 'Zz');
    expect(await screen.findByText(LEDGER_TEXTS.customerSearch.noOptions)).toBeVisible();

    reply = 'fail';
    await user.type(input, 'q');
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(screen.queryByText('Search must be at most 100 characters.')).not.toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });
});
