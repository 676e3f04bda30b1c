import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import {
  COLLECTION_MODE_LABELS,
  DASHBOARD_TEXTS,
  PAGE_TITLES,
  INSTALLMENT_MODES,
  formatGrams,
  formatRupees,
  type CollectionsFigure,
  type DashboardData,
} from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/SelectField';
import { useStoreToday } from '../../components/useStoreToday';
import { useBranchList } from '../../lib/branches';
import { reportFailure } from '../../lib/failure';
import { useMayCall, useMe } from '../../lib/me';
import { PATHS, SCREENS } from '../../lib/paths';
import { dashboardQuery } from './api';
import { DashboardCharts } from './DashboardCharts';
import { GoldRateCard } from './GoldRateCard';
import { BackupWarning } from './BackupWarning';
import { OnlineRefunds } from './OnlineRefunds';

const texts = DASHBOARD_TEXTS;
const grouped = (value: number) => value.toLocaleString('en-IN');

/** The rupees of each mode that took some: "UPI ₹1,25,000 · Cash ₹5,000". */
const byMode = (figure: CollectionsFigure) =>
  INSTALLMENT_MODES.filter((mode) => figure.byMode[mode] > 0)
    .map((mode) => `${COLLECTION_MODE_LABELS[mode]} ${formatRupees(figure.byMode[mode])}`)
    .join(' · ');

/** A report's screen, opened on the filter of the figure that links to it. */
function reportLink(path: string, filter: Record<string, string>) {
  const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ''));
  return query.size > 0 ? `${path}?${query}` : path;
}

const screenTitle = (path: string) => {
  const key = SCREENS.find((screen) => screen.path === path)?.key;
  return key ? PAGE_TITLES[key] : '';
};

interface Figure {
  key: string;
  /** When: Today, This month. */
  overline?: string;
  title: string;
  value: string;
  details: string[];
  /** The report behind the figure, and the filter that shows this figure's rows. */
  report?: { path: string; filter: Record<string, string> };
}

function FigureCard({ figure }: { figure: Figure }) {
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

/** The figures, each with the report behind it on the same branch. */
function figures(data: DashboardData, today: string, branch: string): Figure[] {
  const { collections } = data.month;
  return [
    {
      key: 'collections-today',
      overline: texts.today,
      title: texts.collections,
      value: formatRupees(data.today.collections.amount),
      details: [
        texts.installments(grouped(data.today.collections.installments)),
        byMode(data.today.collections),
      ],
      report: { path: PATHS.collectionsReport, filter: { from: today, to: today, branch } },
    },
    {
      key: 'collections-month',
      overline: texts.thisMonth,
      title: texts.collections,
      value: formatRupees(collections.amount),
      details: [
        texts.lastMonth(formatRupees(data.month.collectionsLastMonth.amount)),
        texts.installments(grouped(collections.installments)),
        byMode(collections),
      ],
      report: {
        path: PATHS.collectionsReport,
        filter: {
          from: `${today.slice(0, 8)}01`,
          to: today,
          branch,
        },
      },
    },
    {
      key: 'points-issued',
      overline: texts.thisMonth,
      title: texts.pointsIssued,
      value: grouped(data.month.pointsIssued),
      details: [
        texts.lastMonth(grouped(data.month.pointsIssuedLastMonth)),
        texts.todayFigure(grouped(data.today.pointsIssued)),
      ],
      report: { path: PATHS.pointsLiabilityReport, filter: { branch } },
    },
    {
      key: 'points-outstanding',
      title: texts.pointsOutstanding,
      value: grouped(data.points.outstanding),
      details: [texts.pointsWorth(formatRupees(data.points.value))],
      report: { path: PATHS.pointsLiabilityReport, filter: { branch } },
    },
    {
      key: 'active-schemes',
      title: texts.activeSchemes,
      value: grouped(data.schemes.active),
      details: [texts.monthlyCommitment(formatRupees(data.schemes.monthlyCommitment))],
    },
    {
      key: 'maturing',
      title: texts.maturing,
      value: grouped(data.schemes.maturingIn30Days),
      details: [],
      report: { path: PATHS.maturingReport, filter: { branch } },
    },
    {
      key: 'overdue',
      title: texts.overdue,
      value: grouped(data.schemes.overdueCount),
      details: [texts.overdueAmount(formatRupees(data.schemes.overdueAmount))],
      report: { path: PATHS.overdueReport, filter: { branch } },
    },
    ...goldHeld(data),
    ...tiers(data),
  ];
}

/** The gold the shop owes its weight schemes' customers, by plan; none while there are none. */
function goldHeld(data: DashboardData): Figure[] {
  const plans = data.schemes.goldHeld ?? [];
  if (plans.length === 0) return [];
  const total = plans.reduce((sum, plan) => sum + plan.mg, 0);
  return [
    {
      key: 'gold-held',
      title: texts.goldHeld,
      value: `${formatGrams(total)} g`,
      details: plans.map((plan) => texts.goldOfPlan(plan.name, formatGrams(plan.mg))),
    },
  ];
}

/** How many customers each tier holds; none while no tiers are set. */
function tiers(data: DashboardData): Figure[] {
  if (!data.tiers) return [];
  const inATier = data.tiers.reduce((sum, tier) => sum + tier.customers, 0);
  return [
    {
      key: 'tiers',
      title: texts.tiers,
      value: grouped(inATier),
      details: data.tiers.map((tier) => texts.tierCustomers(tier.name, grouped(tier.customers))),
    },
  ];
}

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
  const branches = useBranchList(mayPickBranch);
  const [branch, setBranch] = useState('');
  const dashboard = useQuery(dashboardQuery(branch));

  useEffect(() => {
    if (dashboard.error) reportFailure(dashboard.error, texts.loadFailed);
  }, [dashboard.error, dashboard.errorUpdatedAt]);

  return (
    <>
      {mayPickBranch ? (
        <Box sx={{ maxWidth: 360, mb: 3 }}>
          <SelectField
            label={texts.branch}
            name="branch"
            value={branch}
            options={[
              { value: '', label: texts.wholeChain },
              ...(branches.data ?? []).map((choice) => ({
                value: choice.code,
                label: `${choice.code} · ${choice.name}`,
              })),
            ]}
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
