import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import LinearProgress from '@mui/material/LinearProgress';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import PersonSearchIcon from '@mui/icons-material/PersonSearchOutlined';
import DescriptionIcon from '@mui/icons-material/DescriptionOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import LoyaltyIcon from '@mui/icons-material/LoyaltyOutlined';
import RedeemIcon from '@mui/icons-material/RedeemOutlined';
import ManageAccountsIcon from '@mui/icons-material/ManageAccountsOutlined';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphoneOutlined';
import BadgeIcon from '@mui/icons-material/BadgeOutlined';
import HistoryIcon from '@mui/icons-material/HistoryOutlined';
import BackupIcon from '@mui/icons-material/BackupOutlined';
import StoreIcon from '@mui/icons-material/StoreOutlined';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import SavingsIcon from '@mui/icons-material/SavingsOutlined';
import EventNoteIcon from '@mui/icons-material/EventNoteOutlined';
import DiamondIcon from '@mui/icons-material/DiamondOutlined';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import TextSnippetIcon from '@mui/icons-material/TextSnippetOutlined';
import MarkChatReadIcon from '@mui/icons-material/MarkChatReadOutlined';
import GroupsIcon from '@mui/icons-material/GroupsOutlined';
import StorefrontIcon from '@mui/icons-material/StorefrontOutlined';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import TuneIcon from '@mui/icons-material/TuneOutlined';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremiumOutlined';
import AccountBalanceIcon from '@mui/icons-material/AccountBalanceOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFileOutlined';
import SummarizeIcon from '@mui/icons-material/SummarizeOutlined';
import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturnOutlined';
import PointOfSaleIcon from '@mui/icons-material/PointOfSaleOutlined';
import EventBusyIcon from '@mui/icons-material/EventBusyOutlined';
import EventAvailableIcon from '@mui/icons-material/EventAvailableOutlined';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import { NavLink } from 'react-router';
import { SIDEBAR_LABELS, UI_TEXTS } from '@kanak/contract';
import { useMayOpen, useMe } from '../../lib/me';
import { PATHS, SCREENS, type Screen, type ScreenKey } from '../../lib/paths';
import { CompanyName } from '../../lib/branding';
import { brand } from '../theme';

const icons: Record<ScreenKey, ReactElement> = {
  dashboard: <DashboardIcon />,
  counter: <PersonSearchIcon />,
  mobileApp: <PhoneIphoneIcon />,
  customerProfile: <BadgeIcon />,
  loyaltyPoints: <LoyaltyIcon />,
  redeemPoints: <RedeemIcon />,
  schemeGeneration: <SavingsIcon />,
  goldRate: <DiamondIcon />,
  schemePlans: <EventNoteIcon />,
  messageConfiguration: <SmsIcon />,
  messageTemplates: <TextSnippetIcon />,
  staff: <GroupsIcon />,
  branches: <StorefrontIcon />,
  integrations: <KeyIcon />,
  pointsRules: <TuneIcon />,
  tiers: <WorkspacePremiumIcon />,
  accounting: <AccountBalanceIcon />,
  importData: <UploadFileIcon />,
  audit: <HistoryIcon />,
  backups: <BackupIcon />,
  shopSettings: <StoreIcon />,
  deliveryLog: <MarkChatReadIcon />,
  user: <ManageAccountsIcon />,
  statement: <ReceiptLongIcon />,
  schemeStatement: <DescriptionIcon />,
  schemeSummary: <SummarizeIcon />,
  collectionsReport: <PointOfSaleIcon />,
  overdueReport: <EventBusyIcon />,
  maturingReport: <EventAvailableIcon />,
  pointsLiabilityReport: <AccountBalanceWalletIcon />,
  unrecoveredReturns: <AssignmentReturnIcon />,
};

const itemSx = {
  mx: 1,
  my: 0.25,
  borderRadius: 2,
  color: brand.sidebarText,
  '& .MuiListItemIcon-root': { color: brand.goldLight, minWidth: 40 },
  '&:hover': { backgroundColor: 'rgba(224, 184, 76, 0.12)' },
  '&.active': {
    backgroundColor: 'rgba(224, 184, 76, 0.2)',
    boxShadow: `inset 3px 0 0 ${brand.goldLight}`,
    fontWeight: 600,
  },
  '&.Mui-focusVisible': { outline: `2px solid ${brand.goldLight}`, outlineOffset: -2 },
} as const;

const dividerColor = 'rgba(246, 234, 216, 0.2)';
const dividerSx = { borderColor: dividerColor, my: 1 } as const;

interface SidebarProps {
  /** Called after choosing an item (closes the drawer on small screens). */
  onNavigate?: () => void;
  /** Shown on small screens: the drawer's close button. */
  onClose?: () => void;
  onLogout: () => void;
}

/** The sidebar's content: both groups of screens, a divider between them, and Logout. */
export function Sidebar({ onNavigate, onClose, onLogout }: SidebarProps) {
  const mayOpen = useMayOpen();
  // The screens a role may open are known with the role: until then the list waits, so its
  // entries (and Logout below them) never move under a pointer that is about to press one.
  const me = useMe();
  const roleSettled = me.data !== undefined || me.isError;
  const group = (name: Screen['group']) =>
    SCREENS.filter((screen) => screen.group === name && mayOpen(screen));
  const item = (screen: Screen) => (
    <ListItem key={screen.key} disablePadding>
      <ListItemButton
        component={NavLink}
        to={screen.path}
        end={screen.path === PATHS.home}
        onClick={onNavigate}
        sx={itemSx}
      >
        <ListItemIcon>{icons[screen.key]}</ListItemIcon>
        <ListItemText primary={SIDEBAR_LABELS[screen.key]} />
      </ListItemButton>
    </ListItem>
  );

  return (
    <Box
      component="nav"
      aria-label={UI_TEXTS.layout.mainNavigation}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          px: 2,
          minHeight: 64,
          mb: 1,
          borderBottom: `1px solid ${dividerColor}`,
        }}
      >
        <Box component="img" src="/favicon.svg" alt="" sx={{ width: 32, height: 32 }} />
        <Typography
          variant="h6"
          component="p"
          sx={{ flexGrow: 1, color: brand.goldLight, lineHeight: 1.2 }}
        >
          <CompanyName />
        </Typography>
        {onClose && (
          <IconButton
            onClick={onClose}
            aria-label={UI_TEXTS.layout.closeMenu}
            sx={{ color: brand.sidebarText }}
          >
            <CloseIcon />
          </IconButton>
        )}
      </Box>
      {!roleSettled && <LinearProgress aria-label={UI_TEXTS.layout.loadingMenu} />}
      <Box sx={{ flexGrow: 1, display: roleSettled ? undefined : 'none' }}>
        <List disablePadding>{group('main').map(item)}</List>
        <Divider sx={dividerSx} />
        <List disablePadding>{group('statements').map(item)}</List>
        <Divider sx={dividerSx} />
        <List disablePadding>
          <ListItem disablePadding>
            <ListItemButton onClick={onLogout} sx={itemSx}>
              <ListItemIcon>
                <LogoutIcon />
              </ListItemIcon>
              <ListItemText primary={SIDEBAR_LABELS.logout} />
            </ListItemButton>
          </ListItem>
        </List>
      </Box>
    </Box>
  );
}
