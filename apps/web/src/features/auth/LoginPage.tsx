import { useEffect } from 'react';
import Box from '@mui/material/Box';
import { UI_TEXTS } from '@kanak/contract';
import background from '../../assets/login-background.svg';
import necklace from '../../assets/necklace.svg';
import bangles from '../../assets/bangles.svg';
import { BrandHeader } from './BrandHeader';
import { LoginForm } from './LoginForm';

const sideImageSx = {
  display: { xs: 'none', md: 'block' },
  height: 'min(62vh, 460px)',
  width: 'auto',
  flexShrink: 0,
  filter: 'drop-shadow(0 8px 24px rgba(0, 0, 0, 0.35))',
} as const;

/** The landing page at `/`: background, two side images and a translucent sign-in panel. */
export function LoginPage() {
  useEffect(() => {
    document.title = UI_TEXTS.productName;
  }, []);

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: { md: 4, lg: 8 },
        p: 2,
        backgroundColor: '#5a1320',
        backgroundImage: `url(${background})`,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
      }}
    >
      <Box component="img" src={necklace} alt="" sx={sideImageSx} />
      <Box
        component="section"
        sx={{
          boxShadow: 12,
          width: '100%',
          maxWidth: 420,
          p: { xs: 3, sm: 4 },
          borderRadius: 4,
          backgroundColor: 'rgba(255, 251, 244, 0.9)',
          backdropFilter: 'blur(8px)',
          border: '1px solid rgba(201, 162, 39, 0.55)',
        }}
      >
        <BrandHeader />
        <LoginForm />
      </Box>
      <Box component="img" src={bangles} alt="" sx={sideImageSx} />
    </Box>
  );
}
