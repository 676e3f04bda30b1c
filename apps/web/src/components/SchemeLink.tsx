import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { SCHEME_TEXTS } from '@kanak/contract';
import { PATHS } from '../lib/paths';

/** Where a scheme is worked on: its statement, with Add installment, Close scheme and receipts. */
export const schemeStatementPath = (schemeid: number) =>
  `${PATHS.schemeStatement}?schemeid=${schemeid}`;

/** A scheme ID that opens that scheme's statement. */
export function SchemeLink({ schemeid }: { schemeid: number }) {
  return (
    <Link
      component={RouterLink}
      to={schemeStatementPath(schemeid)}
      aria-label={SCHEME_TEXTS.statement.open(schemeid)}
      title={SCHEME_TEXTS.statement.open(schemeid)}
      // A summary row opens its modal on click; the link goes to the full statement instead.
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
      // On paper the ID is read, not followed.
      sx={{ fontWeight: 600, '@media print': { color: 'inherit', textDecoration: 'none' } }}
    >
      {schemeid}
    </Link>
  );
}
