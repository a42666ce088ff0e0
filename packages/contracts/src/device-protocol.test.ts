import { describe, expect, it } from 'vitest';
import {
  ZStatusPayload,
  ZTelemetryPayload,
  deviceAddress,
  deviceMayUse,
  downFilter,
  downTopic,
  parseDeviceAddress,
  parseTopic,
  upTopic,
} from './device-protocol.js';
import { ZClientMessage } from './realtime.js';

describe('device protocol topics', () => {
  const A = deviceAddress('ABCD2345', 'SN-1');
  const B = deviceAddress('WXYZ6789', 'SN-1');

  it('names a device by its token code and SN, and reads both back', () => {
    expect(A).toBe('ABCD2345:SN-1');
    expect(parseDeviceAddress(A)).toEqual({ tokenCode: 'ABCD2345', sn: 'SN-1' });
    for (const bad of ['SN-1', ':SN-1', 'ABCD2345:', 'abcd2345:SN-1', 'ABCD2345:SN 1', 'A:B:C']) {
      expect(parseDeviceAddress(bad), bad).toBeNull();
    }
  });

  it('parses every uplink and downlink kind and builds the same topics back', () => {
    expect(parseTopic(upTopic(A, 'status'))).toEqual({
      address: A,
      direction: 'up',
      kind: 'status',
    });
    expect(parseTopic(upTopic(A, 'config/reported'))).toEqual({
      address: A,
      direction: 'up',
      kind: 'config/reported',
    });
    expect(parseTopic(upTopic(A, 'rpc', 'r1'))).toEqual({
      address: A,
      direction: 'up',
      kind: 'rpc',
      id: 'r1',
    });
    expect(parseTopic(downTopic(A, 'ota', 'j9'))).toEqual({
      address: A,
      direction: 'down',
      kind: 'ota',
      id: 'j9',
    });
  });

  it('rejects unknown kinds, missing or extra levels, wildcards, bare SNs and bad addresses', () => {
    for (const topic of [
      `blrms/v1/${A}/up`,
      `blrms/v1/${A}/up/status/extra`,
      `blrms/v1/${A}/up/rpc`,
      `blrms/v1/${A}/up/secrets`,
      'blrms/v1/+/up/status',
      'blrms/v1/SN-1/up/status',
      'blrms/v1/ABCD2345:SN 1/up/status',
      `blrms/v2/${A}/up/status`,
      `other/v1/${A}/up/status`,
    ]) {
      expect(parseTopic(topic), topic).toBeNull();
    }
  });

  it('lets a device publish only under its own up/ and subscribe only to its own down/', () => {
    expect(deviceMayUse(A, 'publish', upTopic(A, 'telemetry'))).toBe(true);
    // The same SN under another token is another device.
    expect(deviceMayUse(A, 'publish', upTopic(B, 'telemetry'))).toBe(false);
    expect(deviceMayUse(A, 'publish', downTopic(A, 'config'))).toBe(false);
    expect(deviceMayUse(A, 'subscribe', downFilter(A))).toBe(true);
    expect(deviceMayUse(A, 'subscribe', `blrms/v1/${A}/down/rpc/+`)).toBe(true);
    expect(deviceMayUse(A, 'subscribe', downFilter(B))).toBe(false);
    expect(deviceMayUse(A, 'subscribe', 'blrms/v1/+/down/#')).toBe(false);
    expect(deviceMayUse(A, 'subscribe', `blrms/v1/${A}/up/#`)).toBe(false);
    expect(deviceMayUse(A, 'subscribe', '#')).toBe(false);
    expect(deviceMayUse(A, 'subscribe', `blrms/v1/${A}/down/#/x`)).toBe(false);
  });
});

describe('device protocol payloads', () => {
  it('accepts the documented status messages and refuses an unknown series', () => {
    expect(
      ZStatusPayload.safeParse({
        online: true,
        series: 'R40',
        model: 'R40-4G',
        fw: '1.2.3',
        signal: -71,
      }).success,
    ).toBe(true);
    expect(ZStatusPayload.safeParse({ online: false }).success).toBe(true);
    expect(ZStatusPayload.safeParse({ online: true, series: 'X1' }).success).toBe(false);
  });

  it('refuses telemetry with a bad key or non-numeric value', () => {
    expect(ZTelemetryPayload.safeParse({ values: { signal: -70, di1: 1 } }).success).toBe(true);
    expect(ZTelemetryPayload.safeParse({ values: { '1bad': 1 } }).success).toBe(false);
    expect(ZTelemetryPayload.safeParse({ values: { di1: 'on' } }).success).toBe(false);
  });
});

describe('console channels', () => {
  it('accepts devices and device:{id} only', () => {
    const id = 'a'.repeat(32);
    expect(ZClientMessage.safeParse({ type: 'subscribe', channel: 'devices' }).success).toBe(true);
    expect(ZClientMessage.safeParse({ type: 'subscribe', channel: `device:${id}` }).success).toBe(
      true,
    );
    expect(ZClientMessage.safeParse({ type: 'subscribe', channel: 'device:xyz' }).success).toBe(
      false,
    );
    expect(ZClientMessage.safeParse({ type: 'subscribe', channel: 'users' }).success).toBe(false);
  });
});
