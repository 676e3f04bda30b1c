import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { UI_TEXTS } from '@kanak/contract';
import { screenLoading } from '../lib/early-typing';
import { retryFailedScreens } from './lazyPage';

/**
 * A screen that could not load (its code chunk after a redeploy, or no connection). "Try
 * again" loads it anew without leaving the page, so the rest of the app keeps its state.
 */
export function RouteError({ onRetry }: { onRetry?: () => void }) {
  return (
    <Box role="alert" sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh', p: 3 }}>
      <Box sx={{ textAlign: 'center', maxWidth: 480 }}>
        <Typography sx={{ mb: 2 }}>{UI_TEXTS.routeError.text}</Typography>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
          {onRetry && (
            <Button
              variant="contained"
              onClick={() => {
                retryFailedScreens();
                onRetry();
              }}
            >
              {UI_TEXTS.routeError.retry}
            </Button>
          )}
          <Button
            variant={onRetry ? 'outlined' : 'contained'}
            onClick={() => window.location.reload()}
          >
            {UI_TEXTS.routeError.reload}
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}

/** While a screen's code loads: a bar, so a slow connection does not look like a blank page. */
export function RouteLoading() {
  // What is typed while the screen loads is its first field's.
  useEffect(() => screenLoading(), []);
  return (
    <Box sx={{ py: 3 }}>
      <LinearProgress color="secondary" aria-label={UI_TEXTS.routeLoading} />
    </Box>
  );
}
