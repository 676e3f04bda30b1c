import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import { SHOP_SETTINGS_LIMITS, SHOP_SETTINGS_MESSAGES, SHOP_SETTINGS_TEXTS } from '@kanak/contract';
import { SubmitButton } from '../../components/SubmitButton';
import { showAlert } from '../../lib/app-state';
import { logoUpload, useRemoveLogo, useUploadLogo } from './api';

const texts = SHOP_SETTINGS_TEXTS;
const LOGO_TYPES = ['image/png', 'image/jpeg'];
const logoKilobytes = SHOP_SETTINGS_LIMITS.logoMaxBytes / 1024;

/** A card of the Shop Settings screen. */
export const section = { p: { xs: 2, sm: 3 } } as const;

interface Chosen {
  file: File;
  previewUrl: string;
}

/** The logo: the one in use (or none), a new one chosen and previewed, uploaded or removed. */
export function LogoCard({ logoUrl }: { logoUrl: string | null }) {
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const busy = upload.isPending || remove.isPending;
  const error = refusal ?? upload.error ?? remove.error;

  // The preview's object URL lives as long as the choice.
  const previewUrl = chosen?.previewUrl;
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Lets the same file be chosen again after Cancel.
    event.target.value = '';
    if (!file) return;
    upload.reset();
    remove.reset();
    // The server judges the bytes; these two say at once what it would say.
    const refused = !LOGO_TYPES.includes(file.type)
      ? SHOP_SETTINGS_MESSAGES.logoFormat
      : file.size > SHOP_SETTINGS_LIMITS.logoMaxBytes
        ? SHOP_SETTINGS_MESSAGES.logoTooLarge(logoKilobytes)
        : null;
    setRefusal(refused);
    setChosen(refused ? null : { file, previewUrl: URL.createObjectURL(file) });
  };

  const send = () => {
    if (!chosen) return;
    upload.submit(logoUpload(chosen.file), {
      onSuccess: (answer) => {
        setChosen(null);
        if (answer.message) showAlert('success', answer.message);
      },
    });
  };

  const removeLogo = () => {
    setRefusal(null);
    remove.submit(null, {
      onSuccess: (answer) => {
        if (answer.message) showAlert('success', answer.message);
      },
    });
  };

  const shown = chosen?.previewUrl ?? logoUrl;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="shop-logo" sx={section}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id="shop-logo">
          {texts.logoHeading}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {texts.logoIntro(logoKilobytes)}
        </Typography>
        <Box
          sx={{
            height: 120,
            maxWidth: 360,
            borderRadius: 1,
            border: '1px dashed',
            borderColor: shown ? 'transparent' : 'divider',
            bgcolor: 'background.default',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            overflow: 'hidden',
          }}
        >
          {shown ? (
            <Box
              component="img"
              src={shown}
              alt={chosen ? texts.chosenLogo(chosen.file.name) : texts.currentLogo}
              sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            />
          ) : (
            <Typography variant="body2" color="text.secondary">
              {texts.noLogo}
            </Typography>
          )}
        </Box>
        <input
          ref={inputRef}
          type="file"
          accept=".png,.jpg,.jpeg,image/png,image/jpeg"
          onChange={choose}
          tabIndex={-1}
          hidden
          data-testid="logo-picker"
        />
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {chosen ? (
            <>
              <SubmitButton
                type="button"
                onClick={send}
                pending={upload.isPending}
                pendingLabel={texts.uploadingLogo}
              >
                {texts.uploadLogo}
              </SubmitButton>
              <Button onClick={() => setChosen(null)} disabled={busy}>
                {texts.cancelChoice}
              </Button>
            </>
          ) : (
            <>
              <Button
                variant="outlined"
                startIcon={<AddPhotoAlternateOutlined />}
                onClick={() => inputRef.current?.click()}
                disabled={busy}
              >
                {texts.chooseLogo}
              </Button>
              {logoUrl && (
                <SubmitButton
                  type="button"
                  variant="text"
                  color="error"
                  onClick={removeLogo}
                  pending={remove.isPending}
                  pendingLabel={texts.removingLogo}
                >
                  {texts.removeLogo}
                </SubmitButton>
              )}
            </>
          )}
        </Box>
      </Stack>
    </Paper>
  );
}
