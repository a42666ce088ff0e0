import type {
  TDevice,
  TDeviceAvailability,
  TDeviceConnection,
  TDeviceConnectionQuery,
  TPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

export type ConnectionParams = Omit<TDeviceConnectionQuery, '_t'>;
export type ConnectionPage = TPage<TDeviceConnection>;

/**
 * What the queries depend on besides their parameters: the device's presence. A connect or a
 * disconnect (live, through the detail page's channel) changes it, and the history loads again.
 */
const presenceOf = (device: TDevice) =>
  [device.status, device.lastConnectAt, device.lastDisconnectAt] as const;

export function useDeviceConnections(device: TDevice, params: ConnectionParams) {
  return useQuery({
    queryKey: ['deviceConnections', device.id, params, ...presenceOf(device)],
    queryFn: () => http.get<ConnectionPage>('/device/connection/list', params),
    placeholderData: keepPreviousData,
  });
}

export function useDeviceAvailability(device: TDevice) {
  return useQuery({
    queryKey: ['deviceAvailability', device.id, ...presenceOf(device)],
    queryFn: () =>
      http.get<TDeviceAvailability>('/device/connection/availability', { deviceId: device.id }),
    placeholderData: keepPreviousData,
  });
}
