import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GOLD_RATE_TEXTS, PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { useMayCall } from '../../lib/me';
import { EnterRate } from './EnterRate';
import { RateHistory } from './RateHistory';

const texts = GOLD_RATE_TEXTS;

/**
 * Gold rate (/home/gold-rate): a manager or the owner enters the day's 22K and 24K rate, or
 * corrects a date's rate after confirming; everyone sees the rates by date.
 */
export function GoldRatePage() {
  const mayEnter = useMayCall('saveGoldRate');
  return (
    <>
      <PageHeader title={PAGE_TITLES.goldRate} />
      <Stack spacing={3} sx={{ maxWidth: 900 }}>
        {mayEnter ? (
          <EnterRate />
        ) : (
          <Typography color="text.secondary">{texts.readOnly}</Typography>
        )}
        <RateHistory />
      </Stack>
    </>
  );
}
