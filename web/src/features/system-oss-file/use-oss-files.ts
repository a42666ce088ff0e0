import type {
  TOssFile,
  TOssFileLink,
  TOssFileQuery,
  TOssFileStorage,
  TPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request, upload } from '../../api/client';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

const BASE = '/sys/oss/file';
/** The list and the storage usage share this prefix: an upload or a delete refreshes both. */
const KEY = ['oss-files'] as const;

export type OssFileParams = Omit<TOssFileQuery, '_t'>;

export function useOssFiles(params: OssFileParams) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: () => http.get<TPage<TOssFile>>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

/** What the company stores (firmware and files) of its quota, and the per-file limit. */
export function useOssStorage() {
  return useQuery({
    queryKey: [...KEY, 'storage'],
    queryFn: () => http.get<TOssFileStorage>(`${BASE}/storage`),
  });
}

/**
 * Sends one file as the part `file`; the bar follows the bytes sent. No timeout: a 100 MB file
 * on a slow line takes longer than any fixed limit. The modal shows the server's objections.
 */
export function useUploadOssFile() {
  return useEntityMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return upload<TOssFile>(`${BASE}/upload`, form, onProgress, { silent: true, timeoutMs: 0 });
    },
    invalidates: [KEY],
  });
}

/** Deletes after the user confirmed; the server's message says it is done. */
export function useDeleteOssFile() {
  return useEntityMutation({
    mutationFn: (id: string) => request<null>('DELETE', `${BASE}/delete`, { params: { id } }),
    invalidates: [KEY],
    successMessage: serverMessage,
  });
}

/**
 * A signed address of the file, valid for a few minutes: <img>, frames and the browser's own
 * download cannot send the session header, and the server decides what a preview may show.
 */
export function ossFileLink(id: string, mode: 'download' | 'preview'): Promise<TOssFileLink> {
  return http.get<TOssFileLink>(`${BASE}/url`, { id, mode });
}
