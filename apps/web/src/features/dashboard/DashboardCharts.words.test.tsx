import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_TEXTS, type DashboardData } from '@kanak/contract';
import { DashboardCharts } from './DashboardCharts';

const months = [
  ...['12'].map((m) => `2025-${m}`),
  ...Array.from({ length: 11 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`),
];
const zeros = months.map(() => 0);
const series: DashboardData['series'] = {
  months,
  pointsIssued: months.map((_, i) => 100 * (i + 1)),
  pointsRedeemed: zeros,
  pointsExpired: zeros,
  // A new branch: no installments yet.
  collections: zeros,
};

describe('the dashboard charts', () => {
  it('say which year their months are in', () => {
    render(<DashboardCharts series={series} />);
    expect(screen.getAllByText('Dec 2025 – Nov 2026')).toHaveLength(2);
  });

  it('say a chart with nothing in it is empty, not a lone "0" on an axis', () => {
    render(<DashboardCharts series={series} />);
    const collections = screen.getByRole('figure', { name: DASHBOARD_TEXTS.chartCollections });
    expect(collections).toHaveTextContent(DASHBOARD_TEXTS.chartEmpty);
    expect(collections.querySelector('svg')).toBeNull();
    const points = screen.getByRole('figure', { name: DASHBOARD_TEXTS.chartPoints });
    expect(points).not.toHaveTextContent(DASHBOARD_TEXTS.chartEmpty);
  });
});
