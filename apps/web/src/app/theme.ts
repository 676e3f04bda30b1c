import { createTheme } from '@mui/material/styles';

/** Deep maroon and gold on ivory: a jeweller's showroom, with text contrast kept at AA or better. */
export const brand = {
  maroon: '#7b1e2b',
  maroonDark: '#5a1320',
  maroonDeep: '#3d0f17',
  gold: '#c9a227',
  goldLight: '#e0b84c',
  goldDark: '#7a5710',
  ivory: '#fbf7f0',
  sidebarText: '#f6ead8',
} as const;

const serif = '"Cormorant Garamond", "Playfair Display", Georgia, "Times New Roman", serif';
const sans =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif';

export const theme = createTheme({
  palette: {
    primary: { main: brand.maroon, dark: brand.maroonDark, light: '#a3434f', contrastText: '#fff' },
    secondary: {
      main: brand.gold,
      dark: brand.goldDark,
      light: brand.goldLight,
      contrastText: '#2b1d16',
    },
    // Dark enough that white text on a filled alert passes WCAG AA.
    success: { main: '#2e6b34' },
    warning: { main: '#8a4b00' },
    error: { main: '#b3261e' },
    info: { main: '#1f5a8a' },
    background: { default: brand.ivory, paper: '#ffffff' },
    text: { primary: '#2b1d16', secondary: '#5f4b3f' },
    divider: 'rgba(122, 87, 16, 0.24)',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: sans,
    h1: { fontFamily: serif, fontWeight: 700 },
    h2: { fontFamily: serif, fontWeight: 700 },
    h3: { fontFamily: serif, fontWeight: 700 },
    h4: { fontFamily: serif, fontWeight: 700 },
    h5: { fontFamily: serif, fontWeight: 700 },
    h6: { fontFamily: serif, fontWeight: 700 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    // Keyboard focus on anything pressable (buttons, toggles, switches, menu entries): a solid
    // dark ring with a gold line inside, drawn at once. MUI's own is a faint ripple that swells
    // in over half a second, hard to see on a filled button and on the maroon sidebar.
    MuiButtonBase: {
      styleOverrides: {
        root: {
          '&.Mui-focusVisible': {
            outline: `3px solid ${brand.maroonDeep}`,
            outlineOffset: 2,
            boxShadow: `0 0 0 2px ${brand.goldLight}`,
            transition: 'none',
          },
        },
      },
    },
    MuiButton: { defaultProps: { disableElevation: true, disableFocusRipple: true } },
    MuiToggleButton: { defaultProps: { disableFocusRipple: true } },
    MuiIconButton: { defaultProps: { disableFocusRipple: true } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
  },
});
