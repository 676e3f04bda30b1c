import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_TEXTS, PAGE_TITLES } from '@kanak/contract';
import { BranchFilter } from '../../components/FilterPanel';
import { PageHeader } from '../../components/PageHeader';
import { useStoreToday } from '../../components/useStoreToday';
import { reportFailure } from '../../lib/failure';
import { useMayCall, useMe } from '../../lib/me';
import { PATHS } from '../../lib/paths';
import { dashboardQuery } from './api';
import { DashboardCharts } from './DashboardCharts';
import { figures } from './dashboardFigures';
import { FigureCard } from './FigureCard';
import { GoldRateCard } from './GoldRateCard';
import { BackupWarning } from './BackupWarning';
import { OnlineRefunds } from './OnlineRefunds';

const texts = DASHBOARD_TEXTS;

const cardsGridSx = {
  display: 'grid',
  gap: 2,
  mb: 3,
  gridTemplateColumns: {
    xs: 'minmax(0, 1fr)',
    sm: 'repeat(2, minmax(0, 1fr))',
    lg: 'repeat(4, minmax(0, 1fr))',
  },
} as const;

/** The owner's and managers' figures: the chain or one branch (a manager's is their own). */
function OwnersView() {
  const today = useStoreToday();
  const mayPickBranch = useMayCall('branches');
  const { data: me } = useMe();
  const [branch, setBranch] = useState('');
  const dashboard = useQuery(dashboardQuery(branch));

  useEffect(() => {
    if (dashboard.error) reportFailure(dashboard.error, texts.loadFailed);
  }, [dashboard.error, dashboard.errorUpdatedAt]);

  return (
    <>
      {mayPickBranch ? (
        <Box sx={{ maxWidth: 360, mb: 3 }}>
          <BranchFilter
            label={texts.branch}
            anyLabel={texts.wholeChain}
            value={branch}
            onChange={setBranch}
          />
        </Box>
      ) : (
        me?.branch && (
          <Typography sx={{ mb: 2 }} color="text.secondary">
            {`${texts.branch}: ${me.branch.code} · ${me.branch.name}`}
          </Typography>
        )
      )}
      <Box sx={{ height: 4, mb: 1 }}>
        {dashboard.isFetching && <LinearProgress color="secondary" aria-label={texts.loading} />}
      </Box>
      {dashboard.data ? (
        <>
          <Box component="section" aria-label={PAGE_TITLES.dashboard} sx={cardsGridSx}>
            <GoldRateCard />
            {figures(dashboard.data, today, branch).map((figure) => (
              <FigureCard key={figure.key} figure={figure} />
            ))}
          </Box>
          <DashboardCharts series={dashboard.data.series} />
          <OnlineRefunds />
        </>
      ) : (
        dashboard.isPending && (
          <Box sx={cardsGridSx} aria-hidden>
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} variant="rounded" height={150} />
            ))}
          </Box>
        )
      )}
    </>
  );
}

/**
 * Dashboard (/home): for the owner and managers, the day's and the month's figures, each
 * opening the report behind it, 12 months of points and collections, and the online payments
 * to refund. Cashiers see the heading only: the figures are not theirs.
 */
export function DashboardPage() {
  const mayView = useMayCall('dashboard');
  const { data: me } = useMe();
  // A cashier's day starts with a customer, at the counter home; the figures are not theirs.
  if (me && !mayView) return <Navigate to={PATHS.counter} replace />;
  return (
    <>
      <PageHeader title={PAGE_TITLES.dashboard} />
      <BackupWarning />
      {mayView && <OwnersView />}
    </>
  );
}
