import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremiumOutlined';
import { TIER_STANDING_TEXTS, formatRupees, type TierStanding } from '@kanak/contract';

const texts = TIER_STANDING_TEXTS;

/**
 * A customer's tier, their spend of the last 12 months and what the next tier takes, as a
 * look-up answers them. Nothing while no tiers are set: the answer then leaves them out.
 */
export function CustomerTier({ standing }: { standing: Partial<TierStanding> | undefined }) {
  if (standing?.spend12m === undefined) return null;
  const { tier, tierName, nextTier, toNextTier } = standing;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
      <Chip
        size="small"
        icon={<WorkspacePremiumIcon />}
        color={tier ? 'secondary' : 'default'}
        variant={tier ? 'filled' : 'outlined'}
        label={tier ? (tierName ?? tier) : texts.noTier}
      />
      <Typography component="span" variant="body2">
        {texts.spend12m(formatRupees(standing.spend12m))}
      </Typography>
      {nextTier && typeof toNextTier === 'number' && (
        <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
          ·{' '}
          {toNextTier > 0
            ? texts.toNext(formatRupees(toNextTier), nextTier)
            : texts.nextSaleReaches(nextTier)}
        </Typography>
      )}
    </Box>
  );
}
