import {
  COLLECTION_MODE_LABELS,
  DASHBOARD_TEXTS,
  INSTALLMENT_MODES,
  formatGrams,
  formatRupees,
  type CollectionsFigure,
  type DashboardData,
} from '@kanak/contract';
import { PATHS } from '../../lib/paths';
import type { Figure } from './FigureCard';

const texts = DASHBOARD_TEXTS;
const grouped = (value: number) => value.toLocaleString('en-IN');

/** The rupees of each mode that took some: "UPI ₹1,25,000 · Cash ₹5,000". */
const byMode = (figure: CollectionsFigure) =>
  INSTALLMENT_MODES.filter((mode) => figure.byMode[mode] > 0)
    .map((mode) => `${COLLECTION_MODE_LABELS[mode]} ${formatRupees(figure.byMode[mode])}`)
    .join(' · ');

/** The figures, each with the report behind it on the same branch. */
export function figures(data: DashboardData, today: string, branch: string): Figure[] {
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
