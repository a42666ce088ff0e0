import type {
  TConfigReportedPayload,
  TEventLevel,
  TOtaReportPayload,
  TRpcReplyPayload,
  TTelemetryPayload,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';

/** Which device an uplink came from, as the gateway knows it without asking the database. */
export interface DeviceRef {
  id: string;
  companyId: string;
  sn: string;
  /** `{tokenCode}:{sn}`: where downlinks to this device go. */
  address: string;
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
  /** `up/config/reported`. */
  configReported?(
    device: DeviceRef,
    payload: TConfigReportedPayload,
    receivedAt: number,
  ): void | Promise<void>;
  /** `up/rpc/{reqId}`. */
  rpcReplied?(
    device: DeviceRef,
    reqId: string,
    payload: TRpcReplyPayload,
    receivedAt: number,
  ): void | Promise<void>;
  /** `up/ota/{jobId}`. */
  otaReported?(
    device: DeviceRef,
    jobId: string,
    payload: TOtaReportPayload,
    receivedAt: number,
  ): void | Promise<void>;
  /**
   * A live `up/status` saying online (not a replayed retained one, not a will). Devices subscribe
   * to `down/#` before they publish it, so this is when pending downlinks can go out.
   */
  deviceOnline?(
    device: DeviceRef,
    status: DeviceOnlineStatus,
    receivedAt: number,
  ): void | Promise<void>;
}

/** What an online status says about the device's firmware. */
export interface DeviceOnlineStatus {
  series: string;
  fw?: string;
}

/**
 * The gateway's calls into the sink: the sink must not block or break the broker, so failures are
 * logged, never thrown.
 */
export class GuardedSink {
  constructor(
    readonly sink: UplinkSink,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  run(call: () => void | Promise<void>): void {
    try {
      const result = call();
      if (result)
        result.catch((error: unknown) => this.log.error({ err: error }, 'uplink not recorded'));
    } catch (error) {
      this.log.error({ err: error }, 'uplink not recorded');
    }
  }

  /** An event the platform notes on a device (a refusal, an ACL violation, a bad payload...). */
  record(device: DeviceRef, event: DeviceEventInput): void {
    const receivedAt = this.clock();
    this.run(() => this.sink.recordEvent(device, event, receivedAt));
  }
}
