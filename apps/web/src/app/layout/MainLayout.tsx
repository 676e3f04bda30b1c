import { useState } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import 'dayjs/locale/en-gb';
import { Outlet } from 'react-router';
import { LIMITS, UI_TEXTS } from '@kanak/contract';
import { useActiveUser } from '../../lib/app-state';
import { useBranding } from '../../lib/branding';
import { endSession } from '../../lib/session';
import { brand } from '../theme';
import { Footer } from './Footer';
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

/** /home/*: sidebar (fixed from md up, a drawer below), top bar, the screen, footer. */
export function MainLayout() {
  const theme = useTheme();
  const isLargeScreen = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const username = useActiveUser();
  const { data: branding } = useBranding();
  const companyName = branding?.companyName ?? UI_TEXTS.productName;
  const logout = () => endSession();
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <Box sx={{ display: 'flex', minHeight: '100dvh' }}>
      <SkipLink />
      <TopBar
        username={username}
        companyName={companyName}
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
          <Sidebar companyName={companyName} onLogout={logout} />
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={drawerOpen}
          onClose={closeDrawer}
          className="no-print"
          slotProps={{ paper: { sx: paperSx } }}
        >
          <Sidebar
            companyName={companyName}
            onNavigate={closeDrawer}
            onClose={closeDrawer}
            onLogout={logout}
          />
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
          <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="en-gb">
            <Outlet />
          </LocalizationProvider>
        </Box>
        <Footer branding={branding} />
      </Box>
    </Box>
  );
}

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
