import type {
  TForceLogout,
  TMonitorDatabase,
  TMonitorNodes,
  TMonitorRedis,
  TMonitorTrace,
  TOnlineUserPage,
  TOnlineUserQuery,
} from '@blrms/contracts';
import { MONITOR_SNAPSHOT_INTERVAL_MS } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

/** The screen follows the nodes' snapshots; TanStack Query pauses it while the tab is hidden. */
export const REFRESH_MS = MONITOR_SNAPSHOT_INTERVAL_MS;

function useLive<T>(part: string, enabled: boolean) {
  return useQuery({
    queryKey: ['monitor', part],
    queryFn: () => http.get<T>(`/sys/monitor/${part}`),
    enabled,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
  });
}

export const useMonitorNodes = (enabled: boolean) => useLive<TMonitorNodes>('nodes', enabled);
export const useMonitorDatabase = (enabled: boolean) =>
  useLive<TMonitorDatabase>('database', enabled);
export const useMonitorRedis = (enabled: boolean) => useLive<TMonitorRedis>('redis', enabled);
export const useMonitorTrace = (enabled: boolean) => useLive<TMonitorTrace>('trace', enabled);

/** The query the online-user page sends; `_t` is added by the client. */
export type OnlineUserParams = Omit<TOnlineUserQuery, '_t'>;

export function useOnlineUsers(params: OnlineUserParams) {
  return useQuery({
    queryKey: ['onlineUsers', params],
    queryFn: () => http.get<TOnlineUserPage>('/sys/online/list', params),
    placeholderData: keepPreviousData,
  });
}

export function useForceLogout() {
  return useEntityMutation({
    mutationFn: (input: TForceLogout) =>
      request<null>('POST', '/sys/online/forceLogout', { body: input }),
    invalidates: [['onlineUsers']],
    successMessage: serverMessage,
  });
}
