import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';

/** A screen that could not load (e.g. its code chunk after a redeploy, or no connection). */
export function RouteError() {
  return (
    <Box role="alert" sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh', p: 3 }}>
      <Box sx={{ textAlign: 'center' }}>
        <Typography sx={{ mb: 2 }}>{UI_TEXTS.routeError.text}</Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {UI_TEXTS.routeError.reload}
        </Button>
      </Box>
    </Box>
  );
}
