import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import GlobalStyles from '@mui/material/GlobalStyles';
import { ThemeProvider } from '@mui/material/styles';
import { AlertHost } from '../components/AlertHost';
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
 * Theme, baseline and print styles, and the alert host. Server state (TanStack Query) and the
 * date pickers' localization wrap the screens under /home (layout/ScreenProviders), so the
 * login page does not load them.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {printStyles}
      {children}
      <AlertHost />
    </ThemeProvider>
  );
}
