import { Link } from 'react-router';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_TEXTS, GOLD_RATE_TEXTS, formatRupees } from '@kanak/contract';
import { todayGoldRateQuery } from '../../lib/gold-rate';
import { useMayCall } from '../../lib/me';
import { PATHS } from '../../lib/paths';

const texts = GOLD_RATE_TEXTS;

/**
 * The dashboard's card of today's gold rate; before anyone entered it, says so, and sends
 * those who may enter it to the Gold rate screen.
 */
export function GoldRateCard() {
  const rate = useQuery(todayGoldRateQuery);
  const mayEnter = useMayCall('saveGoldRate');
  const missing = rate.isSuccess && rate.data === null;

  let value = <Skeleton width="60%" />;
  let detail: string | null = null;
  if (rate.isError) value = <>{texts.cardLoadFailed}</>;
  else if (missing) value = <>{texts.notEntered}</>;
  else if (rate.data) {
    value = <>{formatRupees(rate.data.rate22k)}</>;
    detail = texts.card24k(formatRupees(rate.data.rate24k));
  }
  let linkText: string | null = null;
  if (missing) linkText = mayEnter ? texts.enterNow : null;
  else if (rate.data) linkText = texts.openScreen;

  const content = (
    <CardContent>
      <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.6 }}>
        {DASHBOARD_TEXTS.today}
      </Typography>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {texts.cardTitle}
      </Typography>
      <Typography
        component="p"
        variant={rate.data ? 'h4' : 'h6'}
        color={missing || rate.isError ? 'error.main' : 'primary.dark'}
        sx={{ my: 0.5 }}
      >
        {value}
      </Typography>
      {detail && (
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      )}
      {linkText && (
        <Typography variant="body2" color="primary" sx={{ mt: 1, fontWeight: 600 }}>
          {linkText}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      {linkText ? (
        <CardActionArea
          component={Link}
          to={PATHS.goldRate}
          sx={{ height: '100%', alignItems: 'flex-start' }}
        >
          {content}
        </CardActionArea>
      ) : (
        content
      )}
    </Card>
  );
}
