import type { TDeviceLive } from '@blrms/contracts';
import { latestById, withLive } from '../../shared/device/live-device';
import type { DevicePage, DeviceParams } from './use-devices';

/** Sort columns that presence changes: a change may move devices across rows and pages. */
const LIVE_SORT_COLUMNS: ReadonlySet<DeviceParams['column']> = new Set([
  'status',
  'version',
  'lastSeenAt',
]);

/** Whether a device passes the list's filters on the columns presence changes. */
function passesLiveFilters(params: DeviceParams, live: TDeviceLive): boolean {
  if (params.status !== undefined && live.status !== params.status) return false;
  if (params.series !== undefined && live.series !== params.series) return false;
  if (
    params.version !== undefined &&
    !(live.version ?? '').toLowerCase().includes(params.version.toLowerCase())
  )
    return false;
  return true;
}

const hasLiveFilter = (params: DeviceParams) =>
  params.status !== undefined || params.series !== undefined || params.version !== undefined;

/**
 * What a batch of status changes does to the shown page of the device list: `page` with its rows
 * patched in place (the same object when none of them changed), and whether the page must be
 * loaded again because rows may leave or join it or its total changed. That is when a shown
 * device no longer passes the filter, a device not shown now passes a status, series or version
 * filter, the list is sorted by a column presence changes, or a device not shown connects for the
 * first time (it may have just registered itself and belong on this page).
 */
export function applyLiveStatus(
  params: DeviceParams,
  page: DevicePage,
  batch: readonly TDeviceLive[],
): { page: DevicePage; reload: boolean } {
  const changes = latestById(batch);
  let patched = false;
  const records = page.records.map((row) => {
    const live = changes.get(row.id);
    if (!live) return row;
    const next = withLive(row, live);
    if (next !== row) patched = true;
    return next;
  });
  const shown = new Set(page.records.map((row) => row.id));
  let reload = LIVE_SORT_COLUMNS.has(params.column) && changes.size > 0;
  for (const live of changes.values()) {
    if (reload) break;
    if (shown.has(live.id)) reload = !passesLiveFilters(params, live);
    else if (hasLiveFilter(params)) reload = passesLiveFilters(params, live);
    else reload = live.status === 'online' && live.lastDisconnectAt === null;
  }
  return { page: patched ? { ...page, records } : page, reload };
}
