import type {
  TCampaignCreateInput,
  TConfigHistoryQuery,
  TConfigVersion,
  TDeviceConfigSet,
  TDeviceConfigState,
  TDeviceSeries,
  TPage,
} from '@blrms/contracts';
import { deviceChannel } from '@blrms/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/client';
import { useChannel, useRealtimeMessage } from '../../realtime/use-realtime';
import { previewCampaign } from '../campaign/use-campaigns';

const BASE = '/device/config';

/** A device's configuration state and its history share this prefix. */
const configKey = (deviceId: string) => ['deviceConfig', deviceId] as const;
const stateKey = (deviceId: string) => [...configKey(deviceId), 'state'] as const;
const historyKey = (deviceId: string) => [...configKey(deviceId), 'history'] as const;

export type ConfigHistoryParams = Omit<TConfigHistoryQuery, '_t'>;
export type ConfigHistoryPage = TPage<TConfigVersion>;

export function useDeviceConfig(deviceId: string) {
  return useQuery({
    queryKey: stateKey(deviceId),
    queryFn: () => http.get<TDeviceConfigState>(BASE, { deviceId }),
  });
}

export function useConfigHistory(params: ConfigHistoryParams) {
  return useQuery({
    queryKey: [...historyKey(params.deviceId), params],
    queryFn: () => http.get<ConfigHistoryPage>(`${BASE}/history`, params),
    placeholderData: keepPreviousData,
  });
}

/**
 * Sets a device's desired configuration. The editor shows a 400 on its field and a 409 (someone
 * else changed it meanwhile) itself, so the HTTP client stays quiet.
 */
export function useSetDeviceConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TDeviceConfigSet) =>
      http.put<TDeviceConfigState>(BASE, body, { silent: true }),
    onSuccess: async (state) => {
      client.setQueryData(stateKey(state.deviceId), state);
      await client.invalidateQueries({ queryKey: historyKey(state.deviceId) });
    },
  });
}

/**
 * Keeps a device's configuration state current while mounted: the server sends it on the device's
 * channel whenever it changes (a new desired version, the device's report); a new desired version
 * also reloads the history. After each (re)subscription it loads again, as it may have missed one.
 */
export function useLiveDeviceConfig(deviceId: string) {
  const client = useQueryClient();
  useChannel(
    deviceChannel(deviceId),
    () => void client.invalidateQueries({ queryKey: configKey(deviceId) }),
  );
  useRealtimeMessage(['device-config'], ({ config }) => {
    if (config.deviceId !== deviceId) return;
    const before = client.getQueryData<TDeviceConfigState>(stateKey(deviceId));
    client.setQueryData(stateKey(deviceId), config);
    if (before?.desired?.version !== config.desired?.version) {
      void client.invalidateQueries({ queryKey: historyKey(deviceId) });
    }
  });
}

export type BulkPreviewInput = { series: TDeviceSeries; target: TCampaignCreateInput['target'] };

/** How many devices a bulk configuration would touch (idle until there is a whole target). */
export function useBulkPreview(input: BulkPreviewInput | null) {
  return useQuery({
    queryKey: ['campaigns', 'preview', 'config', input],
    queryFn: () =>
      previewCampaign({ kind: 'config', series: input!.series, target: input!.target }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
  });
}
