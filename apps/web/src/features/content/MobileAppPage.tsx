import { useId } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CONTENT_TEXTS, IMAGE_TYPES, PAGE_TITLES, type ImageType } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { useImages } from './api';
import { ImageList } from './ImageList';
import { ImageUploadCard } from './ImageUploadCard';

/** Mobile Integration (/home/mobile-app): banner and e-catalogue images of the mobile app. */
export function MobileAppPage() {
  return (
    <>
      <PageHeader title={PAGE_TITLES.mobileApp} />
      <Stack spacing={3}>
        {IMAGE_TYPES.map((type) => (
          <ImageSection key={type} type={type} />
        ))}
      </Stack>
    </>
  );
}

/** "Customize Banner" or "Customize e-catalogue": an upload card and the stored images. */
function ImageSection({ type }: { type: ImageType }) {
  const headingId = useId();
  const images = useImages(type);
  // The list's length is the held image count of this type.
  const heldCount = images.data?.length ?? 0;
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id={headingId} component="h2" variant="h5" sx={{ mb: 2 }}>
        {CONTENT_TEXTS.kinds[type].section}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <ImageUploadCard type={type} heldCount={heldCount} />
        <Stack sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          <ImageList type={type} images={images.data} loading={images.isPending} />
        </Stack>
      </Stack>
    </Paper>
  );
}
