import type { TDevice, TDeviceLive } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { applyLiveStatus } from './live-list';
import type { DevicePage, DeviceParams } from './use-devices';

const PARAMS: DeviceParams = { pageNo: 1, pageSize: 10, column: 'createTime', order: 'desc' };

function device(n: number, change: Partial<TDevice> = {}): TDevice {
  return {
    id: String(n).padStart(32, '0'),
    tagCode: `ABCDEFGH:SN-${n}`,
    sn: `SN-${n}`,
    name: `Device ${n}`,
    series: 'R40',
    model: null,
    version: '1.0.0',
    groupId: null,
    groupName: null,
    status: 'offline',
    enabled: true,
    tokenId: 'b'.repeat(32),
    tokenName: 'Line 1',
    ownerId: 'c'.repeat(32),
    ownerName: 'admin',
    remark: null,
    ip: null,
    location: null,
    goodsId: null,
    goodsModel: null,
    locationId: null,
    locationPath: null,
    vendorId: null,
    vendorName: null,
    tags: [],
    lastSeenAt: '2026-01-01T00:00:00.000Z',
    lastConnectAt: '2026-01-01T00:00:00.000Z',
    lastDisconnectAt: '2026-01-01T01:00:00.000Z',
    disconnectReason: 'keepalive-timeout',
    expectedRestart: null,
    createTime: '2026-01-01T00:00:00.000Z',
    updateTime: null,
    ...change,
  };
}

const online = (row: TDevice, change: Partial<TDeviceLive> = {}): TDeviceLive => ({
  id: row.id,
  sn: row.sn,
  groupId: row.groupId,
  status: 'online',
  ip: '10.0.0.9',
  series: row.series,
  model: row.model,
  version: row.version,
  lastSeenAt: '2026-01-02T00:00:00.000Z',
  lastConnectAt: '2026-01-02T00:00:00.000Z',
  lastDisconnectAt: row.lastDisconnectAt,
  disconnectReason: row.disconnectReason,
  expectedRestart: row.expectedRestart,
  ...change,
});

const pageOf = (...records: TDevice[]): DevicePage => ({ records, total: records.length });

describe('applyLiveStatus', () => {
  it('patches a shown row in place without a reload', () => {
    const page = pageOf(device(1), device(2));
    const result = applyLiveStatus(PARAMS, page, [online(device(2), { version: '1.1.0' })]);
    expect(result.reload).toBe(false);
    expect(result.page.total).toBe(2);
    expect(result.page.records[0]).toBe(page.records[0]);
    expect(result.page.records[1]).toMatchObject({
      sn: 'SN-2',
      status: 'online',
      ip: '10.0.0.9',
      version: '1.1.0',
      name: 'Device 2',
    });
  });

  it('leaves the page alone for devices not shown that connected before', () => {
    const page = pageOf(device(1));
    const result = applyLiveStatus(PARAMS, page, [online(device(9))]);
    expect(result).toEqual({ page, reload: false });
    expect(result.page).toBe(page);
  });

  it('reloads for a device not shown that connects for the first time', () => {
    const fresh = device(9, { lastDisconnectAt: null, disconnectReason: null });
    expect(applyLiveStatus(PARAMS, pageOf(device(1)), [online(fresh)]).reload).toBe(true);
  });

  it('reloads a status-filtered list when a shown row leaves the filter or another may join', () => {
    const onlineOnly: DeviceParams = { ...PARAMS, status: 'online' };
    const shown = device(1, { status: 'online' });
    const page = pageOf(shown);
    const wentOffline = applyLiveStatus(onlineOnly, page, [
      online(shown, { status: 'offline', lastDisconnectAt: '2026-01-03T00:00:00.000Z' }),
    ]);
    expect(wentOffline.reload).toBe(true);
    expect(wentOffline.page.records[0]?.status).toBe('offline');

    expect(applyLiveStatus(onlineOnly, page, [online(device(7))]).reload).toBe(true);
    const offlineElsewhere = online(device(7), { status: 'offline' });
    expect(applyLiveStatus(onlineOnly, page, [offlineElsewhere]).reload).toBe(false);
  });

  it('reloads a version-filtered list when a shown device changes firmware', () => {
    const filtered: DeviceParams = { ...PARAMS, version: '1.0' };
    const page = pageOf(device(1));
    expect(applyLiveStatus(filtered, page, [online(device(1))]).reload).toBe(false);
    expect(applyLiveStatus(filtered, page, [online(device(1), { version: '2.0.0' })]).reload).toBe(
      true,
    );
  });

  it('reloads a list sorted by a presence column on any change', () => {
    const bySeen: DeviceParams = { ...PARAMS, column: 'lastSeenAt' };
    expect(applyLiveStatus(bySeen, pageOf(device(1)), [online(device(9))]).reload).toBe(true);
    expect(applyLiveStatus(bySeen, pageOf(device(1)), []).reload).toBe(false);
  });
});
