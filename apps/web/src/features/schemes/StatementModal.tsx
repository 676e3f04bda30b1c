import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { SCHEME_TEXTS } from '@kanak/contract';
import { Link as RouterLink } from 'react-router';
import { statementQuery } from './api';
import { schemeStatementPath } from '../../components/SchemeLink';
import { SchemeFacts, StatementTable } from './StatementView';

const texts = SCHEME_TEXTS.summary;

/**
 * The summary's large statement modal: the scheme's statement and 'Go back'. A failure
 * is logged only and leaves the statement empty.
 */
export function StatementModal({ schemeid, onClose }: { schemeid: number; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const statement = useQuery(statementQuery(schemeid));

  useEffect(() => {
    if (statement.error) console.error('Summary statement failed', statement.error);
  }, [statement.error]);

  // Empty when the statement could not be had (a failed refetch keeps old data).
  const data = statement.isError ? undefined : statement.data;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle>{texts.statementTitle(schemeid)}</DialogTitle>
      <DialogContent dividers>
        {data && (
          <>
            <Typography sx={{ mb: 1.5, fontWeight: 600 }}>
              {SCHEME_TEXTS.statement.printCustomer(data.custname, data.mobileno)}
            </Typography>
            <SchemeFacts scheme={data.scheme} />
          </>
        )}
        <Box>
          <StatementTable rows={data?.rows ?? []} loading={statement.isFetching} bodyHeight={320} />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button component={RouterLink} to={schemeStatementPath(schemeid)} variant="outlined">
          {SCHEME_TEXTS.statement.openFull}
        </Button>
        <Button variant="contained" onClick={onClose} autoFocus>
          {texts.goBack}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
