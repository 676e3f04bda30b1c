import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AlertHost } from '../components/AlertHost';
import { queryClient as defaultClient } from '../lib/query-client';
import { theme } from './theme';

/** Printing (ledgers, later): only the screen's content, no navigation or alerts. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        '.no-print': { display: 'none !important' },
        body: { backgroundColor: '#fff' },
        main: { margin: '0 !important', padding: '0 !important', width: '100% !important' },
      },
    }}
  />
);

/**
 * Theme, baseline styles, server state and the alert host. The date pickers' localization
 * lives in the main layout, so the login page does not load it.
 */
export function AppProviders({
  children,
  client = defaultClient,
}: {
  children: ReactNode;
  client?: QueryClient;
}) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {printStyles}
      <QueryClientProvider client={client}>
        {children}
        <AlertHost />
      </QueryClientProvider>
    </ThemeProvider>
  );
}
