import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  type PanelConfig,
  type PanelConfigForm,
  type PanelSetupRequest,
} from '@kanak/contract';
import { api, expectSuccess, type Envelope } from '../../lib/api';

export const messagingKeys = {
  all: ['messaging'] as const,
  panelConfig: ['messaging', 'panel-config'] as const,
};

interface PanelConfigResponse extends Envelope {
  data?: PanelConfig;
}

/** GET /api/social/get-panel-config: the saved configuration (empty fields when never saved). */
async function fetchPanelConfig(): Promise<PanelConfig> {
  const { data } = await api.get<PanelConfigResponse>(API_PATHS.panelConfig);
  const config = expectSuccess(data).data;
  if (!config) throw new Error('get-panel-config answered without data');
  return config;
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
async function savePanelConfig(formData: PanelConfigForm) {
  const body: PanelSetupRequest = { formData };
  const { data } = await api.post<Envelope>(API_PATHS.panelSetup, body);
  return expectSuccess(data);
}

export function useSavePanelConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePanelConfig,
    // What the server now holds; REVERT returns to this.
    onSuccess: (_data, saved) =>
      queryClient.setQueryData<PanelConfig>(messagingKeys.panelConfig, {
        instanceid: saved.instanceid,
        token: saved.token,
        panel: saved.panel as PanelConfig['panel'],
        phone: saved.phone,
      }),
  });
}
