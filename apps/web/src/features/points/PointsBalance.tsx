import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { LEDGER_TEXTS } from '@kanak/contract';
import { PointsWorth } from '../../components/PointsWorth';
import { balanceQuery } from './api';
import { formatPoints } from './pointsEntry';

const texts = LEDGER_TEXTS.loyaltyPoints;

/** The chosen customer's balance now, its worth and what expires soon (before a deduction). */
export function PointsBalance({ mobileno }: { mobileno: string }) {
  const balance = useQuery({ ...balanceQuery(mobileno) });
  return (
    <Box
      role="status"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 1,
        borderRadius: 2,
        bgcolor: 'rgba(201, 162, 39, 0.12)',
        border: 1,
        borderColor: 'secondary.light',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {texts.balance}:
      </Typography>
      {balance.isSuccess ? (
        <>
          <Typography component="span" sx={{ fontWeight: 700 }}>
            {texts.balanceValue(formatPoints(balance.data.points))}
          </Typography>
          <PointsWorth summary={balance.data} />
        </>
      ) : balance.isFetching ? (
        <CircularProgress size={16} aria-label={texts.balanceLoading} />
      ) : (
        <Typography component="span">—</Typography>
      )}
    </Box>
  );
}
