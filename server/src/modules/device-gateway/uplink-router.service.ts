import type { TTelemetryPayload } from '@blrms/contracts';
import type {
  DeviceEventInput,
  DeviceOnlineStatus,
  DeviceRef,
  UplinkSink,
} from './uplink-sink.service.js';

type ReplyHandlers = Pick<UplinkSink, 'configReported' | 'rpcReplied' | 'otaReported'>;
type Handlers = ReplyHandlers & Pick<UplinkSink, 'deviceOnline'>;

/**
 * Who else sees telemetry and events as they arrive (the alarm engine): called synchronously on
 * the ingest path, so it must be cheap and must not block; what it throws is logged, never passed
 * on, so that an observer cannot break ingest.
 */
export interface UplinkObserver {
  telemetry?(device: DeviceRef, payload: TTelemetryPayload, receivedAt: number): void;
  event?(device: DeviceRef, event: DeviceEventInput, receivedAt: number): void;
}

/**
 * The gateway's one sink: telemetry and events go to the device-data module, replies and online
 * statuses to the modules that registered for them (configuration, commands, campaigns). Modules
 * register after the gateway exists, since they send through it.
 */
export class UplinkRouter implements UplinkSink {
  private readonly replies: ReplyHandlers = {};
  private readonly online: NonNullable<UplinkSink['deviceOnline']>[] = [];
  private readonly observers: UplinkObserver[] = [];

  constructor(
    private readonly data: UplinkSink,
    private readonly onObserverError: (error: unknown) => void = () => undefined,
  ) {}

  /** Adds an observer of telemetry and events (see {@link UplinkObserver}). */
  observe(observer: UplinkObserver): void {
    this.observers.push(observer);
  }

  /** Each reply kind has one handler; every `deviceOnline` handler is called. */
  handle({ deviceOnline, ...replies }: Handlers): void {
    for (const kind of Object.keys(replies) as (keyof ReplyHandlers)[]) {
      if (this.replies[kind]) throw new Error(`${kind} is already handled`);
    }
    Object.assign(this.replies, replies);
    if (deviceOnline) this.online.push(deviceOnline);
  }

  recordTelemetry(device: DeviceRef, payload: TTelemetryPayload, receivedAt: number) {
    for (const observer of this.observers) {
      try {
        observer.telemetry?.(device, payload, receivedAt);
      } catch (error) {
        this.onObserverError(error);
      }
    }
    return this.data.recordTelemetry(device, payload, receivedAt);
  }

  recordEvent(device: DeviceRef, event: DeviceEventInput, receivedAt: number) {
    for (const observer of this.observers) {
      try {
        observer.event?.(device, event, receivedAt);
      } catch (error) {
        this.onObserverError(error);
      }
    }
    return this.data.recordEvent(device, event, receivedAt);
  }

  configReported: NonNullable<UplinkSink['configReported']> = (device, payload, receivedAt) =>
    this.replies.configReported?.(device, payload, receivedAt);

  rpcReplied: NonNullable<UplinkSink['rpcReplied']> = (device, reqId, payload, receivedAt) =>
    this.replies.rpcReplied?.(device, reqId, payload, receivedAt);

  otaReported: NonNullable<UplinkSink['otaReported']> = (device, jobId, payload, receivedAt) =>
    this.replies.otaReported?.(device, jobId, payload, receivedAt);

  deviceOnline = async (device: DeviceRef, status: DeviceOnlineStatus, receivedAt: number) => {
    // One handler's failure must not keep the others from their work.
    const outcomes = await Promise.allSettled(
      this.online.map((handler) => handler(device, status, receivedAt)),
    );
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  };
}
