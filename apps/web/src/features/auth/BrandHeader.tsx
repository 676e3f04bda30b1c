import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';
import { useBranding } from '../../lib/branding';

/** The shop's logo, its name, its tagline ("Since 1928") and the welcome line. */
export function BrandHeader() {
  // The default name at once, never a blank card while the branding call runs.
  const { branding } = useBranding();
  const companyName = branding?.companyName ?? UI_TEXTS.defaultBranding.companyName;
  const tagline = branding ? branding.companyTagline : UI_TEXTS.defaultBranding.companyTagline;

  return (
    <Box sx={{ textAlign: 'center', mb: 3 }}>
      {/* The shop's logo once the owner has given one; the app's mark meanwhile. */}
      <Box
        component="img"
        src={branding?.logoUrl ?? '/favicon.svg'}
        alt=""
        sx={{ height: 48, maxWidth: '100%', objectFit: 'contain', mb: 1 }}
      />
      <Typography component="h1" variant="h4" color="primary.dark">
        {companyName}
      </Typography>
      {tagline && (
        <Typography
          sx={{ color: 'secondary.dark', fontWeight: 600, letterSpacing: '0.08em', mt: 0.5 }}
        >
          {tagline}
        </Typography>
      )}
      <Typography color="text.secondary" sx={{ mt: 1.5 }}>
        {UI_TEXTS.login.welcome}
      </Typography>
    </Box>
  );
}
