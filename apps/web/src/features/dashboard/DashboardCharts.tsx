import { useId } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { BarChart } from '@mui/x-charts/BarChart';
import { DASHBOARD_TEXTS, formatRupees, type DashboardData } from '@kanak/contract';

const texts = DASHBOARD_TEXTS;

/** 'YYYY-MM' as staff say it: 'Nov' under a bar, 'Nov 2026' where the year matters. */
const monthName = (month: string, withYear: boolean) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-IN', {
    month: 'short',
    ...(withYear && { year: 'numeric' }),
    timeZone: 'UTC',
  });

/**
 * The month axis's height. The chart draws a tick label only where its measured line fits under
 * the tick (the axis's height less 9 px), else as empty text: 25 px left 16, and 12 px Noto
 * Sans (Debian's fonts for Indian scripts) measures 17 px tall, so every month vanished. 36 px
 * holds a line of over twice the font size, whatever font the computer draws it in.
 */
const MONTH_AXIS_HEIGHT = 36;

/** An axis's figures, short: 1.3L, 1.2Cr. */
const compact = (value: number) => value.toLocaleString('en-IN', { notation: 'compact' });
const grouped = (value: number | null) => (value ?? 0).toLocaleString('en-IN');
const rupees = (value: number | null) => formatRupees(value ?? 0);

interface Series {
  label: string;
  data: number[];
  color: string;
  format: (value: number | null) => string;
}

/**
 * One chart of the last 12 months: bars drawn in SVG, under a heading that names it. The chart
 * itself is a picture to a screen reader, so its figures, month by month, are its description.
 */
function MonthChart({
  title,
  months,
  series,
}: {
  title: string;
  months: readonly string[];
  series: Series[];
}) {
  const headingId = useId();
  const descId = useId();
  // A phone's chart is too narrow for twelve month names side by side: every other one, counted
  // back from this month so that it always shows. Wider, the chart leaves out any that would
  // overlap.
  const narrow = useMediaQuery(useTheme().breakpoints.down('sm'));
  const everyOther = (_month: string, index: number) => (months.length - 1 - index) % 2 === 0;
  const empty = series.every((s) => s.data.every((value) => !value));
  const description = months
    .map(
      (month, i) =>
        `${monthName(month, true)}: ${series.map((s) => `${s.label} ${s.format(s.data[i] ?? 0)}`).join(', ')}`,
    )
    .join('; ');
  return (
    <Paper
      component="figure"
      variant="outlined"
      aria-labelledby={headingId}
      aria-describedby={descId}
      sx={{ m: 0, p: { xs: 1.5, sm: 2 }, minWidth: 0 }}
    >
      <Typography id={headingId} component="h2" variant="h6">
        {title}
      </Typography>
      {/* The bars name only the month: the year is said once, for the whole chart. */}
      {months.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {texts.chartSpan(monthName(months[0]!, true), monthName(months.at(-1)!, true))}
        </Typography>
      )}
      <Box id={descId} sx={{ display: 'none' }}>
        {description}
      </Box>
      {empty ? (
        // No bars: an axis with a lone "0" would read as a figure.
        <Typography
          color="text.secondary"
          sx={{ height: 280, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        >
          {texts.chartEmpty}
        </Typography>
      ) : (
        <BarChart
          height={280}
          xAxis={[
            {
              scaleType: 'band',
              data: [...months],
              height: MONTH_AXIS_HEIGHT,
              tickLabelInterval: narrow ? everyOther : 'auto',
              valueFormatter: (month: string, context) =>
                monthName(month, context.location !== 'tick'),
            },
          ]}
          yAxis={[{ valueFormatter: compact, width: 48 }]}
          series={series.map((s) => ({
            label: s.label,
            data: s.data,
            color: s.color,
            valueFormatter: s.format,
          }))}
          margin={{ left: 4, right: 8 }}
        />
      )}
    </Paper>
  );
}

/** The dashboard's two charts: points issued, redeemed and expired; installments collected. */
export function DashboardCharts({ series }: { series: DashboardData['series'] }) {
  const { palette } = useTheme();
  return (
    <Box
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: '1fr 1fr' } }}
    >
      <MonthChart
        title={texts.chartPoints}
        months={series.months}
        series={[
          {
            label: texts.seriesIssued,
            data: series.pointsIssued,
            color: palette.primary.main,
            format: grouped,
          },
          {
            label: texts.seriesRedeemed,
            data: series.pointsRedeemed,
            color: palette.secondary.main,
            format: grouped,
          },
          {
            label: texts.seriesExpired,
            data: series.pointsExpired,
            color: palette.grey[600],
            format: grouped,
          },
        ]}
      />
      <MonthChart
        title={texts.chartCollections}
        months={series.months}
        series={[
          {
            label: texts.seriesCollections,
            data: series.collections,
            color: palette.primary.main,
            format: rupees,
          },
        ]}
      />
    </Box>
  );
}
