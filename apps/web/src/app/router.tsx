import type { ComponentType } from 'react';
import { redirect, type RouteObject } from 'react-router';
import { PATHS, SCREENS, type ScreenKey } from './paths';
import { isSignedIn, resumeSession, setLoginRedirect } from '../lib/session';
import { PageLoader, RouteError } from './RouteStates';

type LazyPage = () => Promise<{ Component: ComponentType }>;

/** One lazily loaded chunk per screen; later issues fill the pages in. */
const screenPages: Record<ScreenKey, LazyPage> = {
  dashboard: async () => ({
    Component: (await import('../features/dashboard/DashboardPage')).DashboardPage,
  }),
  mobileApp: async () => ({
    Component: (await import('../features/content/MobileAppPage')).MobileAppPage,
  }),
  customerProfile: async () => ({
    Component: (await import('../features/customers/CustomerProfilePage')).CustomerProfilePage,
  }),
  loyaltyPoints: async () => ({
    Component: (await import('../features/points/LoyaltyPointsPage')).LoyaltyPointsPage,
  }),
  schemeGeneration: async () => ({
    Component: (await import('../features/schemes/SchemeGenerationPage')).SchemeGenerationPage,
  }),
  messageConfiguration: async () => ({
    Component: (await import('../features/messaging/MessageConfigurationPage'))
      .MessageConfigurationPage,
  }),
  user: async () => ({
    Component: (await import('../features/users/ProfilePage')).ProfilePage,
  }),
  statement: async () => ({
    Component: (await import('../features/points/PointsStatementPage')).PointsStatementPage,
  }),
  schemeStatement: async () => ({
    Component: (await import('../features/schemes/SchemeStatementPage')).SchemeStatementPage,
  }),
  schemeSummary: async () => ({
    Component: (await import('../features/schemes/SchemeSummaryPage')).SchemeSummaryPage,
  }),
};

/** A saved token skips the login screen. */
function redirectIfSignedIn() {
  return isSignedIn() ? redirect(PATHS.home) : null;
}

/** Without a token, /home/* goes back to the login screen. */
function requireSession() {
  if (!isSignedIn()) return redirect(PATHS.login);
  resumeSession();
  return null;
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    HydrateFallback: PageLoader,
    children: [
      {
        path: PATHS.login,
        loader: redirectIfSignedIn,
        lazy: async () => ({ Component: (await import('../features/auth/LoginPage')).LoginPage }),
      },
      {
        path: PATHS.home,
        loader: requireSession,
        lazy: async () => ({ Component: (await import('./layout/MainLayout')).MainLayout }),
        children: [
          ...SCREENS.map((screen) =>
            screen.path === PATHS.home
              ? { index: true, lazy: screenPages[screen.key] }
              : { path: screen.path, lazy: screenPages[screen.key] },
          ),
          {
            path: '*',
            lazy: async () => ({ Component: (await import('./NotFoundPage')).NotFoundPage }),
          },
        ],
      },
      { path: '*', loader: () => redirect(PATHS.login) },
    ],
  },
];

interface AppRouter {
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
}

/** Builds the router (browser or memory) and lets the API client send the user back to `/`. */
export function createAppRouter<R extends AppRouter>(create: (routes: RouteObject[]) => R): R {
  const router = create(routes);
  setLoginRedirect(() => void router.navigate(PATHS.login, { replace: true }));
  return router;
}
