import type {
  TDataRetention,
  TDeviceEvent,
  TDeviceEventQuery,
  TDeviceTelemetryHistory,
  TDeviceTelemetryLatest,
  TPage,
} from '@blrms/contracts';
import { http } from './client';

export type DeviceEventParams = Omit<TDeviceEventQuery, '_t'>;
/** What the table reads of a page (live events patch the cached one). */
export type DeviceEventPage = Pick<TPage<TDeviceEvent>, 'records' | 'total'>;

/** What devices report, as stored (issue 4): telemetry, events, and how long they are kept. */
export const deviceDataApi = {
  latestTelemetry: (deviceId: string) =>
    http.get<TDeviceTelemetryLatest>('/device/telemetry/latest', { deviceId }),
  telemetryHistory: (deviceId: string, begin: string, end: string) =>
    http.get<TDeviceTelemetryHistory>('/device/telemetry/history', { deviceId, begin, end }),
  events: (params: DeviceEventParams) => http.get<DeviceEventPage>('/device/event/list', params),
  retention: () => http.get<TDataRetention>('/device/data/retention'),
  setRetention: (body: TDataRetention) => http.put<TDataRetention>('/device/data/retention', body),
};
