import type { ChangeEvent, ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

interface SwitchControlProps {
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  /** The switch's name for screen readers, when the visible text alone does not say it. */
  label?: string;
  /** The visible text beside the switch. */
  children: ReactNode;
}

/**
 * An on/off switch: a native checkbox with the switch role, in a plain label. MUI's Switch and
 * FormControlLabel would be shared with the sign-in page's checkbox, and the sign-in page's
 * chunks would grow.
 */
export function SwitchControl({
  checked,
  disabled,
  onChange,
  label,
  children,
}: SwitchControlProps) {
  return (
    <Box
      component="label"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        py: 0.75,
        cursor: disabled ? 'default' : 'pointer',
      }}
    >
      <Box
        component="input"
        type="checkbox"
        role="switch"
        aria-label={label}
        checked={checked}
        disabled={disabled}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.checked)}
        sx={{
          width: 20,
          height: 20,
          m: 0,
          flex: '0 0 auto',
          accentColor: (theme) => theme.palette.primary.main,
          cursor: 'inherit',
        }}
      />
      <Typography component="span">{children}</Typography>
    </Box>
  );
}
