import type {
  TFirmware,
  TFirmwareDownloadUrl,
  TFirmwareEdit,
  TFirmwareQuery,
  TFirmwareSettings,
  TFirmwareUploadFields,
  TPage,
  TStorageUsage,
} from '@blrms/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, upload } from '../../api/client';
import { useEntityMutation } from '../../shared/entity/use-entity-mutation';

const FIRMWARE_BASE = '/firmware';
/** Firmware lists, settings and the campaign form's firmware choices share this prefix. */
const KEY = ['firmware'] as const;

export type FirmwareParams = Omit<TFirmwareQuery, '_t'>;

export function useFirmwareList(params: FirmwareParams) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: () => http.get<TPage<TFirmware>>(`${FIRMWARE_BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

export type UploadInput = TFirmwareUploadFields & {
  file: File;
  onProgress: (fraction: number) => void;
};

/**
 * Sends the fields before the file: the server checks them before it stores a byte. The form
 * shows the server's objections on its fields, so the HTTP client stays quiet.
 */
export function useUploadFirmware() {
  return useEntityMutation({
    mutationFn: ({ file, onProgress, ...fields }: UploadInput) => {
      const form = new FormData();
      form.append('series', fields.series);
      form.append('version', fields.version);
      if (fields.releaseNotes) form.append('releaseNotes', fields.releaseNotes);
      form.append('file', file, file.name);
      return upload<TFirmware>(`${FIRMWARE_BASE}/upload`, form, onProgress, {
        silent: true,
        timeoutMs: 0,
      });
    },
    invalidates: [KEY],
  });
}

export function useEditFirmware() {
  return useEntityMutation({
    mutationFn: (body: TFirmwareEdit) => http.put<TFirmware>(`${FIRMWARE_BASE}/edit`, body),
    invalidates: [KEY],
  });
}

export function useDeleteFirmware() {
  return useEntityMutation({
    mutationFn: (id: string) => http.delete<null>(`${FIRMWARE_BASE}/delete`, { id }),
    invalidates: [KEY],
  });
}

/** A signed address the file can be fetched from without a session, valid for a while. */
export function firmwareDownloadUrl(id: string): Promise<TFirmwareDownloadUrl> {
  return http.get<TFirmwareDownloadUrl>(`${FIRMWARE_BASE}/downloadUrl`, { id });
}

/** The size limit, which only platform administrators (`firmware:settings`) may read. */
/** What the company stores and may store; refreshed with the list after uploads and deletes. */
export function useStorageUsage() {
  return useQuery({
    queryKey: [...KEY, 'storage'],
    queryFn: () => http.get<TStorageUsage>(`${FIRMWARE_BASE}/storage`),
  });
}

export function useFirmwareSettings(enabled: boolean) {
  return useQuery({
    queryKey: [...KEY, 'settings'],
    queryFn: () => http.get<TFirmwareSettings>(`${FIRMWARE_BASE}/settings`),
    enabled,
  });
}

export function useSaveFirmwareSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TFirmwareSettings) =>
      http.put<TFirmwareSettings>(`${FIRMWARE_BASE}/settings`, body),
    onSuccess: (saved) => client.setQueryData([...KEY, 'settings'], saved),
  });
}
