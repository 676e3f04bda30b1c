import { useState } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { LEDGER_TEXTS, MESSAGES, PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { useStoreToday } from '../../components/useStoreToday';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useUpdatePoints } from './api';
import { PointsForm } from './PointsForm';
import { blankPointsForm, formatPoints } from './pointsEntry';
import coins from './coins.svg';

const texts = LEDGER_TEXTS.loyaltyPoints;
/** The entry typed here, and the key of a press whose outcome is unknown, outlive the screen. */
const DRAFT = 'loyaltyPoints';

/** Edit customer balance (/home/loyalty-points): add or deduct a customer's points. */
export function LoyaltyPointsPage() {
  const today = useStoreToday();
  const [initialValues] = useState(() => blankPointsForm(today));
  const update = useUpdatePoints(DRAFT);

  return (
    <>
      <PageHeader title={PAGE_TITLES.loyaltyPoints} />
      <Paper variant="outlined" sx={{ display: 'flex', overflow: 'hidden', maxWidth: 980 }}>
        <Box
          sx={{
            display: { xs: 'none', md: 'flex' },
            alignItems: 'center',
            justifyContent: 'center',
            flex: '0 0 36%',
            p: 3,
            background: 'linear-gradient(160deg, #fbf3e4 0%, #f1dfc0 100%)',
          }}
        >
          <Box component="img" src={coins} alt="" sx={{ width: '100%', maxWidth: 240 }} />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
          <Typography id="points-form-title" component="h2" variant="h5" sx={{ mb: 2.5 }}>
            {texts.form}
          </Typography>
          <PointsForm
            searchLabel={texts.search}
            initialValues={initialValues}
            today={today}
            change={update}
            showBalance
            autoFocus
            labelledBy="points-form-title"
            draftName={DRAFT}
            offerFollowUp
            onSubmit={(entry, clear) =>
              update.submit(entry, {
                onSuccess: (body) => {
                  const balance = body.data?.balance;
                  showAlert(
                    'success',
                    balance === undefined
                      ? MESSAGES.pointsUpdated
                      : `${MESSAGES.pointsUpdated} ${texts.newBalance(formatPoints(balance))}`,
                  );
                  clear();
                },
                onError: (error) => reportFailure(error, MESSAGES.pointsUpdateFailed),
              })
            }
          />
        </Box>
      </Paper>
    </>
  );
}
