import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { LEDGER_TEXTS, MESSAGES, type StatementRow } from '@kanak/contract';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useUpdateStatement, type PointsFormValues } from './api';
import { PointsForm } from './PointsForm';

const texts = LEDGER_TEXTS.statement;

/** The row's values, with POINTS = credit + debit. */
const fromRow = (row: StatementRow): PointsFormValues => ({
  CUSTNAME: row.CUSTNAME,
  MOBILENO: row.MOBILENO,
  POINTS: String(row.RCREDIT + row.RDEBIT),
  NARRATION: row.NARRATION,
  INVDATE: row.INVDATE ?? '',
  CASHCR: row.CASHCR,
});

interface StatementEditDialogProps {
  row: StatementRow;
  today: string;
  onClose: () => void;
}

/** "Modify statement": the balance screen's form, pre-filled from a manual (TS 'M') row. */
export function StatementEditDialog({ row, today, onClose }: StatementEditDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const [initialValues] = useState(() => fromRow(row));
  const update = useUpdateStatement();
  const busy = update.isPending;

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      aria-labelledby="modify-statement-title"
    >
      <DialogTitle id="modify-statement-title">{texts.dialog}</DialogTitle>
      <DialogContent>
        <Box sx={{ pt: 1 }}>
          <PointsForm
            searchLabel={texts.dialogSearch}
            initialValues={initialValues}
            today={today}
            change={update}
            labelledBy="modify-statement-title"
            onSubmit={(entry) =>
              update.submit(
                { ...entry, MRN: row.MRN },
                {
                  onSuccess: () => {
                    showAlert('success', MESSAGES.statementUpdated);
                    onClose();
                  },
                  onError: (error) => reportFailure(error, MESSAGES.statementUpdateFailed),
                },
              )
            }
            secondaryAction={
              <Button type="button" variant="outlined" onClick={onClose} disabled={busy}>
                {texts.cancel}
              </Button>
            }
          />
        </Box>
      </DialogContent>
    </Dialog>
  );
}
