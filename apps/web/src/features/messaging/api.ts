import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  MESSAGES,
  PANEL_CHOICES,
  TEST_MESSAGE_TEXTS,
  type PanelConfig,
  type PanelConfigForm,
  type PanelSetupRequest,
  type messageResponse,
  type panelConfigResponse,
  type testMessageResponse,
} from '@kanak/contract';
import { api, expectSuccess, withIdempotencyKey, type Answer } from '../../lib/api';
import { useChange } from '../../lib/change';

export const messagingKeys = {
  all: ['messaging'] as const,
  panelConfig: ['messaging', 'panel-config'] as const,
};

/** GET /api/social/get-panel-config: the saved configuration (empty fields when never saved). */
async function fetchPanelConfig(): Promise<PanelConfig> {
  const { data } = await api.get<Answer<typeof panelConfigResponse>>(API_PATHS.panelConfig);
  return expectSuccess(data).data;
}

/**
 * The saved panel configuration, fetched each time the screen opens. It carries the token,
 * a secret: nothing keeps it once the screen is closed.
 */
export const panelConfigQuery = queryOptions({
  queryKey: messagingKeys.panelConfig,
  queryFn: fetchPanelConfig,
  staleTime: 0,
  gcTime: 0,
});

export const usePanelConfig = () => useQuery(panelConfigQuery);

/** POST /api/social/panel-setup `{ formData }`. */
async function savePanelConfig(formData: PanelConfigForm, key: string) {
  const body: PanelSetupRequest = { formData };
  const { data } = await api.post<Answer<typeof messageResponse>>(
    API_PATHS.panelSetup,
    body,
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export function useSavePanelConfig() {
  const queryClient = useQueryClient();
  return useChange(savePanelConfig, {
    // What the server now holds; REVERT returns to this.
    onSuccess: (_data, saved) =>
      queryClient.setQueryData<PanelConfig>(messagingKeys.panelConfig, {
        instanceid: saved.instanceid,
        token: saved.token,
        panel: PANEL_CHOICES.find((choice) => choice === saved.panel) ?? '',
        phone: saved.phone,
      }),
    failed: MESSAGES.panelSaveFailed,
  });
}

/**
 * POST /api/social/test-message: one message to the saved Phone, sent now. The answer says
 * whether the provider took it, with its HTTP status and words.
 */
async function sendTestMessage(_nothing: null, key: string) {
  const { data } = await api.post<Answer<typeof testMessageResponse>>(
    API_PATHS.testMessage,
    {},
    withIdempotencyKey(key),
  );
  return expectSuccess(data);
}

export const useSendTestMessage = () =>
  useChange(sendTestMessage, { failed: TEST_MESSAGE_TEXTS.failed });
