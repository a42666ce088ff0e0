import type {
  TDictPage,
  TLocationTree,
  TOnlineForm,
  TOnlineFormEdit,
  TOnlineFormInput,
  TOnlineFormListQuery,
  TOnlineFormMeta,
  TOnlineHistoryEntry,
  TOnlineRecord,
  TOnlineRecordAdd,
  TOnlineRecordEdit,
  TOnlineRecordImportResult,
  TOnlineRecordListQuery,
  TOssFile,
  TOssFileLink,
  TPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadFile, http, request, upload } from '../../api/client';

export type FormParams = Omit<TOnlineFormListQuery, '_t'>;
export type RecordParams = Omit<TOnlineRecordListQuery, '_t'>;
export type ExportFormat = 'xlsx' | 'csv';

/** Definitions (list and one) share this prefix; a change of one refreshes them all. */
export const FORMS_KEY = 'onlineForms';
/** A form's page (definition, records, history) shares `[RECORDS_KEY, code]`. */
export const RECORDS_KEY = 'onlineRecords';
/** The menu shows published forms: publishing or unpublishing one refetches it. */
export const MENU_KEY = 'userPermission';

const data = (code: string) => `/online/data/${encodeURIComponent(code)}`;

export const formApi = {
  list: (params: FormParams) => http.get<TPage<TOnlineForm>>('/online/form/list', params),
  get: (id: string) => http.get<TOnlineForm>('/online/form/queryById', { id }),
  add: (body: TOnlineFormInput) => request<TOnlineForm>('POST', '/online/form/add', { body }),
  edit: (body: TOnlineFormEdit) => request<TOnlineForm>('PUT', '/online/form/edit', { body }),
  delete: (id: string) => request<null>('DELETE', '/online/form/delete', { params: { id } }),
  publish: (id: string) => request<TOnlineForm>('PUT', '/online/form/publish', { body: { id } }),
  unpublish: (id: string) =>
    request<TOnlineForm>('PUT', '/online/form/unpublish', { body: { id } }),
};

export const recordApi = {
  meta: (code: string) => http.get<TOnlineFormMeta>(`${data(code)}/meta`),
  list: (code: string, params: RecordParams) =>
    http.get<TPage<TOnlineRecord>>(`${data(code)}/list`, params),
  add: (code: string, body: TOnlineRecordAdd) =>
    request<TOnlineRecord>('POST', `${data(code)}/add`, { body }),
  edit: (code: string, body: TOnlineRecordEdit) =>
    request<TOnlineRecord>('PUT', `${data(code)}/edit`, { body }),
  delete: (code: string, id: string) =>
    request<null>('DELETE', `${data(code)}/delete`, { params: { id } }),
  deleteBatch: (code: string, ids: string[]) =>
    request<null>('DELETE', `${data(code)}/deleteBatch`, { body: { ids } }),
  history: (code: string, recordId: string, pageNo: number) =>
    http.get<TPage<TOnlineHistoryEntry>>(`${data(code)}/history`, {
      recordId,
      pageNo,
      pageSize: 10,
    }),
  export: (
    code: string,
    format: ExportFormat,
    query: Pick<RecordParams, 'column' | 'order' | 'search'>,
  ) =>
    downloadFile(
      `${data(code)}/exportXls`,
      { ...query, format, tz: Intl.DateTimeFormat().resolvedOptions().timeZone },
      `${code}.${format}`,
    ),
  /** A preview (`dryRun`) checks every row and writes nothing; then the good rows are written. */
  import: (code: string, file: File, dryRun: boolean, onProgress: (fraction: number) => void) => {
    const form = new FormData();
    form.append('dryRun', String(dryRun));
    form.append('file', file, file.name);
    return upload<TOnlineRecordImportResult>(`${data(code)}/importExcel`, form, onProgress);
  },
};

/** The pickers' look-ups, each answering nothing (and no notice) when the caller may not read them. */
export const pickerApi = {
  dicts: () =>
    http.get<TDictPage>('/sys/dict/list', { pageNo: 1, pageSize: 500, column: 'dictCode' }),
  devices: (sn: string) =>
    http.get<TPage<{ id: string; sn: string; name: string }>>(
      '/device/device/list',
      { sn: sn || undefined, pageNo: 1, pageSize: 20, column: 'sn', order: 'asc' },
      { silent: true },
    ),
  locations: () => http.get<TLocationTree>('/base/location/tree', undefined, { silent: true }),
  uploadFile: (file: File, onProgress: (fraction: number) => void) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<TOssFile>('/sys/oss/file/upload', form, onProgress, { timeoutMs: 0 });
  },
  fileLink: (id: string) => http.get<TOssFileLink>('/sys/oss/file/url', { id, mode: 'download' }),
};

export function useForms(params: FormParams) {
  return useQuery({
    queryKey: [FORMS_KEY, 'list', params],
    queryFn: () => formApi.list(params),
    placeholderData: keepPreviousData,
  });
}

export function useFormMeta(code: string) {
  return useQuery({
    queryKey: [RECORDS_KEY, code, 'meta'],
    queryFn: () => recordApi.meta(code),
    retry: false,
  });
}

/** Records and history carry texts in the request language (display texts, labels). */
export function useRecords(code: string, params: RecordParams) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [RECORDS_KEY, code, 'list', i18n.language, params],
    queryFn: () => recordApi.list(code, params),
    placeholderData: keepPreviousData,
  });
}

export function useRecordHistory(code: string, recordId: string, pageNo: number) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [RECORDS_KEY, code, 'history', i18n.language, recordId, pageNo],
    queryFn: () => recordApi.history(code, recordId, pageNo),
    placeholderData: keepPreviousData,
  });
}

export function useDictChoices(enabled: boolean) {
  return useQuery({
    queryKey: [FORMS_KEY, 'dicts'],
    queryFn: pickerApi.dicts,
    staleTime: 60_000,
    enabled,
  });
}

export function useLocationTree() {
  return useQuery({
    queryKey: ['onlineLocations'],
    queryFn: pickerApi.locations,
    staleTime: 60_000,
    retry: false,
  });
}
