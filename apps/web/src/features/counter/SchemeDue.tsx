import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  COUNTER_HUB_TEXTS,
  SCHEME_TEXTS,
  formatMonthName,
  formatRupees,
  formatSlashDate,
  type CounterScheme,
} from '@kanak/contract';
import { schemeStatementPath } from '../../components/SchemeLink';

const texts = COUNTER_HUB_TEXTS;

/** What the due installment's button says: its amount and month, and "in advance" when so. */
const takeLabel = (scheme: CounterScheme, due: NonNullable<CounterScheme['due']>) =>
  (due.advance ? texts.takeAdvance : texts.take)(
    formatRupees(scheme.amount),
    formatMonthName(due.month),
  );

/**
 * One running scheme: its plan and installment, how far it is paid, what is overdue, and the
 * button that takes what is due today (the server says which month). The button comes before
 * the statement's link, so Tab from the search reaches it first.
 */
export function SchemeDue({
  scheme,
  mayTake,
  onTake,
}: {
  scheme: CounterScheme;
  mayTake: boolean;
  onTake: () => void;
}) {
  const { due } = scheme;
  const facts = [
    texts.paid(scheme.paid, scheme.installments),
    ...(scheme.nextDue ? [texts.nextDue(formatSlashDate(scheme.nextDue))] : []),
  ];
  return (
    <Paper
      component="li"
      variant="outlined"
      sx={{
        p: 1.5,
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        alignItems: 'center',
        justifyContent: 'space-between',
        minWidth: 0,
      }}
    >
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {[
            texts.scheme(scheme.schemeid),
            scheme.plan ? scheme.plan.name : texts.standardPlan,
            texts.perMonth(formatRupees(scheme.amount)),
          ].join(' · ')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {facts.join(' · ')}
        </Typography>
        {scheme.overdue > 0 && (
          <Typography variant="body2" sx={{ fontWeight: 700, color: 'warning.dark' }}>
            {texts.overdue(scheme.overdue)}
          </Typography>
        )}
      </Box>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1.5,
          alignItems: 'center',
          flex: { xs: '1 1 100%', sm: '0 1 auto' },
        }}
      >
        {due && mayTake ? (
          <Button
            variant="contained"
            onClick={onTake}
            sx={{ flex: { xs: '1 1 auto', sm: 'none' } }}
          >
            {takeLabel(scheme, due)}
          </Button>
        ) : (
          <Typography variant="body2">{texts.nothingDue}</Typography>
        )}
        <Link
          component={RouterLink}
          to={schemeStatementPath(scheme.schemeid)}
          aria-label={SCHEME_TEXTS.statement.open(scheme.schemeid)}
        >
          {texts.statement}
        </Link>
      </Box>
    </Paper>
  );
}
