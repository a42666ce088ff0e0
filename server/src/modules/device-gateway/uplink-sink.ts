import type { TEventLevel, TTelemetryPayload, TUpKind } from '@blrms/contracts';

/** Which device an uplink came from, as the gateway knows it without asking the database. */
export interface DeviceRef {
  id: string;
  companyId: string;
  sn: string;
}

export interface DeviceEventInput {
  level: TEventLevel;
  code: string;
  message: string;
  /** Device time; absent for events the platform records. */
  ts?: number;
  source: 'device' | 'platform';
}

/**
 * Where the gateway hands what devices report, validated; the device-data module stores it.
 * Calls must not block: a returned promise is only watched for failure.
 */
export interface UplinkSink {
  recordTelemetry(
    device: DeviceRef,
    payload: TTelemetryPayload,
    receivedAt: number,
  ): void | Promise<void>;
  recordEvent(device: DeviceRef, event: DeviceEventInput, receivedAt: number): void | Promise<void>;
  /** `up/config/reported`, `up/rpc/{id}`, `up/ota/{id}` (remote configuration, RPC and OTA). */
  recordReply?(
    device: DeviceRef,
    kind: Exclude<TUpKind, 'status' | 'telemetry' | 'event'>,
    id: string | undefined,
    payload: unknown,
    receivedAt: number,
  ): void | Promise<void>;
}
