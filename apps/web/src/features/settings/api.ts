import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  IDEMPOTENCY_HEADER,
  SHOP_SETTINGS_TEXTS,
  type ShopSettingsForm,
  type shopSettingsResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { reloadBranding } from '../../lib/branding';
import { useChange } from '../../lib/change';

const texts = SHOP_SETTINGS_TEXTS;

/** GET /api/settings/shop: the shop's name, tagline, GSTIN, phones and logo (owner). */
export const shopSettingsQuery = queryOptions({
  queryKey: ['shop-settings'] as const,
  queryFn: async () => {
    const { data } = await api.get<Answer<typeof shopSettingsResponse>>(API_PATHS.shopSettings);
    return expectSuccess(data).data;
  },
  staleTime: 0,
});

type Saved = Answer<typeof shopSettingsResponse>;

/** What every change here does once made: the screen and the shell show the settings saved. */
function useSettled() {
  const queryClient = useQueryClient();
  return (answer: Saved) => {
    queryClient.setQueryData(shopSettingsQuery.queryKey, answer.data);
    reloadBranding();
  };
}

/** PUT /api/settings/shop. */
async function saveShopSettings(form: ShopSettingsForm, key: string) {
  const { data } = await api.put<Answer<typeof shopSettingsResponse>>(
    API_PATHS.saveShopSettings,
    form,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export const useSaveShopSettings = () =>
  useChange(saveShopSettings, { onSuccess: useSettled(), failed: texts.saveFailed });

export interface LogoUpload {
  file: File;
  /** The file's name, size and time: a repeat after a lost answer is the same file's. */
  fingerprint: string;
}

export const logoUpload = (file: File): LogoUpload => ({
  file,
  fingerprint: `${file.name}:${file.size}:${file.lastModified}`,
});

/** POST /api/settings/shop/logo, multipart with the field `file`. */
async function uploadLogo({ file }: LogoUpload, key: string) {
  const form = new FormData();
  form.append('file', file, file.name);
  const { data } = await api.post<Answer<typeof shopSettingsResponse>>(
    API_PATHS.uploadShopLogo,
    form,
    // Replaces the client's JSON default; the browser then adds the multipart boundary.
    { headers: { 'Content-Type': 'multipart/form-data', [IDEMPOTENCY_HEADER]: key } },
  );
  return expectSuccess(data);
}

export const useUploadLogo = () =>
  useChange(uploadLogo, { onSuccess: useSettled(), failed: texts.uploadFailed });

/** DELETE /api/settings/shop/logo. */
async function removeLogo(_input: null, key: string) {
  const { data } = await api.delete<Answer<typeof shopSettingsResponse>>(
    API_PATHS.removeShopLogo,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export const useRemoveLogo = () =>
  useChange(removeLogo, { onSuccess: useSettled(), failed: texts.removeFailed });
