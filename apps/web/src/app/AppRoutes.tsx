import { Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { isSignedIn, setLoginRedirect, type LoginState } from '../lib/session';
import { PATHS, SCREENS, type ScreenKey } from '../lib/paths';
import { lazyPage } from './lazyPage';
import { RouteError, RouteLoading } from './RouteStates';

const LoginPage = lazyPage(
  () => import('../features/auth/LoginPage'),
  (m) => m.LoginPage,
);
const MainLayout = lazyPage(
  () => import('./layout/MainLayout'),
  (m) => m.MainLayout,
);
const NotFoundPage = lazyPage(
  () => import('./NotFoundPage'),
  (m) => m.NotFoundPage,
);

/** One chunk per screen; later issues fill the pages in. */
const screenPages: Record<ScreenKey, ComponentType> = {
  dashboard: lazyPage(
    () => import('../features/dashboard/DashboardPage'),
    (m) => m.DashboardPage,
  ),
  counter: lazyPage(
    () => import('../features/counter/CounterHomePage'),
    (m) => m.CounterHomePage,
  ),
  mobileApp: lazyPage(
    () => import('../features/content/MobileAppPage'),
    (m) => m.MobileAppPage,
  ),
  customerProfile: lazyPage(
    () => import('../features/customers/CustomerProfilePage'),
    (m) => m.CustomerProfilePage,
  ),
  loyaltyPoints: lazyPage(
    () => import('../features/points/LoyaltyPointsPage'),
    (m) => m.LoyaltyPointsPage,
  ),
  redeemPoints: lazyPage(
    () => import('../features/points/RedeemPointsPage'),
    (m) => m.RedeemPointsPage,
  ),
  schemeGeneration: lazyPage(
    () => import('../features/schemes/SchemeGenerationPage'),
    (m) => m.SchemeGenerationPage,
  ),
  goldRate: lazyPage(
    () => import('../features/gold-rates/GoldRatePage'),
    (m) => m.GoldRatePage,
  ),
  schemePlans: lazyPage(
    () => import('../features/scheme-plans/SchemePlansPage'),
    (m) => m.SchemePlansPage,
  ),
  messageConfiguration: lazyPage(
    () => import('../features/messaging/MessageConfigurationPage'),
    (m) => m.MessageConfigurationPage,
  ),
  messageTemplates: lazyPage(
    () => import('../features/notices/MessageTemplatesPage'),
    (m) => m.MessageTemplatesPage,
  ),
  staff: lazyPage(
    () => import('../features/staff/StaffPage'),
    (m) => m.StaffPage,
  ),
  branches: lazyPage(
    () => import('../features/branches/BranchesPage'),
    (m) => m.BranchesPage,
  ),
  integrations: lazyPage(
    () => import('../features/integrations/IntegrationsPage'),
    (m) => m.IntegrationsPage,
  ),
  pointsRules: lazyPage(
    () => import('../features/points-rules/PointsRulesPage'),
    (m) => m.PointsRulesPage,
  ),
  tiers: lazyPage(
    () => import('../features/tiers/TiersPage'),
    (m) => m.TiersPage,
  ),
  accounting: lazyPage(
    () => import('../features/accounting/AccountingPage'),
    (m) => m.AccountingPage,
  ),
  importData: lazyPage(
    () => import('../features/import/ImportPage'),
    (m) => m.ImportPage,
  ),
  audit: lazyPage(
    () => import('../features/audit/AuditPage'),
    (m) => m.AuditPage,
  ),
  backups: lazyPage(
    () => import('../features/backups/BackupsPage'),
    (m) => m.BackupsPage,
  ),
  shopSettings: lazyPage(
    () => import('../features/settings/ShopSettingsPage'),
    (m) => m.ShopSettingsPage,
  ),
  deliveryLog: lazyPage(
    () => import('../features/notices/DeliveryLogPage'),
    (m) => m.DeliveryLogPage,
  ),
  user: lazyPage(
    () => import('../features/users/ProfilePage'),
    (m) => m.ProfilePage,
  ),
  statement: lazyPage(
    () => import('../features/points/PointsStatementPage'),
    (m) => m.PointsStatementPage,
  ),
  schemeStatement: lazyPage(
    () => import('../features/schemes/SchemeStatementPage'),
    (m) => m.SchemeStatementPage,
  ),
  schemeSummary: lazyPage(
    () => import('../features/schemes/SchemeSummaryPage'),
    (m) => m.SchemeSummaryPage,
  ),
  collectionsReport: lazyPage(
    () => import('../features/reports/CollectionsReportPage'),
    (m) => m.CollectionsReportPage,
  ),
  overdueReport: lazyPage(
    () => import('../features/reports/OverdueReportPage'),
    (m) => m.OverdueReportPage,
  ),
  maturingReport: lazyPage(
    () => import('../features/reports/MaturingReportPage'),
    (m) => m.MaturingReportPage,
  ),
  pointsLiabilityReport: lazyPage(
    () => import('../features/reports/PointsLiabilityReportPage'),
    (m) => m.PointsLiabilityReportPage,
  ),
  unrecoveredReturns: lazyPage(
    () => import('../features/reports/UnrecoveredReportPage'),
    (m) => m.UnrecoveredReportPage,
  ),
};

/** A saved token skips the login screen. */
function SignedOutOnly({ children }: { children: ReactNode }) {
  return isSignedIn() ? <Navigate to={PATHS.home} replace /> : children;
}

/** Without a token, /home/* goes to the login screen, and back to this address after it. */
function SignedInOnly({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const returnTo: LoginState = { returnTo: pathname + search };
  return isSignedIn() ? children : <Navigate to={PATHS.login} replace state={returnTo} />;
}

/** Lets the API client (outside React) send the user back to `/` on an expired session. */
function LoginRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    setLoginRedirect(() => void navigate(PATHS.login, { replace: true }));
  }, [navigate]);
  return null;
}

/** The route table; needs a router around it (BrowserRouter, or MemoryRouter in tests). */
export function AppRoutes() {
  return (
    <ErrorBoundary fallback={(retry) => <RouteError onRetry={retry} />}>
      <LoginRedirect />
      <Suspense fallback={<RouteLoading />}>
        <Routes>
          <Route
            path={PATHS.login}
            element={
              <SignedOutOnly>
                <LoginPage />
              </SignedOutOnly>
            }
          />
          <Route
            path={PATHS.home}
            element={
              <SignedInOnly>
                <MainLayout />
              </SignedInOnly>
            }
          >
            {SCREENS.map(({ key, path }) => {
              const Page = screenPages[key];
              return path === PATHS.home ? (
                <Route key={key} index element={<Page />} />
              ) : (
                <Route key={key} path={path} element={<Page />} />
              );
            })}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
          <Route path="*" element={<Navigate to={PATHS.login} replace />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
