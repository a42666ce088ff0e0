import type {
  TDict,
  TDictEdit,
  TDictImportResult,
  TDictInput,
  TDictItemInput,
  TDictItemEdit,
  TDictItemListQuery,
  TDictItemPage,
  TDictItemRow,
  TDictListQuery,
  TDictPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { downloadFile, http, request, uploadFile } from '../../api/client';

export type DictParams = Omit<TDictListQuery, '_t'>;
export type DictItemParams = Omit<TDictItemListQuery, '_t'>;

export const DICTS_KEY = 'dicts';
export const DICT_BIN_KEY = 'dictRecycleBin';
export const DICT_ITEMS_KEY = 'dictAdminItems';
/** The selects' cache (shared/use-dict-items.ts): every change of a dictionary makes it stale. */
export const DICT_SELECT_KEY = 'dictItems';

export const dictApi = {
  list: (params: DictParams) => http.get<TDictPage>('/sys/dict/list', params),
  recycleBin: (params: DictParams) => http.get<TDictPage>('/sys/dict/deleteList', params),
  add: (body: TDictInput) => request<TDict>('POST', '/sys/dict/add', { body }),
  edit: (body: TDictEdit) => request<TDict>('PUT', '/sys/dict/edit', { body }),
  delete: (id: string) => request<null>('DELETE', '/sys/dict/delete', { params: { id } }),
  deleteBatch: (ids: string[]) =>
    request<null>('DELETE', '/sys/dict/deleteBatch', { params: { ids: ids.join(',') } }),
  restore: (id: string) => request<null>('PUT', `/sys/dict/back/${id}`, { body: {} }),
  purge: (id: string) => request<null>('DELETE', `/sys/dict/deletePhysic/${id}`),
  refreshCache: () => request<null>('GET', '/sys/dict/refleshCache'),
  export: (filters: Pick<DictParams, 'dictCode' | 'dictName'>) =>
    downloadFile(
      '/sys/dict/exportXls',
      { ...filters, tz: Intl.DateTimeFormat().resolvedOptions().timeZone },
      'dictionaries.xlsx',
    ),
  /** All or nothing: the result lists the file's errors when nothing was written. */
  import: (file: File) => uploadFile<TDictImportResult>('/sys/dict/importExcel', file),
  items: (params: DictItemParams) => http.get<TDictItemPage>('/sys/dictItem/list', params),
  addItem: (body: TDictItemInput) => request<TDictItemRow>('POST', '/sys/dictItem/add', { body }),
  editItem: (body: TDictItemEdit) => request<TDictItemRow>('PUT', '/sys/dictItem/edit', { body }),
  deleteItem: (id: string) => request<null>('DELETE', '/sys/dictItem/delete', { params: { id } }),
  /** Resolves when the value is free; rejects (silently: the form shows it) when it is taken. */
  checkItemValue: (dictId: string, itemValue: string, id?: string) =>
    request<null>('GET', '/sys/dictItem/dictItemCheck', {
      params: { dictId, itemValue, id },
      silent: true,
    }),
};

export function useDicts(params: DictParams) {
  return useQuery({
    queryKey: [DICTS_KEY, params],
    queryFn: () => dictApi.list(params),
    placeholderData: keepPreviousData,
  });
}

export function useDictRecycleBin(params: DictParams, enabled: boolean) {
  return useQuery({
    queryKey: [DICT_BIN_KEY, params],
    queryFn: () => dictApi.recycleBin(params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useDictItemRows(params: DictItemParams) {
  return useQuery({
    queryKey: [DICT_ITEMS_KEY, params],
    queryFn: () => dictApi.items(params),
    placeholderData: keepPreviousData,
  });
}
