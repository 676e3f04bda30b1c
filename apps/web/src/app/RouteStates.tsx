import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';

/** Shown while the first screen's code loads. */
export function PageLoader() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100dvh' }}>
      <CircularProgress aria-label={UI_TEXTS.productName} />
    </Box>
  );
}

/** A screen that could not load (e.g. its code chunk after a redeploy, or no connection). */
export function RouteError() {
  return (
    <Box
      component="main"
      sx={{ display: 'grid', placeItems: 'center', minHeight: '100dvh', p: 3, textAlign: 'center' }}
    >
      <div>
        <Typography component="h1" variant="h5" gutterBottom>
          {UI_TEXTS.productName}
        </Typography>
        <Typography sx={{ mb: 2 }}>{UI_TEXTS.routeError.text}</Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {UI_TEXTS.routeError.reload}
        </Button>
      </div>
    </Box>
  );
}
