import type {
  TDeviceGroupOption,
  TSiteList,
  TSiteListQuery,
  TSiteMapSettings,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { MAP_TILES_KEY } from '../../shared/map/use-map-tiles';

/** How often the markers' colours are read again while the page is open. */
export const REFRESH_MS = 30_000;

export function useSites(query: TSiteListQuery) {
  return useQuery({
    queryKey: ['siteMap', query],
    queryFn: () => http.get<TSiteList>('/base/sites/list', query),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

export function useGroupOptions() {
  return useQuery({
    queryKey: ['deviceGroups', 'all'],
    queryFn: () => http.get<TDeviceGroupOption[]>('/device/group/queryall'),
    staleTime: 60_000,
  });
}

export function useSaveTiles() {
  return useEntityMutation({
    mutationFn: (body: TSiteMapSettings) =>
      request<TSiteMapSettings>('PUT', '/base/sites/settings', { body }),
    invalidates: [MAP_TILES_KEY],
    successMessage: serverMessage,
  });
}
