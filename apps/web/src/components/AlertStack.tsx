import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { LIMITS } from '@kanak/contract';
import { dismissAlert, useAlerts, type Alert as AlertItem } from '../lib/app-state';

/**
 * The transient alerts: bottom-left, each gone after 3 seconds. A fixed box where MUI's
 * Snackbar would sit, without its transition and click-away code: this part loads with the
 * login page.
 */
export function AlertStack() {
  const alerts = useAlerts();
  return (
    <Box
      className="no-print"
      sx={{
        position: 'fixed',
        zIndex: 'snackbar',
        left: { xs: 8, sm: 24 },
        right: { xs: 8, sm: 'auto' },
        bottom: { xs: 8, sm: 24 },
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      }}
    >
      {alerts.map((alert) => (
        <TransientAlert key={alert.id} alert={alert} />
      ))}
    </Box>
  );
}

function TransientAlert({ alert }: { alert: AlertItem }) {
  useEffect(() => {
    const timer = window.setTimeout(() => dismissAlert(alert.id), LIMITS.alertAutoHideMs);
    return () => window.clearTimeout(timer);
  }, [alert.id]);

  return (
    <Alert
      severity={alert.type}
      variant="filled"
      elevation={6}
      onClose={() => dismissAlert(alert.id)}
      sx={{ minWidth: { sm: 320 }, alignItems: 'center' }}
    >
      {alert.message}
    </Alert>
  );
}
