import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import {
  ACCEPTED_IMAGE_MIME,
  ACCEPTED_IMAGE_TYPES,
  CONTENT_TEXTS,
  LIMITS,
  MESSAGES,
  type ImageType,
} from '@kanak/contract';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useUploadImage } from './api';

const texts = CONTENT_TEXTS;

/** What the file dialog offers: the spec's five extensions and their MIME types. */
const ACCEPT = [...ACCEPTED_IMAGE_TYPES.map((ext) => `.${ext}`), ...ACCEPTED_IMAGE_MIME].join(',');

/** Refusals whose own message says what to do (the image limit, size, format). */
const SPECIFIC_REFUSALS = new Set([409, 413, 415]);

function isAcceptedImage(file: File): boolean {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (
    (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(ext) ||
    (ACCEPTED_IMAGE_MIME as readonly string[]).includes(file.type)
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

interface Chosen {
  file: File;
  previewUrl: string;
}

interface ImageUploadCardProps {
  type: ImageType;
  /** Images of this type already stored (the length of the last fetched list). */
  heldCount: number;
}

/**
 * The upload card: empty, then a file chosen (preview shown, upload enabled), then
 * uploaded and reset; Remove also resets it. Choosing a file while 5 images are held is
 * blocked with the warning.
 */
export function ImageUploadCard({ type, heldCount }: ImageUploadCardProps) {
  const kind = texts.kinds[type];
  const upload = useUploadImage(type);
  const inputRef = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [progress, setProgress] = useState(0);
  const hintId = useId();
  const busy = upload.isPending;
  const full = heldCount >= LIMITS.imagesPerType;

  // The preview's object URL lives as long as the choice.
  const previewUrl = chosen?.previewUrl;
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const blockWhenFull = () => {
    if (full) showAlert('warning', MESSAGES.maxImages);
    return full;
  };

  const openPicker = () => {
    if (!blockWhenFull()) inputRef.current?.click();
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Lets the same file be chosen again after Remove.
    event.target.value = '';
    if (!file || blockWhenFull()) return;
    if (!isAcceptedImage(file)) {
      showAlert('warning', MESSAGES.imageFormat);
      return;
    }
    if (file.size > LIMITS.imageMaxBytes) {
      showAlert('warning', MESSAGES.imageTooLarge);
      return;
    }
    setChosen({ file, previewUrl: URL.createObjectURL(file) });
  };

  const reset = () => {
    setChosen(null);
    setProgress(0);
  };

  const send = () => {
    if (!chosen) return;
    setProgress(0);
    upload.mutate(
      { file: chosen.file, onProgress: setProgress },
      {
        onSuccess: () => {
          reset();
          showAlert('success', MESSAGES.imageUploaded);
        },
        onError: (error) =>
          reportFailure(error, MESSAGES.imageUploadFailed, (message, status) =>
            showAlert(
              'error',
              (SPECIFIC_REFUSALS.has(status) ? message : null) ?? MESSAGES.imageUploadFailed,
            ),
          ),
      },
    );
  };

  return (
    <Card variant="outlined" sx={{ width: { xs: '100%', md: 300 }, flexShrink: 0 }}>
      <CardContent sx={{ pb: 1 }}>
        <Box
          sx={{
            height: 160,
            borderRadius: 1,
            border: '1px dashed',
            borderColor: chosen ? 'transparent' : 'divider',
            bgcolor: 'background.default',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            overflow: 'hidden',
          }}
        >
          {chosen ? (
            <Box
              component="img"
              src={chosen.previewUrl}
              alt={texts.previewAlt(chosen.file.name)}
              sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            />
          ) : (
            <Box sx={{ textAlign: 'center', color: 'text.secondary' }}>
              <AddPhotoAlternateOutlined sx={{ fontSize: 40 }} aria-hidden />
              <Typography variant="body2">{texts.noFileChosen}</Typography>
            </Box>
          )}
        </Box>
        {chosen ? (
          <Typography variant="body2" sx={{ mt: 1, wordBreak: 'break-all' }}>
            {chosen.file.name} · {formatSize(chosen.file.size)}
          </Typography>
        ) : (
          <Typography id={hintId} variant="caption" component="p" sx={{ mt: 1 }}>
            {texts.accepted} {texts.held(heldCount)}.
          </Typography>
        )}
        {busy && (
          <Box sx={{ mt: 1 }}>
            <LinearProgress
              variant="determinate"
              value={Math.round(progress * 100)}
              aria-label={texts.uploading(kind.name)}
            />
            <Typography variant="caption" component="p" sx={{ mt: 0.5 }} aria-hidden>
              {Math.round(progress * 100)}%
            </Typography>
          </Box>
        )}
        <input
          ref={inputRef}
          type="file"
          accept={ACCEPT}
          onChange={choose}
          tabIndex={-1}
          hidden
          data-testid={`image-picker-${type}`}
        />
      </CardContent>
      <CardActions
        disableSpacing
        sx={{ px: 2, pb: 2, pt: 0, flexDirection: 'column', alignItems: 'stretch', gap: 1 }}
      >
        <Button
          variant="outlined"
          onClick={openPicker}
          disabled={busy}
          startIcon={<AddPhotoAlternateOutlined />}
          aria-describedby={chosen ? undefined : hintId}
        >
          {texts.chooseImage}
        </Button>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button
            variant="contained"
            onClick={send}
            disabled={!chosen || busy}
            startIcon={
              busy ? (
                <CircularProgress size={18} color="inherit" aria-hidden />
              ) : (
                <CloudUploadOutlined />
              )
            }
            sx={{ flex: 1 }}
          >
            {texts.upload}
          </Button>
          <Button variant="text" onClick={reset} disabled={!chosen || busy}>
            {texts.remove}
          </Button>
        </Box>
      </CardActions>
    </Card>
  );
}
