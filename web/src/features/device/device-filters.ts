import type { TDeviceSeries, TDeviceStatus } from '@blrms/contracts';
import { ZDeviceFilter } from '@blrms/contracts';
import type { DeviceParams } from './use-devices';

/** Fields of the device list's filter form; the creation range is sent as createTime_begin/_end. */
export type DeviceSearch = {
  sn?: string;
  name?: string;
  series?: TDeviceSeries;
  version?: string;
  groupId?: string;
  status?: TDeviceStatus;
  ownerId?: string;
  tokenId?: string;
  goodsId?: string;
  locationId?: string;
  vendorId?: string;
  /** Devices with any of these tags. */
  tags?: string[];
  createTime?: [string, string];
};

export type DeviceFilter = Omit<DeviceParams, 'pageNo' | 'pageSize' | 'column' | 'order'>;

const text = (value: string | undefined) => value?.trim() || undefined;

/** The list's query from what the filter form holds (blank texts are no filter). */
export function filterOf(values: DeviceSearch): DeviceFilter {
  return {
    sn: text(values.sn),
    name: text(values.name),
    series: values.series,
    version: text(values.version),
    groupId: values.groupId,
    status: values.status,
    ownerId: values.ownerId,
    tokenId: values.tokenId,
    goodsId: values.goodsId,
    locationId: values.locationId,
    vendorId: values.vendorId,
    tags: values.tags?.length ? values.tags.join(',') : undefined,
    createTime_begin: values.createTime?.[0],
    createTime_end: values.createTime?.[1],
  };
}

/**
 * Filters a link can open the list with (the group page links to `?groupId=…&status=online`, the
 * base data pages to `?locationId=…`, a tag to `?tags=…`).
 * Values the server would refuse are dropped, so a stale link shows all devices instead of an
 * error.
 */
export function searchFromUrl(query: URLSearchParams): DeviceSearch {
  const { groupId, status, series, goodsId, locationId, vendorId, tags } = ZDeviceFilter.shape;
  const read = <T>(name: string, schema: { safeParse: (v: unknown) => { data?: T } }) => {
    const value = query.get(name);
    return value === null ? undefined : schema.safeParse(value).data;
  };
  const search: DeviceSearch = {
    groupId: read('groupId', groupId),
    status: read('status', status),
    series: read('series', series),
    goodsId: read('goodsId', goodsId),
    locationId: read('locationId', locationId),
    vendorId: read('vendorId', vendorId),
    tags: read('tags', tags),
  };
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined));
}
