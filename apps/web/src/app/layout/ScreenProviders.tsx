import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import 'dayjs/locale/en-gb';
import { queryClient } from '../../lib/query-client';

/** What the screens under /home need: server state and date pickers in DD/MM/YYYY (en-gb). */
export function ScreenProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="en-gb">
        {children}
      </LocalizationProvider>
    </QueryClientProvider>
  );
}
