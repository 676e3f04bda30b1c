import { useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { CONTENT_TEXTS, MESSAGES, type ImageRecord, type ImageType } from '@kanak/contract';
import { showAlert } from '../../lib/app-state';
import { reportFailure } from '../../lib/failure';
import { useDeleteImage } from './api';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';

const texts = CONTENT_TEXTS;
const IMAGE_HEIGHT = 150;

interface ImageListProps {
  type: ImageType;
  images: readonly ImageRecord[] | undefined;
  loading: boolean;
}

/**
 * The stored images of a type in a horizontally scrolling row, newest first, each with a
 * delete action that asks for confirmation (deleting cannot be undone).
 */
export function ImageList({ type, images, loading }: ImageListProps) {
  const kind = texts.kinds[type];
  const remove = useDeleteImage(type);
  // The image the dialog asks about; kept while the dialog fades out.
  const [pending, setPending] = useState<{ image: ImageRecord; alt: string } | null>(null);
  const [asking, setAsking] = useState(false);
  const trigger = useRef<HTMLElement | null>(null);
  const area = useRef<HTMLDivElement>(null);

  const ask = (image: ImageRecord, alt: string, button: HTMLElement) => {
    trigger.current = button;
    setPending({ image, alt });
    setAsking(true);
  };

  const confirm = () => {
    if (!pending) return;
    remove.submit(pending.image, {
      onSuccess: () => {
        showAlert('success', MESSAGES.imageDeleted);
        setAsking(false);
      },
      onError: (error) => {
        reportFailure(error, MESSAGES.imageDeleteFailed, 'fixed');
        setAsking(false);
      },
    });
  };

  // Keyboard users carry on where they were: the delete button, or the list if it is gone.
  const restoreFocus = () => {
    if (trigger.current?.isConnected) trigger.current.focus();
    else area.current?.focus();
  };

  const dialog = (
    <ConfirmDeleteDialog
      open={asking}
      imageUrl={pending?.image.URL}
      imageAlt={pending?.alt}
      busy={remove.isPending}
      onCancel={() => setAsking(false)}
      onConfirm={confirm}
      onClosed={restoreFocus}
    />
  );

  let content: ReactNode = null;
  if (loading && !images) {
    content = (
      <Box
        role="status"
        aria-label={texts.loadingImages(kind.name)}
        sx={{ display: 'flex', gap: 2, overflow: 'hidden' }}
      >
        {[0, 1, 2].map((key) => (
          <Skeleton
            key={key}
            variant="rounded"
            width={220}
            height={IMAGE_HEIGHT + 48}
            sx={{ flexShrink: 0 }}
          />
        ))}
      </Box>
    );
  } else if (images?.length === 0) {
    content = (
      <Box
        sx={{
          minHeight: 120,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          border: '1px dashed',
          borderColor: 'divider',
          borderRadius: 1,
          px: 2,
          textAlign: 'center',
        }}
      >
        <Typography color="text.secondary">{kind.empty}</Typography>
      </Box>
    );
  } else if (images) {
    content = (
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          pb: 1,
          display: 'flex',
          gap: 2,
          overflowX: 'auto',
          scrollSnapType: 'x proximity',
          overscrollBehaviorX: 'contain',
        }}
      >
        {images.map((image, index) => {
          const alt = texts.imageAlt(kind.label, index + 1, images.length);
          const deleting = remove.isPending && pending?.image.ID === image.ID;
          return (
            <Box component="li" key={image.ID} sx={{ flexShrink: 0, scrollSnapAlign: 'start' }}>
              <Card variant="outlined" sx={{ position: 'relative' }}>
                <Box
                  component="img"
                  src={image.URL}
                  alt={alt}
                  decoding="async"
                  sx={{
                    display: 'block',
                    height: IMAGE_HEIGHT,
                    width: 'auto',
                    minWidth: 120,
                    maxWidth: { xs: 260, sm: 320 },
                    objectFit: 'contain',
                    bgcolor: 'background.default',
                  }}
                />
                <Box
                  sx={{
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'space-between',
                    pl: 1.5,
                    pr: 0.5,
                    py: 0.5,
                  }}
                >
                  <Typography variant="caption" color="text.secondary">
                    {index + 1} / {images.length}
                  </Typography>
                  <IconButton
                    aria-label={texts.deleteImage(alt)}
                    color="error"
                    disabled={remove.isPending}
                    onClick={(event) => ask(image, alt, event.currentTarget)}
                  >
                    {deleting ? (
                      <CircularProgress size={20} color="inherit" aria-hidden />
                    ) : (
                      <DeleteOutlined />
                    )}
                  </IconButton>
                </Box>
              </Card>
            </Box>
          );
        })}
      </Box>
    );
  }
  // Otherwise the fetch failed: logged only, nothing shown, and no claim of "empty".

  return (
    <Box
      ref={area}
      role="group"
      aria-label={texts.imageList(kind.label)}
      tabIndex={-1}
      sx={{
        outline: 'none',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 4 },
      }}
    >
      {content}
      {dialog}
    </Box>
  );
}
