import type { TListByUser, TUserAnnouncement } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { http } from '../../api/client';

/** Every query about the caller's announcements starts with this key, so one call reloads them. */
export const MY_ANNOUNCEMENTS_KEY = ['myAnnouncements'] as const;

export const announcementApi = {
  listByUser: () => http.get<TListByUser>('/sys/annountCement/listByUser'),
  queryById: (id: string) => http.get<TUserAnnouncement>('/sys/annountCement/queryById', { id }),
  markRead: (anntId: string) =>
    http.put<null>('/sys/sysAnnouncementSend/editByAnntIdAndUserId', { anntId }),
  readAll: () => http.put<null>('/sys/sysAnnouncementSend/readAll', {}),
};

/** Reloads the bell and the "my announcements" list. */
export function useReloadMyAnnouncements(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: MY_ANNOUNCEMENTS_KEY }),
    [queryClient],
  );
}
