import { LIMITS, type ImageType } from './limits.js';
import { MESSAGES } from './messages.js';

/** How each image type reads on the Mobile Integration screen. */
const IMAGE_KINDS: Record<
  ImageType,
  { section: string; name: string; label: string; empty: string }
> = {
  banner: {
    section: 'Customize Banner',
    name: 'banner',
    label: 'Banner',
    empty: MESSAGES.noBannerImages,
  },
  card: {
    section: 'Customize e-catalogue',
    name: 'e-catalogue',
    label: 'e-catalogue',
    empty: MESSAGES.noCatalogueImages,
  },
};

/**
 * The fixed texts of Mobile Integration and Message Configuration
 * beyond MESSAGES: section titles, labels, and the words of the upload card and the delete
 * confirmation. The web app and its tests import them from here.
 */
export const CONTENT_TEXTS = {
  kinds: IMAGE_KINDS,
  chooseImage: 'Choose image',
  upload: 'Upload',
  remove: 'Remove',
  uploading: (kind: string) => `Uploading ${kind} image`,
  noFileChosen: 'No image chosen',
  accepted: `PNG, JPEG, JPG, GIF or WebP, up to ${LIMITS.imageMaxBytes / (1024 * 1024)} MB.`,
  held: (count: number) => `${count} of ${LIMITS.imagesPerType} images`,
  previewAlt: (fileName: string) => `Preview of ${fileName}`,
  imageAlt: (label: string, position: number, count: number) =>
    `${label} image ${position} of ${count}`,
  imageList: (kind: string) => `${kind} images`,
  loadingImages: (kind: string) => `Loading ${kind} images`,
  deleteImage: (imageAlt: string) => `Delete ${imageAlt}`,
  confirmDeleteTitle: 'Delete this image?',
  confirmDeleteText:
    'The image will be removed from the mobile app at once. This cannot be undone.',
  confirmDeleteCancel: 'CANCEL',
  confirmDeleteConfirm: 'DELETE',
  deleting: 'Deleting',
} as const;

/** Who sends each panel's WhatsApp messages (the server's default addresses; panel 3, the reseller's). */
const PANEL_PROVIDERS: Record<number, string> = {
  1: 'UltraMsg',
  2: 'Green API',
  3: "your reseller's panel",
  4: 'WhatsApp Business (official)',
};

export const MESSAGING_TEXTS = {
  instanceId: 'Instance Id',
  token: 'Token',
  panel: 'Select Panel',
  /** The spec's "Panel 1" to "Panel 3", each with the provider it sends through. */
  panelOption: (panel: number) => `Panel ${panel} — ${PANEL_PROVIDERS[panel] ?? 'WhatsApp'}`,
  phone: 'Phone',
  save: 'SAVE',
  revert: 'REVERT',
  showToken: 'Show token',
  hideToken: 'Hide token',
  loading: 'Loading panel configuration',
  saving: 'Saving',
  /** A refused save: the spec's warning, then the server's reason. */
  saveRefused: (reason: string | null) =>
    reason ? `${MESSAGES.panelSaveRefused}: ${reason}` : MESSAGES.panelSaveRefused,
} as const;
