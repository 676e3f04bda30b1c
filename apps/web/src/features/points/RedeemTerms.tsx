import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { z } from 'zod';
import { LEDGER_TEXTS, formatRupees, type redeemTermsResponse } from '@kanak/contract';
import type { CustomerOption } from '../../components/CustomerSearch';
import { CustomerTier } from '../../components/CustomerTier';
import { formatPoints } from './pointsEntry';

const texts = LEDGER_TEXTS.redeem;
const optionLabel = LEDGER_TEXTS.customerSearch.optionLabel;

/** Where a customer stands before a redemption, as the look-up answers. */
export type Terms = z.infer<typeof redeemTermsResponse>['data'];

/** The chosen customer's balance, its worth, the rules' minimum and their tier. */
export function RedeemTerms({
  customer,
  terms,
}: {
  customer: CustomerOption;
  terms: UseQueryResult<Terms>;
}) {
  return (
    <Box
      role="status"
      aria-label={texts.balance}
      sx={{
        px: 2,
        py: 1,
        borderRadius: 2,
        bgcolor: 'rgba(201, 162, 39, 0.12)',
        border: 1,
        borderColor: 'secondary.light',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {optionLabel(customer)}
      </Typography>
      {terms.data ? (
        <>
          <Typography sx={{ fontWeight: 700 }}>
            {texts.balance}:{' '}
            {texts.balanceValue(formatPoints(terms.data.balance), formatRupees(terms.data.value))}
          </Typography>
          <Typography variant="body2">
            {texts.minimum(formatPoints(terms.data.minRedeemPoints))}
          </Typography>
          <CustomerTier standing={terms.data} />
        </>
      ) : terms.isError ? (
        <Typography color="error">{texts.termsFailed}</Typography>
      ) : (
        <CircularProgress size={16} aria-label={texts.termsLoading} />
      )}
    </Box>
  );
}
