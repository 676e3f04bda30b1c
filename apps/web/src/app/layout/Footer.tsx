import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';
import { useBranding } from '../../lib/branding';

/** "Powered by …" and the support phone. */
export function Footer() {
  const { branding } = useBranding();
  return (
    <Box
      component="footer"
      className="no-print"
      sx={{
        px: { xs: 2, md: 3 },
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        display: 'flex',
        flexWrap: 'wrap',
        gap: { xs: 0.5, sm: 2 },
        justifyContent: 'space-between',
        color: 'text.secondary',
        minHeight: 48,
      }}
    >
      {/* Either may be left empty in the shop's settings: then it is not shown. */}
      {branding?.poweredBy && (
        <Typography variant="body2">{UI_TEXTS.layout.poweredBy(branding.poweredBy)}</Typography>
      )}
      {branding?.supportPhone && (
        <Typography variant="body2">
          {UI_TEXTS.layout.support}:{' '}
          <Link href={`tel:${branding.supportPhone.replace(/[^\d+]/g, '')}`} color="primary.dark">
            {branding.supportPhone}
          </Link>
        </Typography>
      )}
    </Box>
  );
}
