import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { LEDGER_TEXTS } from '@kanak/contract';
import type { CustomerOption } from './CustomerSearch';

/** Test helper: types `text` into the search box labelled `label` and picks `customer`. */
export async function pickCustomer(
  user: UserEvent,
  label: string,
  text: string,
  customer: CustomerOption,
): Promise<void> {
  const input = screen.getByRole('combobox', { name: label });
  await user.clear(input);
  await user.type(input, text);
  const option = await screen.findByRole(
    'option',
    { name: LEDGER_TEXTS.customerSearch.optionLabel(customer) },
    { timeout: 10_000 },
  );
  await user.click(option);
}
