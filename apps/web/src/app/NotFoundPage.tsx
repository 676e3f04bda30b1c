import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';
import { PAGE_TITLES, UI_TEXTS } from '@kanak/contract';
import { PageHeader } from '../components/PageHeader';
import { PATHS } from '../lib/paths';

/** An unknown /home/* address, shown inside the main layout. */
export function NotFoundPage() {
  return (
    <>
      <PageHeader title={PAGE_TITLES.notFound} />
      <Typography sx={{ mb: 2 }}>{UI_TEXTS.notFound.text}</Typography>
      <Button component={Link} to={PATHS.home} variant="contained">
        {UI_TEXTS.notFound.back}
      </Button>
    </>
  );
}
