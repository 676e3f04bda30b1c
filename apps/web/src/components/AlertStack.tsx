import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import Box from '@mui/material/Box';
import { LIMITS } from '@kanak/contract';
import { dismissAlert, useAlerts, type Alert as AlertItem } from '../lib/app-state';

/** The transient alerts: bottom-left, each gone after 3 seconds. */
export function AlertStack() {
  const alerts = useAlerts();
  return (
    <Snackbar
      open={alerts.length > 0}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      className="no-print"
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {alerts.map((alert) => (
          <TransientAlert key={alert.id} alert={alert} />
        ))}
      </Box>
    </Snackbar>
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
