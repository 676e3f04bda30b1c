import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { BACKUPS_TEXTS } from '@kanak/contract';

const texts = BACKUPS_TEXTS;

/**
 * How to restore: the command for the newest backup still kept (`npm run restore -- <file>`,
 * as the restore's own usage says), shown whole to copy, with the steps around it.
 */
export function RestoreCommand({ path }: { path: string | null }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const command = path ? texts.restoreCommand(path) : null;
  const copy = () => {
    if (!command) return;
    const written = navigator.clipboard?.writeText(command);
    if (!written) return setCopied('failed');
    written.then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <Paper
      component="section"
      aria-labelledby="restore-heading"
      variant="outlined"
      sx={{ mt: 3, p: 2, maxWidth: 900 }}
    >
      <Typography id="restore-heading" component="h2" variant="h6" sx={{ mb: 1 }}>
        {texts.restoreHeading}
      </Typography>
      <Typography sx={{ mb: 1.5 }}>{texts.restoreSteps}</Typography>
      {command ? (
        <>
          <Box
            component="output"
            aria-label={texts.restoreHeading}
            sx={{
              display: 'block',
              fontFamily: 'monospace',
              fontSize: 15,
              p: 1.5,
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              bgcolor: 'grey.50',
              overflowWrap: 'anywhere',
            }}
          >
            {command}
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy}>
              {texts.copy}
            </Button>
            <Typography role="status" color="text.secondary">
              {copied === 'yes' ? texts.copied : copied === 'failed' ? texts.copyFailed : ''}
            </Typography>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {texts.restoreOther}
          </Typography>
        </>
      ) : (
        <Typography color="text.secondary">{texts.restoreNone}</Typography>
      )}
    </Paper>
  );
}
