import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';
import { useBranding } from '../../lib/branding';

/** The shop's name, its tagline ("Since 1928") and the welcome line. */
export function BrandHeader() {
  const { branding, loading } = useBranding();

  return (
    <Box sx={{ textAlign: 'center', mb: 3 }}>
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 48, height: 48, mb: 1 }} />
      <Typography component="h1" variant="h4" color="primary.dark">
        {loading ? '\u00a0' : (branding?.companyName ?? UI_TEXTS.productName)}
      </Typography>
      {branding?.companyTagline && (
        <Typography
          sx={{ color: 'secondary.dark', fontWeight: 600, letterSpacing: '0.08em', mt: 0.5 }}
        >
          {branding.companyTagline}
        </Typography>
      )}
      <Typography color="text.secondary" sx={{ mt: 1.5 }}>
        {UI_TEXTS.login.welcome}
      </Typography>
    </Box>
  );
}
