import { Link } from 'react-router';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { DASHBOARD_TEXTS, PAGE_TITLES } from '@kanak/contract';
import { SCREENS } from '../../lib/paths';

const texts = DASHBOARD_TEXTS;

/** A report's screen, opened on the filter of the figure that links to it. */
function reportLink(path: string, filter: Record<string, string>) {
  const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ''));
  return query.size > 0 ? `${path}?${query}` : path;
}

const screenTitle = (path: string) => {
  const key = SCREENS.find((screen) => screen.path === path)?.key;
  return key ? PAGE_TITLES[key] : '';
};

export interface Figure {
  key: string;
  /** When: Today, This month. */
  overline?: string;
  title: string;
  value: string;
  details: string[];
  /** The report behind the figure, and the filter that shows this figure's rows. */
  report?: { path: string; filter: Record<string, string> };
}

export function FigureCard({ figure }: { figure: Figure }) {
  const content = (
    <CardContent>
      {figure.overline && (
        <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.6 }}>
          {figure.overline}
        </Typography>
      )}
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {figure.title}
      </Typography>
      <Typography
        component="p"
        variant="h4"
        color="primary.dark"
        sx={{ my: 0.5, whiteSpace: 'nowrap' }}
      >
        {figure.value}
      </Typography>
      {figure.details
        .filter((line) => line !== '')
        .map((line) => (
          <Typography key={line} variant="body2" color="text.secondary">
            {line}
          </Typography>
        ))}
      {figure.report && (
        <Typography variant="body2" color="primary" sx={{ mt: 1, fontWeight: 600 }}>
          {texts.openReport(screenTitle(figure.report.path))}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      {figure.report ? (
        <CardActionArea
          component={Link}
          to={reportLink(figure.report.path, figure.report.filter)}
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
