import type { TDevice, TDeviceLive } from '@blrms/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { latestById, throttle, withLive } from './live-device';

const ID = 'a'.repeat(32);

const device: TDevice = {
  id: ID,
  tagCode: 'ABCDEFGH:R40-1',
  sn: 'R40-1',
  name: 'Router 1',
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
  location: 'Hall A',
  goodsId: null,
  goodsModel: null,
  locationId: null,
  locationPath: null,
  vendorId: null,
  vendorName: null,
  tags: [],
  lastSeenAt: null,
  lastConnectAt: null,
  lastDisconnectAt: null,
  disconnectReason: null,
  expectedRestart: null,
  createTime: '2026-01-01T00:00:00.000Z',
  updateTime: null,
};

const liveOf = (row: TDevice, change: Partial<TDeviceLive> = {}): TDeviceLive => ({
  id: row.id,
  sn: row.sn,
  groupId: row.groupId,
  status: row.status,
  ip: row.ip,
  series: row.series,
  model: row.model,
  version: row.version,
  lastSeenAt: row.lastSeenAt,
  lastConnectAt: row.lastConnectAt,
  lastDisconnectAt: row.lastDisconnectAt,
  disconnectReason: row.disconnectReason,
  expectedRestart: row.expectedRestart,
  ...change,
});

describe('withLive', () => {
  it('takes the presence columns of the message and keeps the rest of the row', () => {
    const connected = withLive(
      device,
      liveOf(device, {
        status: 'online',
        ip: '10.1.2.3',
        version: '1.2.0',
        model: 'R40-4G',
        lastSeenAt: '2026-01-02T00:00:00.000Z',
        lastConnectAt: '2026-01-02T00:00:00.000Z',
      }),
    );
    expect(connected).toEqual({
      ...device,
      status: 'online',
      ip: '10.1.2.3',
      version: '1.2.0',
      model: 'R40-4G',
      lastSeenAt: '2026-01-02T00:00:00.000Z',
      lastConnectAt: '2026-01-02T00:00:00.000Z',
    });
  });

  it('takes a restart the platform expects, and keeps the row when the same one comes again', () => {
    const expectedRestart = { kind: 'reboot' as const, until: '2026-01-02T00:05:00.000Z' };
    const rebooting = withLive(device, liveOf(device, { expectedRestart }));
    expect(rebooting.expectedRestart).toEqual(expectedRestart);
    expect(
      withLive(rebooting, liveOf(rebooting, { expectedRestart: { ...expectedRestart } })),
    ).toBe(rebooting);
    expect(withLive(rebooting, liveOf(rebooting, { expectedRestart: null })).expectedRestart).toBe(
      null,
    );
  });

  it('returns the row itself when nothing changed, and keeps a series it does not know', () => {
    expect(withLive(device, liveOf(device))).toBe(device);
    expect(withLive(device, liveOf(device, { series: 'X99' }))).toBe(device);
  });

  it('keeps the last state of a device named twice in a batch', () => {
    const batch = [liveOf(device, { status: 'online' }), liveOf(device, { status: 'offline' })];
    expect(latestById(batch).get(ID)?.status).toBe('offline');
  });
});

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then at most once per interval, with the last request never dropped', () => {
    const run = vi.fn();
    const gate = throttle(run, 1000);
    gate.request();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100);
    gate.request();
    gate.request();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(899);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
    gate.request();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('drops a waiting run when cancelled', () => {
    const run = vi.fn();
    const gate = throttle(run, 1000);
    gate.request();
    gate.request();
    gate.cancel();
    vi.advanceTimersByTime(2000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
