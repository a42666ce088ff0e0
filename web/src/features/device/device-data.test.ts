import type { TDeviceEvent, TDeviceTelemetryHistory } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import type { DeviceEventParams } from '../../api/device-data';
import { TELEMETRY_RANGES, withEvent, withPoint, withSample } from './device-data';
import { byTelemetryKey } from './telemetry-label';

const DEVICE_ID = 'a'.repeat(32);
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();
const NOW = Date.parse(at(0)) + TELEMETRY_RANGES['1h'];

describe('withSample', () => {
  it('updates the keys of the sample, adds new ones and ignores values older than shown', () => {
    const latest = {
      deviceId: DEVICE_ID,
      values: [
        { key: 'di1', value: 0, ts: at(10) },
        { key: 'signal', value: -80, ts: at(10) },
      ],
    };
    const next = withSample(latest, { ts: at(11), values: { signal: -71, ain1: 4.2 } });
    expect(next.values).toEqual([
      { key: 'ain1', value: 4.2, ts: at(11) },
      { key: 'di1', value: 0, ts: at(10) },
      { key: 'signal', value: -71, ts: at(11) },
    ]);
    expect(withSample(next, { ts: at(5), values: { signal: -99 } }).values).toEqual(next.values);
  });
});

describe('withPoint', () => {
  const history: TDeviceTelemetryHistory = {
    deviceId: DEVICE_ID,
    points: [
      { ts: at(0), values: { signal: -90 } },
      { ts: at(30), values: { signal: -80 } },
    ],
    truncated: false,
  };

  it('adds a sample in time order and drops the samples that left the range', () => {
    const next = withPoint(
      history,
      { ts: at(20), values: { signal: -85 } },
      3_600_000,
      NOW + 60_000,
    );
    expect(next.points.map((p) => p.ts)).toEqual([at(20), at(30)]);
    const last = withPoint(next, { ts: at(45), values: { di1: 1 } }, 3_600_000, NOW + 60_000);
    expect(last.points.map((p) => p.ts)).toEqual([at(20), at(30), at(45)]);
  });

  it('does not add a sample twice, nor one older than the range', () => {
    const again = withPoint(history, { ts: at(30), values: { signal: -80 } }, 3_600_000, NOW);
    expect(again.points).toHaveLength(2);
    const old = withPoint(history, { ts: at(-5), values: { signal: -1 } }, 3_600_000, NOW);
    expect(old).toBe(history);
  });
});

describe('withEvent', () => {
  const event = (n: number, change: Partial<TDeviceEvent> = {}): TDeviceEvent => ({
    id: String(n).padStart(32, '0'),
    deviceId: DEVICE_ID,
    sn: 'R40-1',
    ts: at(n),
    level: 'info',
    code: `E${n}`,
    message: '',
    source: 'device',
    receivedAt: at(n),
    ...change,
  });
  const params: DeviceEventParams = { deviceId: DEVICE_ID, pageNo: 1, pageSize: 2, order: 'desc' };
  const page = { records: [event(20), event(10)], total: 5 };

  it('puts a new event on top of the first page, keeping its size and counting it', () => {
    const next = withEvent(page, params, event(30, { level: 'alarm' }));
    expect(next.records.map((e) => e.code)).toEqual(['E30', 'E20']);
    expect(next.total).toBe(6);
    expect(withEvent(next, params, event(30, { level: 'alarm' }))).toBe(next);
  });

  it('places a late event by its time', () => {
    expect(withEvent(page, params, event(15)).records.map((e) => e.code)).toEqual(['E20', 'E15']);
  });

  it('leaves other pages and other levels alone', () => {
    expect(withEvent(page, { ...params, pageNo: 2 }, event(30))).toBe(page);
    expect(withEvent(page, { ...params, level: 'alarm' }, event(30))).toBe(page);
    expect(withEvent(page, { ...params, level: 'warn' }, event(30, { level: 'warn' })).total).toBe(
      6,
    );
  });
});

describe('byTelemetryKey', () => {
  it('puts signal strength first, then the keys in name and number order', () => {
    expect(['di10', 'ain1', 'di2', 'signal', 'di1'].sort(byTelemetryKey)).toEqual([
      'signal',
      'ain1',
      'di1',
      'di2',
      'di10',
    ]);
  });
});
