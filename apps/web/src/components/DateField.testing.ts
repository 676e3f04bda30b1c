import { within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Test helper: the DateField labelled `label` (a group of day, month and year sections). */
export const dateField = (label: string, container: HTMLElement = document.body) =>
  within(container).getByRole('group', {
    // A required field's label ends in an asterisk.
    name: (name) => name.replace(/[\s\u2009]*\*$/, '') === label,
  });

/** What the field shows, as staff read it: 'DD/MM/YYYY', or '' when empty. */
export const dateShown = (label: string, container?: HTMLElement) =>
  dateField(label, container).querySelector('input')?.value ?? '';

/** Types a date as staff do, `DD/MM/YYYY`, over whatever the field held. */
export async function typeDate(
  user: UserEvent,
  label: string,
  ddmmyyyy: string,
  container?: HTMLElement,
): Promise<void> {
  const [day] = within(dateField(label, container)).getAllByRole('spinbutton');
  await user.click(day!);
  await user.keyboard('{Control>}a{/Control}{Backspace}');
  await user.keyboard(ddmmyyyy.replaceAll('/', ''));
}

/** `YYYY-MM-DD` as the field shows it. */
export const ddmmyyyy = (iso: string) => iso.split('-').reverse().join('/');
