import type {
  TAnnouncement,
  TAnnouncementCreateInput,
  TAnnouncementPage,
  TAnnouncementQuery,
  TAudienceOptions,
} from '@blrms/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { http, request } from '../../api/client';

export type AnnouncementParams = Omit<TAnnouncementQuery, '_t'>;

const KEY = ['announcements'] as const;

export function useAnnouncements(params: AnnouncementParams) {
  return useQuery({
    queryKey: [...KEY, params],
    queryFn: () => http.get<TAnnouncementPage>('/sys/annountCement/list', params),
    placeholderData: keepPreviousData,
  });
}

export function useAudienceOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['announcementAudience'],
    queryFn: () => http.get<TAudienceOptions>('/sys/annountCement/audienceOptions'),
    enabled,
    staleTime: 60_000,
  });
}

export function useReloadAnnouncements() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: KEY }), [queryClient]);
}

/** The calls return the server's localized message, which the page shows on success. */
export const announcementAdminApi = {
  add: (body: TAnnouncementCreateInput) => http.post<TAnnouncement>('/sys/annountCement/add', body),
  edit: (body: TAnnouncementCreateInput & { id: string }) =>
    http.put<TAnnouncement>('/sys/annountCement/edit', body),
  remove: (id: string) => request<null>('DELETE', '/sys/annountCement/delete', { params: { id } }),
  release: (id: string) =>
    request<null>('GET', '/sys/annountCement/doReleaseData', { params: { id } }),
  revoke: (id: string) =>
    request<null>('GET', '/sys/annountCement/doReovkeData', { params: { id } }),
};
