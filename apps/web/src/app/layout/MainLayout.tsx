import { Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useLocation } from 'react-router';
import { ForRoleOnly } from './ForRoleOnly';
import { LIMITS, UI_TEXTS } from '@kanak/contract';
import { ConnectionBanner } from '../../components/ConnectionBanner';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { logout } from '../../lib/api';
import { useActiveUser, usePasswordChangeDue } from '../../lib/app-state';
import { meQuery } from '../../lib/me';
import { lazyPage } from '../lazyPage';
import { RouteError, RouteLoading } from '../RouteStates';
import { brand } from '../theme';
import { Footer } from './Footer';
import { ScreenProviders } from './ScreenProviders';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

const width = LIMITS.sidebarWidthPx;
const paperSx = {
  width,
  boxSizing: 'border-box',
  backgroundColor: brand.maroonDeep,
  color: brand.sidebarText,
  borderRight: 'none',
} as const;

const ChangePasswordPage = lazyPage(
  () => import('../../features/auth/ChangePasswordPage'),
  (m) => m.ChangePasswordPage,
);

/**
 * A temporary password (said by the login, or by GET /api/me) shows only "Change your
 * password" until it is changed; every other call would be refused meanwhile.
 */
export function MainLayout() {
  return (
    <ScreenProviders>
      <PasswordChangeFirst />
    </ScreenProviders>
  );
}

function PasswordChangeFirst() {
  const due = usePasswordChangeDue();
  const { data: me } = useQuery(meQuery);
  if (due || me?.mustChangePassword)
    return (
      <Suspense fallback={<RouteLoading />}>
        <ChangePasswordPage />
      </Suspense>
    );
  return <SignedInLayout />;
}

/** /home/*: sidebar (fixed from md up, a drawer below), top bar, the screen, footer. */
function SignedInLayout() {
  const theme = useTheme();
  const isLargeScreen = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const username = useActiveUser();
  const { pathname } = useLocation();
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <>
      <Box sx={{ display: 'flex', minHeight: '100dvh' }}>
        <SkipLink />
        <TopBar
          username={username}
          onOpenMenu={isLargeScreen ? undefined : () => setDrawerOpen(true)}
          onLogout={logout}
        />
        {isLargeScreen ? (
          <Drawer
            variant="permanent"
            className="no-print"
            sx={{ width, flexShrink: 0 }}
            slotProps={{ paper: { sx: paperSx } }}
          >
            <Sidebar onLogout={logout} />
          </Drawer>
        ) : (
          <Drawer
            variant="temporary"
            open={drawerOpen}
            onClose={closeDrawer}
            className="no-print"
            slotProps={{ paper: { sx: paperSx } }}
          >
            <Sidebar onNavigate={closeDrawer} onClose={closeDrawer} onLogout={logout} />
          </Drawer>
        )}
        <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <Toolbar className="no-print" />
          <Box
            component="main"
            id="main-content"
            tabIndex={-1}
            sx={{ flexGrow: 1, p: { xs: 2, md: 3 }, outline: 'none' }}
          >
            <ConnectionBanner />
            <ErrorBoundary key={pathname} fallback={(retry) => <RouteError onRetry={retry} />}>
              <Suspense fallback={<RouteLoading />}>
                <ForRoleOnly pathname={pathname}>
                  <Outlet />
                </ForRoleOnly>
              </Suspense>
            </ErrorBoundary>
          </Box>
          <Footer />
        </Box>
      </Box>
    </>
  );
}

/** For keyboard users: jump past the top bar and sidebar. */
function SkipLink() {
  return (
    <Box
      component="a"
      href="#main-content"
      className="no-print"
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: (theme) => theme.zIndex.tooltip,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'primary.dark',
        '&:focus': { top: 8 },
      }}
    >
      {UI_TEXTS.layout.skipToContent}
    </Box>
  );
}
