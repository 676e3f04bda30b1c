import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';

/**
 * A secret the server shows this once (a temporary password, an API key), large enough to
 * read out, with a button that copies it. Closing the dialog is the last chance to see it.
 */
export function ShownOnceDialog({
  title,
  intro,
  secret,
  texts,
  size = 'sm',
  onClose,
}: {
  title: string;
  intro: ReactNode;
  secret: string;
  texts: { copy: string; copied: string; close: string };
  /** `xs` for a short secret read out at the counter; `sm` for a long key. */
  size?: 'xs' | 'sm';
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth={size}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {intro}
        <Box
          component="output"
          aria-label={title}
          sx={{
            display: 'block',
            mt: 2,
            fontFamily: 'monospace',
            fontSize: size === 'xs' ? 20 : 16,
            letterSpacing: size === 'xs' ? 1 : 0,
            textAlign: size === 'xs' ? 'center' : 'left',
            p: 1.5,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            overflowWrap: 'anywhere',
          }}
        >
          {secret}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={copy}>
          {copied ? texts.copied : texts.copy}
        </Button>
        <Button variant="contained" onClick={onClose} autoFocus>
          {texts.close}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
