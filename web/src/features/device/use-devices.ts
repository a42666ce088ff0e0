import {
  PAGE_SIZE_MAX,
  type TBatchResult,
  type TDevice,
  type TDeviceCreate,
  type TDeviceEdit,
  type TDeviceExportQuery,
  type TDeviceGroupOption,
  type TDeviceImportResult,
  type TDeviceMoveToGroup,
  type TDeviceQuery,
  type TDeviceTagCount,
  type TDeviceTagsChange,
  type TDeviceToken,
  type TGoods,
  type TLocationTree,
  type TPage,
  type TVendor,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { downloadFile, http, upload } from '../../api/client';
import { useEntityMutation } from '../../shared/entity/use-entity-mutation';

const BASE = '/device/device';
/** Device lists and single devices share this prefix, so one invalidation reloads them all. */
const KEY = ['devices'] as const;

/** The list's query as sent: tags travel comma-separated. */
export type DeviceParams = Omit<TDeviceQuery, '_t' | 'tags'> & { tags?: string };
/** What the list reads of a page (live updates patch the cached one). */
export type DevicePage = Pick<TPage<TDevice>, 'records' | 'total'>;

export const deviceListKey = (params: DeviceParams) => [...KEY, 'list', params] as const;
export const deviceKey = (id: string) => [...KEY, 'one', id] as const;

export function useDevices(params: DeviceParams) {
  return useQuery({
    queryKey: deviceListKey(params),
    queryFn: () => http.get<DevicePage>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

export function useDevice(id: string) {
  return useQuery({
    queryKey: deviceKey(id),
    queryFn: () => http.get<TDevice>(`${BASE}/queryById`, { id }),
  });
}

/** The company's groups, for selects and filters. */
export function useGroupOptions() {
  return useQuery({
    queryKey: ['deviceGroups', 'options'],
    queryFn: () => http.get<TDeviceGroupOption[]>('/device/group/queryall'),
  });
}

/** The company's token keys (at most 1000, the page limit), for selects and filters. */
export function useTokenOptions() {
  return useQuery({
    queryKey: ['deviceTokens', 'options'],
    queryFn: () =>
      http
        .get<TPage<TDeviceToken>>('/device/token/list', {
          pageNo: 1,
          pageSize: 1000,
          column: 'name',
          order: 'asc',
        })
        .then((page) => page.records),
  });
}

/** The company's device tags with their counts (most used first), for filters and inputs. */
export function useDeviceTags() {
  return useQuery({
    queryKey: [...KEY, 'tags'],
    queryFn: () => http.get<TDeviceTagCount[]>('/device/tags'),
  });
}

/**
 * Base data for the device form and filters. A user who may manage devices but not read base
 * data gets no options (silently): the form then shows the device's current names only.
 */
function useBaseOptions<T>(key: string, path: string, params?: Record<string, string | number>) {
  return useQuery({
    queryKey: ['baseData', key, 'options'],
    queryFn: () => http.get<T>(path, params, { silent: true }),
    retry: false,
  });
}

const ALL_ROWS = { pageNo: 1, pageSize: PAGE_SIZE_MAX, order: 'asc' };

export function useGoodsOptions() {
  return useBaseOptions<TPage<TGoods>>('goods', '/base/goods/list', {
    ...ALL_ROWS,
    column: 'model',
  });
}

export function useVendorOptions() {
  return useBaseOptions<TPage<TVendor>>('vendor', '/base/vendor/list', {
    ...ALL_ROWS,
    column: 'name',
  });
}

export function useLocationTree() {
  return useBaseOptions<TLocationTree>('location', '/base/location/tree');
}

/**
 * Device changes also change the counts on the group and token pages and the dashboard's
 * figures, so those reload too.
 */
function useDeviceMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  return useEntityMutation({
    mutationFn: run,
    invalidates: [KEY, ['deviceGroups'], ['deviceTokens'], ['deviceSummary']],
  });
}

export function useCreateDevice() {
  return useDeviceMutation((body: TDeviceCreate) => http.post<TDevice>(`${BASE}/add`, body));
}

export function useEditDevice() {
  return useDeviceMutation((body: TDeviceEdit) => http.put<TDevice>(`${BASE}/edit`, body));
}

export function useDeleteDevices() {
  return useDeviceMutation((ids: string[]) =>
    ids.length === 1
      ? http.delete<null>(`${BASE}/delete`, { id: ids[0] })
      : http.delete<null>(`${BASE}/deleteBatch`, { ids: ids.join(',') }),
  );
}

export function useChangeTags() {
  return useDeviceMutation(
    ({ action, ...body }: TDeviceTagsChange & { action: 'add' | 'remove' }) =>
      http.post<TBatchResult>(`/device/tags/${action}`, body),
  );
}

export function useMoveToGroup() {
  return useDeviceMutation((body: TDeviceMoveToGroup) =>
    http.put<TBatchResult>(`${BASE}/moveToGroup`, body),
  );
}

/** After an import the lists reload; the import itself is `importDevices`. */
export function useImportDevices() {
  return useDeviceMutation(
    ({
      file,
      tokenId,
      dryRun,
      onProgress,
    }: {
      file: File;
      tokenId: string;
      dryRun: boolean;
      onProgress: (fraction: number) => void;
    }) => {
      const form = new FormData();
      form.append('tokenId', tokenId);
      form.append('dryRun', String(dryRun));
      form.append('file', file, file.name);
      return upload<TDeviceImportResult>(`${BASE}/importExcel`, form, onProgress);
    },
  );
}

export type ExportParams = Omit<TDeviceExportQuery, '_t' | 'tz' | 'tags'> & { tags?: string };

/**
 * Downloads the devices matching the filter as CSV or XLSX, its times in this browser's zone as
 * the list shows them.
 */
export function exportDevices(params: ExportParams): Promise<void> {
  const fallbackName = `devices-${dayjs().format('YYYYMMDD-HHmmss')}.${params.format}`;
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return downloadFile(`${BASE}/exportXls`, { ...params, tz }, fallbackName);
}
