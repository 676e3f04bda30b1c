import { useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { UI_TEXTS } from '@kanak/contract';

/** The heading of a screen; also names the browser tab. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · ${UI_TEXTS.productName}`;
  }, [title]);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 3 }}>
      <Typography component="h1" variant="h4" color="primary.dark" sx={{ flexGrow: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
