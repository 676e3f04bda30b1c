import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  MESSAGES,
  type DeleteFileRequest,
  type ImageRecord,
  type ImageType,
  type imageResponse,
  type imagesResponse,
  type messageResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { refetchAfterChange } from '../../lib/query-client';

export const contentKeys = {
  all: ['content'] as const,
  images: (type: ImageType) => ['content', 'images', type] as const,
};

/** POST /api/file/get-files: the images of a type, newest first. */
async function fetchImages(type: ImageType): Promise<ImageRecord[]> {
  try {
    const { data } = await api.post<Answer<typeof imagesResponse>>(API_PATHS.getFiles, { type });
    return expectSuccess(data).data;
  } catch (error) {
    // An image list failure is logged only.
    console.error(`Could not load the ${type} images`, error);
    throw error;
  }
}

/**
 * The images of a type. Fetched whenever the screen opens, and again after each
 * upload or delete of that type.
 */
export const imagesQuery = (type: ImageType) =>
  queryOptions({
    queryKey: contentKeys.images(type),
    queryFn: () => fetchImages(type),
    staleTime: 0,
  });

export const useImages = (type: ImageType) => useQuery(imagesQuery(type));

export interface UploadInput {
  file: File;
  /** Called with the share of the file sent so far, 0 to 1. */
  onProgress?: (share: number) => void;
}

/** POST /api/file/upload, multipart with the fields `type` and `file`. */
async function uploadImage(type: ImageType, { file, onProgress }: UploadInput) {
  const form = new FormData();
  form.append('type', type);
  form.append('file', file, file.name);
  const { data } = await api.post<Answer<typeof imageResponse>>(API_PATHS.uploadFile, form, {
    // Replaces the client's JSON default; the browser then adds the multipart boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
    onUploadProgress: (event) => {
      const share = event.total ? event.loaded / event.total : event.progress;
      if (onProgress && share !== undefined) onProgress(Math.min(1, share));
    },
  });
  return expectSuccess(data);
}

/** POST /api/file/delete by id; `path` must be that image's storage key. */
async function deleteImage(image: Pick<ImageRecord, 'ID' | 'PATH'>, key: string) {
  const body: DeleteFileRequest = { id: image.ID, path: image.PATH };
  const { data } = await api.post<Answer<typeof messageResponse>>(
    API_PATHS.deleteFile,
    body,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

/**
 * Uploads an image of `type`; the list of that type is fetched again afterwards. A plain
 * mutation, not a change: a file is not a value a repeated press could be matched by.
 */
export function useUploadImage(type: ImageType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UploadInput) => uploadImage(type, input),
    // Also after a refusal: the list (and so the held count) may have changed meanwhile.
    onSettled: () => refetchAfterChange(queryClient, contentKeys.images(type)),
  });
}

/**
 * Deletes an image of `type`; the list of that type is fetched again afterwards, refused or
 * not, before the delete counts as done (the dialog then closes on the new list).
 */
export function useDeleteImage(type: ImageType) {
  const queryClient = useQueryClient();
  return useChange(
    async (image: ImageRecord, key: string) => {
      try {
        return await deleteImage(image, key);
      } finally {
        await refetchAfterChange(queryClient, contentKeys.images(type));
      }
    },
    { failed: MESSAGES.imageDeleteFailed },
  );
}
