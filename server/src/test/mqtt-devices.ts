import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { expect, vi } from 'vitest';
import {
  deviceAddress,
  type TConfigReportedPayload,
  type TDevice,
  type TOtaReportPayload,
  type TRpcReplyPayload,
  type TTelemetryPayload,
} from '@blrms/contracts';
import type {
  DeviceEventInput,
  DeviceOnlineStatus,
  DeviceRef,
  UplinkSink,
} from '../modules/device-gateway/uplink-sink.service.js';
import type { Client } from './devices.js';

/** What the gateway handed to the device-data module, for assertions. */
export class RecordingSink implements UplinkSink {
  readonly telemetry: { device: DeviceRef; payload: TTelemetryPayload }[] = [];
  readonly events: (DeviceEventInput & { sn: string; deviceId: string })[] = [];

  recordTelemetry(device: DeviceRef, payload: TTelemetryPayload): void {
    this.telemetry.push({
      device: {
        id: device.id,
        companyId: device.companyId,
        sn: device.sn,
        address: device.address,
      },
      payload,
    });
  }

  recordEvent(device: DeviceRef, event: DeviceEventInput): void {
    this.events.push({ ...event, sn: device.sn, deviceId: device.id });
  }

  /** Replies and online statuses, by kind, as the gateway handed them on. */
  readonly replies: { kind: string; sn: string; id?: string; payload: unknown }[] = [];

  configReported(device: DeviceRef, payload: TConfigReportedPayload): void {
    this.replies.push({ kind: 'config/reported', sn: device.sn, payload });
  }

  rpcReplied(device: DeviceRef, reqId: string, payload: TRpcReplyPayload): void {
    this.replies.push({ kind: 'rpc', sn: device.sn, id: reqId, payload });
  }

  otaReported(device: DeviceRef, jobId: string, payload: TOtaReportPayload): void {
    this.replies.push({ kind: 'ota', sn: device.sn, id: jobId, payload });
  }

  deviceOnline(device: DeviceRef, status: DeviceOnlineStatus): void {
    this.replies.push({ kind: 'online', sn: device.sn, payload: status });
  }

  eventsOf(sn: string, code?: string) {
    return this.events.filter((e) => e.sn === sn && (code === undefined || e.code === code));
  }
}

let counter = 0;
/** An SN no other test (nor an earlier run against a persistent broker) has used. */
export function uniqueSn(prefix = 'GW'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** What a device is given to connect with: its token's public code and the token key. */
export interface TokenCredential {
  code: string;
  key: string;
}

/** The credential of a token as the API answers `add` or `regenerate`. */
export const credentialOf = (token: { code: string; tokenKey: string }): TokenCredential => ({
  code: token.code,
  key: token.tokenKey,
});

/**
 * A device's MQTT connection: clientId and username are its address `{tokenCode}:{sn}`, the
 * password the token key.
 */
export function connectDevice(
  url: string,
  sn: string,
  token: TokenCredential,
  options: IClientOptions = {},
): Promise<MqttClient> {
  const address = deviceAddress(token.code, sn);
  return mqtt.connectAsync(
    url,
    {
      clientId: address,
      username: address,
      password: token.key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    },
    false,
  );
}

/** The CONNACK return code of a refused connection. */
export async function refusalCode(
  url: string,
  sn: string,
  token: TokenCredential,
  options: IClientOptions = {},
): Promise<number> {
  try {
    const device = await connectDevice(url, sn, token, options);
    await device.endAsync();
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}

export async function findDevice(api: Client, sn: string): Promise<TDevice | undefined> {
  const page = await api.ok('GET', `/device/device/list?sn=${encodeURIComponent(sn)}&pageSize=10`);
  return (page.records as TDevice[]).find((d) => d.sn === sn);
}

/** Waits until the API shows the device so (the console's promise is 1 s; 2 s leaves CI slack). */
export async function expectDevice(
  api: Client,
  sn: string,
  expected: Partial<TDevice>,
  timeout = 2000,
): Promise<TDevice> {
  let found: TDevice | undefined;
  await vi.waitFor(
    async () => {
      found = await findDevice(api, sn);
      expect(found).toMatchObject(expected);
    },
    { timeout, interval: 25 },
  );
  if (!found) throw new Error(`device ${sn} not found`);
  return found;
}
