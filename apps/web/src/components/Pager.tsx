import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';

interface PagerProps {
  page: number;
  pages: number;
  /** Where the list stands, e.g. "Page 2 of 3 · 120 changes" (announced as it changes). */
  status: string;
  /** A page is on its way: neither button may ask for another. */
  busy: boolean;
  onPage: (page: number) => void;
}

/** Under a paged list: where it stands (printed too), and the previous and next pages. */
export function Pager({ page, pages, status, busy, onPage }: PagerProps) {
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      sx={{ mt: 2, alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap' }}
    >
      <Typography role="status">{status}</Typography>
      <Button
        className="no-print"
        variant="outlined"
        disabled={page <= 1 || busy}
        onClick={() => onPage(page - 1)}
      >
        {UI_TEXTS.pager.previous}
      </Button>
      <Button
        className="no-print"
        variant="outlined"
        disabled={page >= pages || busy}
        onClick={() => onPage(page + 1)}
      >
        {UI_TEXTS.pager.next}
      </Button>
    </Stack>
  );
}
