import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  ACCOUNTING_TEXTS,
  TALLY_LEDGER_FIELDS,
  TALLY_LEDGERS,
  type AccountingSettingsData,
} from '@kanak/contract';

const texts = ACCOUNTING_TEXTS;

/** How to import the file in TallyPrime, and which group each ledger is created under. */
export function ImportHelp({ current }: { current: AccountingSettingsData }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="tally-help"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id="tally-help">
          {texts.helpHeading}
        </Typography>
        <Typography component="ol" variant="body2" sx={{ pl: 2.5, m: 0, '& li': { mb: 0.75 } }}>
          {texts.helpSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {texts.helpPush}
        </Typography>
        <Typography variant="subtitle2" component="h3" id="tally-groups">
          {texts.groupsHeading}
        </Typography>
        <Table size="small" aria-labelledby="tally-groups">
          <TableHead>
            <TableRow>
              <TableCell>{texts.ledgerColumn}</TableCell>
              <TableCell>{texts.nameColumn}</TableCell>
              <TableCell>{texts.groupColumn}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {TALLY_LEDGER_FIELDS.map((field) => (
              <TableRow key={field}>
                <TableCell>{TALLY_LEDGERS[field].label}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{current[field]}</TableCell>
                <TableCell>{TALLY_LEDGERS[field].group}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Stack>
    </Paper>
  );
}
