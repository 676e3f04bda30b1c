import { useEffect, useRef, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { PORTAL_TEXTS } from '@kanak/contract';
import { failureMessage } from './http';
import { followLink, portalPaths } from './router';
import { useShopBranding } from './branding';

/**
 * The screen's title: its h1, the browser tab's title, and where focus lands when the screen
 * opens, so a screen reader announces the new screen and Tab starts from its top.
 */
export function ScreenTitle({ children, focus = true }: { children: string; focus?: boolean }) {
  const shop = useShopBranding();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = PORTAL_TEXTS.tabTitle(shop?.companyName ?? PORTAL_TEXTS.productName, children);
  }, [children, shop]);
  useEffect(() => {
    if (focus) ref.current?.focus({ preventScroll: true });
  }, [children, focus]);
  return (
    <Typography
      ref={ref}
      tabIndex={-1}
      component="h1"
      variant="h4"
      color="primary.dark"
      sx={{ mb: 2, outline: 'none', overflowWrap: 'anywhere' }}
    >
      {children}
    </Typography>
  );
}

/** A link inside the portal that looks like a button: a real <a>, moved to without a reload. */
export function LinkButton({
  to,
  children,
  ...props
}: { to: string; children: ReactNode } & Omit<ButtonProps<'a'>, 'href' | 'onClick'>) {
  return (
    <Button component="a" href={to} onClick={(event) => followLink(event, to)} {...props}>
      {children}
    </Button>
  );
}

export function BackLink() {
  return (
    <LinkButton to={portalPaths.home} className="no-print" sx={{ mb: 1, px: 0 }}>
      {`← ${PORTAL_TEXTS.back}`}
    </LinkButton>
  );
}

export function Loading() {
  return (
    <Box aria-busy="true" sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
      <CircularProgress aria-label={PORTAL_TEXTS.loading} />
    </Box>
  );
}

/** A screen whose data could not be had: why, and a way to ask again. */
export function LoadFailed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <Box sx={{ py: 3 }}>
      <Typography role="alert" sx={{ mb: 2 }}>
        {failureMessage(error)}
      </Typography>
      <Button variant="outlined" onClick={retry}>
        {PORTAL_TEXTS.retry}
      </Button>
    </Box>
  );
}

/** A message after an action: the server's words, read out as they appear. */
export function Notice({
  children,
  tone = 'info',
}: {
  children: ReactNode;
  tone?: 'info' | 'error' | 'success';
}) {
  const colours = {
    info: { bgcolor: '#e8f0f7', color: '#153f63' },
    error: { bgcolor: '#fbe9e7', color: '#8c1d18' },
    success: { bgcolor: '#e6f2e7', color: '#1f4d24' },
  }[tone];
  return (
    <Typography
      role={tone === 'error' ? 'alert' : 'status'}
      sx={{ p: 1.5, borderRadius: 2, fontWeight: 500, mb: 2, ...colours }}
    >
      {children}
    </Typography>
  );
}

/** A white panel on the ivory page. */
export function Panel({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <Box
      component="section"
      aria-label={label}
      sx={{
        bgcolor: 'background.paper',
        borderRadius: 3,
        border: '1px solid',
        borderColor: 'divider',
        p: 2,
        mb: 2,
      }}
    >
      {children}
    </Box>
  );
}

/** A table that fits a 360 px phone: cells padded less than MUI's desktop default. */
export const PHONE_TABLE = {
  bgcolor: 'background.paper',
  '& .MuiTableCell-root': { px: 1 },
  '& .MuiTableCell-root:first-of-type': { pl: 1.5 },
  '& .MuiTableCell-root:last-of-type': { pr: 1.5 },
} as const;
