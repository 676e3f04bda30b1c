import Typography from '@mui/material/Typography';
import { formatRupees, POINTS_SUMMARY_TEXTS } from '@kanak/contract';

const texts = POINTS_SUMMARY_TEXTS;

/** What a balance is worth in rupees, and how many of its points expire within 30 days. */
export function PointsWorth({
  summary,
}: {
  summary: { pointsValue?: number; pointsExpiringIn30Days?: number };
}) {
  const { pointsValue, pointsExpiringIn30Days } = summary;
  if (pointsValue === undefined || pointsExpiringIn30Days === undefined) return null;
  return (
    <Typography component="span" variant="body2">
      · {texts.worth(formatRupees(pointsValue))} ·{' '}
      {pointsExpiringIn30Days > 0 ? (
        <Typography
          component="span"
          variant="body2"
          sx={{ fontWeight: 700, color: 'warning.dark' }}
        >
          {texts.expiring(pointsExpiringIn30Days.toLocaleString('en-IN'))}
        </Typography>
      ) : (
        texts.noneExpiring
      )}
    </Typography>
  );
}
