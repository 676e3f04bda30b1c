import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { COUNTER_HUB_TEXTS, formatSlashDate, type CounterCustomer } from '@kanak/contract';
import { PointsWorth } from '../../components/PointsWorth';

const texts = COUNTER_HUB_TEXTS;

/** The balance, its worth, and the points expiring within 30 days with the days they expire. */
export function PointsLine({ points }: { points: CounterCustomer['points'] }) {
  return (
    <Box sx={{ display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'baseline' }}>
        <Typography variant="body2" color="text.secondary">
          {texts.points}:
        </Typography>
        <Typography component="span" sx={{ fontWeight: 700 }}>
          {texts.balance(points.balance.toLocaleString('en-IN'))}
        </Typography>
        <PointsWorth
          summary={{ pointsValue: points.value, pointsExpiringIn30Days: points.expiringSoon }}
        />
      </Box>
      {points.expiring.length > 0 && (
        <Typography variant="body2">
          {texts.expiring}:{' '}
          {points.expiring
            .map((lot) =>
              texts.expiringOn(lot.points.toLocaleString('en-IN'), formatSlashDate(lot.expiresOn)),
            )
            .join(' · ')}
        </Typography>
      )}
    </Box>
  );
}
