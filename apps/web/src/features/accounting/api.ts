import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ACCOUNTING_TEXTS,
  API_PATHS,
  RAZORPAY_SETTLEMENTS_HEADER,
  tallyFileName,
  type AccountingSettings,
  type accountingSettingsResponse,
  type TallyPushRequest,
  type tallyExportResponse,
  type tallyPushResponse,
} from '@kanak/contract';
import { AxiosError } from 'axios';
import { api, ApiRefusal, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';
import { saveXmlFile } from '../../components/saveFile';

const settingsKey = ['accounting-settings'] as const;

/** GET /api/settings/accounting: the Tally company and ledger names (owner). */
export const useAccountingSettings = () =>
  useQuery({
    queryKey: settingsKey,
    queryFn: async () => {
      const { data } = await api.get<Answer<typeof accountingSettingsResponse>>(
        API_PATHS.accountingSettings,
      );
      return expectSuccess(data).data;
    },
  });

/** POST /api/settings/accounting. */
async function saveSettings(form: AccountingSettings, key: string) {
  const { data } = await api.post<Answer<typeof accountingSettingsResponse>>(
    API_PATHS.accountingSettings,
    form,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useSaveAccountingSettings() {
  const queryClient = useQueryClient();
  return useChange(saveSettings, {
    onSuccess: (answer) => queryClient.setQueryData(settingsKey, answer.data),
    failed: ACCOUNTING_TEXTS.saveFailed,
  });
}

/**
 * POST /api/accounting/tally-export: the import file, saved under its dated name. The answer
 * is read as text, so a refusal's JSON envelope is read here into the usual refusal.
 */
export async function downloadTallyFile(request: {
  from: string;
  to: string;
  branch?: string;
}): Promise<{ settlements: string | null }> {
  try {
    const { data, headers } = await api.post<Answer<typeof tallyExportResponse>>(
      API_PATHS.tallyExport,
      request,
      {
        responseType: 'text',
      },
    );
    saveXmlFile(data, tallyFileName(request));
    // What the file holds of Razorpay's payouts: their number, `not-set` or `branch`.
    const settlements: unknown = headers[RAZORPAY_SETTLEMENTS_HEADER];
    return { settlements: typeof settlements === 'string' ? settlements : null };
  } catch (error) {
    const answer = error instanceof AxiosError ? error.response : undefined;
    if (answer && answer.status >= 400 && answer.status < 500 && answer.status !== 401) {
      let message = '';
      try {
        message = (JSON.parse(String(answer.data)) as { message?: string }).message ?? '';
      } catch {
        // Not the envelope: the screen's own words.
      }
      throw new ApiRefusal(message, answer.status);
    }
    throw error;
  }
}

/** POST /api/accounting/tally-push: Tally's answer, counted. */
async function pushToTally(request: TallyPushRequest, key: string) {
  const { data } = await api.post<Answer<typeof tallyPushResponse>>(
    API_PATHS.tallyPush,
    request,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export const usePushToTally = () => useChange(pushToTally);
