import type {
  TBaseImportResult,
  TGoods,
  TGoodsEdit,
  TGoodsInput,
  TGoodsListQuery,
  TGoodsPage,
  TLocation,
  TLocationEdit,
  TLocationInput,
  TLocationListQuery,
  TLocationPage,
  TLocationTree,
  TOssFileLink,
  TVendor,
  TVendorEdit,
  TVendorInput,
  TVendorListQuery,
  TVendorPage,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { downloadFile, http, request, uploadFile } from '../../api/client';

export type GoodsParams = Omit<TGoodsListQuery, '_t'>;
export type LocationParams = Omit<TLocationListQuery, '_t'>;
export type VendorParams = Omit<TVendorListQuery, '_t'>;
export type BaseEntity = 'goods' | 'location' | 'vendor';
export type SheetFormat = 'xlsx' | 'csv';

export const GOODS_KEY = 'baseGoods';
export const LOCATIONS_KEY = 'baseLocations';
/** The whole tree; the device form's and the map's queries use the same key. */
export const LOCATION_TREE_KEY = 'baseLocationTree';
export const VENDORS_KEY = 'baseVendors';

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** What the three lists share: delete, deleteBatch, export and import under /base/{entity}. */
function sheetApi(entity: BaseEntity) {
  return {
    delete: (id: string) => request<null>('DELETE', `/base/${entity}/delete`, { params: { id } }),
    deleteBatch: (ids: string[]) =>
      request<null>('DELETE', `/base/${entity}/deleteBatch`, { params: { ids: ids.join(',') } }),
    export: (format: SheetFormat, filters: Record<string, string | number | undefined>) =>
      downloadFile(
        `/base/${entity}/exportXls`,
        { ...filters, format, tz: timeZone() },
        `${entity}.${format}`,
      ),
    /** Good rows are kept and bad rows reported; a preview (`dryRun`) writes nothing. */
    import: (file: File, dryRun: boolean) =>
      uploadFile<TBaseImportResult>(`/base/${entity}/importExcel?dryRun=${String(dryRun)}`, file),
  };
}

export const goodsApi = {
  ...sheetApi('goods'),
  list: (params: GoodsParams) => http.get<TGoodsPage>('/base/goods/list', params),
  add: (body: TGoodsInput) => request<TGoods>('POST', '/base/goods/add', { body }),
  edit: (body: TGoodsEdit) => request<TGoods>('PUT', '/base/goods/edit', { body }),
  datasheetUrl: (id: string) => http.get<TOssFileLink>('/base/goods/datasheetUrl', { id }),
};

export const locationApi = {
  ...sheetApi('location'),
  list: (params: LocationParams) => http.get<TLocationPage>('/base/location/list', params),
  tree: () => http.get<TLocationTree>('/base/location/tree'),
  add: (body: TLocationInput) => request<TLocation>('POST', '/base/location/add', { body }),
  edit: (body: TLocationEdit) => request<TLocation>('PUT', '/base/location/edit', { body }),
};

export const vendorApi = {
  ...sheetApi('vendor'),
  list: (params: VendorParams) => http.get<TVendorPage>('/base/vendor/list', params),
  add: (body: TVendorInput) => request<TVendor>('POST', '/base/vendor/add', { body }),
  edit: (body: TVendorEdit) => request<TVendor>('PUT', '/base/vendor/edit', { body }),
};

export const API_OF: Record<BaseEntity, ReturnType<typeof sheetApi>> = {
  goods: goodsApi,
  location: locationApi,
  vendor: vendorApi,
};

export const KEYS_OF: Record<BaseEntity, string[][]> = {
  goods: [[GOODS_KEY]],
  location: [[LOCATIONS_KEY], [LOCATION_TREE_KEY]],
  vendor: [[VENDORS_KEY]],
};

export function useGoods(params: GoodsParams) {
  return useQuery({
    queryKey: [GOODS_KEY, params],
    queryFn: () => goodsApi.list(params),
    placeholderData: keepPreviousData,
  });
}

export function useLocations(params: LocationParams) {
  return useQuery({
    queryKey: [LOCATIONS_KEY, params],
    queryFn: () => locationApi.list(params),
    placeholderData: keepPreviousData,
  });
}

export function useLocationTree() {
  return useQuery({ queryKey: [LOCATION_TREE_KEY], queryFn: () => locationApi.tree() });
}

export function useVendors(params: VendorParams) {
  return useQuery({
    queryKey: [VENDORS_KEY, params],
    queryFn: () => vendorApi.list(params),
    placeholderData: keepPreviousData,
  });
}
