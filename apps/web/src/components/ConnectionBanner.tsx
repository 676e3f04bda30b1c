import { useEffect, useState, useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { CONNECTION_TEXTS } from '@kanak/contract';
import { connection } from '../lib/connection';

const texts = CONNECTION_TEXTS;
/** How long "Connected again." stays after the connection is back. */
const BACK_SHOWN_MS = 4_000;

/**
 * Above every signed-in screen: says when the server cannot be reached, and when it can again.
 * When it is back, the reads that failed meanwhile on the screens still open are made again;
 * changes are not (each is sent again only by its user, with its own Idempotency-Key).
 */
export function ConnectionBanner() {
  const state = useSyncExternalStore(connection.subscribe, () => connection.state);
  const queryClient = useQueryClient();
  const [back, setBack] = useState(false);

  useEffect(
    () =>
      connection.onBack(() => {
        setBack(true);
        void queryClient.refetchQueries({
          type: 'active',
          predicate: (query) => query.state.status === 'error',
        });
      }),
    [queryClient],
  );
  useEffect(() => {
    if (!back) return;
    const timer = setTimeout(() => setBack(false), BACK_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [back]);

  if (state === 'online') {
    return back ? (
      <Alert severity="success" role="status" className="no-print" sx={{ mb: 2 }}>
        {texts.back}
      </Alert>
    ) : null;
  }
  return (
    <Alert
      severity="warning"
      role="status"
      className="no-print"
      sx={{ mb: 2, position: 'sticky', top: { xs: 64, sm: 72 }, zIndex: 2 }}
      action={
        <Button color="inherit" size="small" onClick={() => void connection.checkNow()}>
          {texts.tryNow}
        </Button>
      }
    >
      {state === 'offline' ? texts.offline : texts.unreachable}
    </Alert>
  );
}
