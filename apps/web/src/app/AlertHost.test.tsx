import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@kanak/contract';
import { AppProviders } from './AppProviders';
import { showAlert } from '../lib/app-state';

describe('alert host', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows alerts bottom-left with their severity and hides each after 3 seconds', async () => {
    render(<AppProviders>{null}</AppProviders>);
    act(() => showAlert('error', 'Error in saving'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error in saving');
    expect(alert).toHaveClass('MuiAlert-colorError');
    const stack = alert.closest('.kanak-alerts > div');
    expect(stack).toHaveStyle({ position: 'fixed' });

    vi.useFakeTimers();
    act(() => showAlert('info', 'Second'));
    act(() => vi.advanceTimersByTime(LIMITS.alertAutoHideMs - 100));
    expect(screen.getByText('Second')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Second')).not.toBeInTheDocument();
  });
});

describe('alert host beside an open dialog', () => {
  it('stays audible when a modal dialog hides the rest of the page', async () => {
    const { default: Dialog } = await import('@mui/material/Dialog');
    render(
      <AppProviders>
        <Dialog open aria-label="Enter PAN">
          <p>dialog</p>
        </Dialog>
      </AppProviders>,
    );
    act(() => showAlert('error', 'Error in updating PAN.'));
    // Hidden elements have no role for Testing Library, as for screen readers.
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error in updating PAN.');
    expect(alert.closest('[aria-hidden="true"]')).toBeNull();
  });
});
