import { useState, type MouseEvent } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import { LIMITS, UI_TEXTS } from '@kanak/contract';
import { CompanyName, useBranding } from '../../lib/branding';
import { useMe } from '../../lib/me';
import { brand } from '../theme';

interface TopBarProps {
  username: string;
  /** Small screens only: opens the sidebar drawer. */
  onOpenMenu?: () => void;
  onLogout: () => void;
}

/** The top bar: menu button (small screens), the shop, and the user's menu with Logout. */
export function TopBar({ username, onOpenMenu, onLogout }: TopBarProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { data: me } = useMe();
  const logoUrl = useBranding().branding?.logoUrl;
  const open = (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget);
  const close = () => setAnchor(null);

  return (
    <AppBar
      position="fixed"
      className="no-print"
      sx={{
        width: { md: `calc(100% - ${LIMITS.sidebarWidthPx}px)` },
        ml: { md: `${LIMITS.sidebarWidthPx}px` },
        background: `linear-gradient(90deg, ${brand.maroonDark}, ${brand.maroon})`,
        borderBottom: `2px solid ${brand.gold}`,
      }}
    >
      <Toolbar>
        {onOpenMenu && (
          <IconButton
            color="inherit"
            edge="start"
            onClick={onOpenMenu}
            aria-label={UI_TEXTS.layout.openMenu}
            sx={{ mr: 1 }}
          >
            <MenuIcon />
          </IconButton>
        )}
        {logoUrl && (
          <Box
            component="img"
            src={logoUrl}
            alt=""
            sx={{ height: 32, maxWidth: 96, objectFit: 'contain', mr: 1.5, flexShrink: 0 }}
          />
        )}
        <Typography variant="h6" component="p" noWrap sx={{ flexGrow: 1 }}>
          <CompanyName />
        </Typography>
        <Button
          color="inherit"
          startIcon={<AccountCircleIcon />}
          onClick={open}
          aria-haspopup="menu"
          aria-controls={anchor ? 'account-menu' : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          sx={{ maxWidth: '50%' }}
        >
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {username}
            {me?.branch && (
              <span title={me.branch.name} data-testid="top-bar-branch">
                {` · ${me.branch.code}`}
              </span>
            )}
          </span>
        </Button>
        <Menu
          id="account-menu"
          anchorEl={anchor}
          open={anchor !== null}
          onClose={close}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          slotProps={{ list: { 'aria-label': UI_TEXTS.layout.accountMenu } }}
        >
          {me?.branch && (
            <MenuItem disabled>{UI_TEXTS.layout.branch(me.branch.name, me.branch.code)}</MenuItem>
          )}
          <MenuItem
            onClick={() => {
              close();
              onLogout();
            }}
          >
            <ListItemIcon>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            {UI_TEXTS.layout.logout}
          </MenuItem>
        </Menu>
      </Toolbar>
    </AppBar>
  );
}
