import type { TDeviceTelemetryHistory, TDeviceTelemetryLatest } from '@blrms/contracts';
import { deviceChannel } from '@blrms/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceEventPage, DeviceEventParams } from '../../api/device-data';
import { deviceDataApi } from '../../api/device-data';
import { useChannel, useRealtimeMessage } from '../../realtime/use-realtime';
import type { TelemetryRange } from './device-data';
import { TELEMETRY_RANGES, withEvent, withPoint, withSample } from './device-data';

/** Everything the monitoring tab loads for one device shares this prefix. */
const dataKey = (deviceId: string) => ['deviceData', deviceId] as const;
const latestKey = (deviceId: string) => [...dataKey(deviceId), 'latest'] as const;
const historyKey = (deviceId: string, range: TelemetryRange) =>
  [...dataKey(deviceId), 'history', range] as const;
const eventsKey = (deviceId: string) => [...dataKey(deviceId), 'events'] as const;

export function useTelemetryLatest(deviceId: string) {
  return useQuery({
    queryKey: latestKey(deviceId),
    queryFn: () => deviceDataApi.latestTelemetry(deviceId),
  });
}

/** The samples of the last hour, day or week, up to now (the range moves on with live samples). */
export function useTelemetryHistory(deviceId: string, range: TelemetryRange) {
  return useQuery({
    queryKey: historyKey(deviceId, range),
    queryFn: () => {
      const end = Date.now();
      return deviceDataApi.telemetryHistory(
        deviceId,
        new Date(end - TELEMETRY_RANGES[range]).toISOString(),
        new Date(end).toISOString(),
      );
    },
    placeholderData: keepPreviousData,
  });
}

export function useDeviceEvents(params: DeviceEventParams) {
  return useQuery({
    queryKey: [...eventsKey(params.deviceId), params],
    queryFn: () => deviceDataApi.events(params),
    placeholderData: keepPreviousData,
  });
}

/**
 * Keeps a device's monitoring data current while mounted: its channel's telemetry updates the
 * latest values and the charts, its events join the event lists; once the subscription is
 * confirmed (at first and after a reconnect) the data loads again, as it may have missed a sample.
 */
export function useLiveDeviceData(deviceId: string) {
  const client = useQueryClient();
  useChannel(
    deviceChannel(deviceId),
    () => void client.invalidateQueries({ queryKey: dataKey(deviceId) }),
  );
  useRealtimeMessage(['device-telemetry', 'device-event'], (message) => {
    if (message.type === 'device-telemetry') {
      if (message.deviceId !== deviceId) return;
      const { point } = message;
      client.setQueryData<TDeviceTelemetryLatest>(latestKey(deviceId), (latest) =>
        latest ? withSample(latest, point) : latest,
      );
      const now = Date.now();
      for (const range of Object.keys(TELEMETRY_RANGES) as TelemetryRange[]) {
        client.setQueryData<TDeviceTelemetryHistory>(historyKey(deviceId, range), (history) =>
          history ? withPoint(history, point, TELEMETRY_RANGES[range], now) : history,
        );
      }
      return;
    }
    const { event } = message;
    if (event.deviceId !== deviceId) return;
    for (const [key, page] of client.getQueriesData<DeviceEventPage>({
      queryKey: eventsKey(deviceId),
    })) {
      const params = key[3] as DeviceEventParams | undefined;
      if (page && params) client.setQueryData(key, withEvent(page, params, event));
    }
  });
}
