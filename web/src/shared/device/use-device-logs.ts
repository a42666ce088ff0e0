import type { TDeviceLog, TDeviceLogQuery, TPage } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

/** The query the device log list sends; `_t` is added by the client. */
export type DeviceLogParams = Omit<TDeviceLogQuery, '_t'>;

export type DeviceLogPage = TPage<TDeviceLog>;

export function useDeviceLogs(params: DeviceLogParams) {
  return useQuery({
    queryKey: ['deviceLogs', params],
    queryFn: () => http.get<DeviceLogPage>('/device/log/list', params),
    placeholderData: keepPreviousData,
  });
}
