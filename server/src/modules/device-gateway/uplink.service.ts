import {
  MQTT_PAYLOAD_MAX_BYTES,
  TELEMETRY_KEY,
  TELEMETRY_VALUES_MAX,
  ZConfigReportedPayload,
  ZEventPayload,
  ZOtaReportPayload,
  ZRpcReplyPayload,
  ZStatusPayload,
  ZTelemetryPayload,
  parseTopic,
  type TParsedTopic,
  type TTelemetryPayload,
} from '@blrms/contracts';
import type { z } from 'zod';
import type { InboundMessage } from '../../platform/mqtt/transport.js';
import type {
  DeviceConnection,
  DeviceSession,
  GatewayPartDeps,
} from './device-connection.service.js';
import type { DevicePresence } from './presence.service.js';

/**
 * Bad payloads a device may send per minute (counted over all its connections); one more closes
 * an embedded connection, and so does every further one in that minute.
 */
const BAD_PAYLOAD_LIMIT = 20;
/**
 * Packets a little over the payload limit are read and recorded as malformed; larger ones close
 * the connection before they are read.
 */
export const MAX_PACKET_BYTES = 2 * MQTT_PAYLOAD_MAX_BYTES;

export interface UplinkDeps extends GatewayPartDeps {
  /** Finds the device behind an external broker's uplink. */
  connection: DeviceConnection;
  /** Receives status messages and last-seen times. */
  presence: DevicePresence;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return `${issue.path.join('.') || 'payload'}: ${issue.message}`;
}

/**
 * The valid values of a telemetry message that has some invalid ones (a bad name, a value that is
 * not a number, more than the limit): null when its shape is wrong or no value is valid.
 */
function salvageTelemetry(json: unknown): { payload: TTelemetryPayload; dropped: string[] } | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { ts, values } = json as { ts?: unknown; values?: unknown };
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return null;
  const time = ZTelemetryPayload.shape.ts.safeParse(ts);
  if (!time.success) return null;
  const kept: Record<string, number> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    const valid =
      TELEMETRY_KEY.test(key) &&
      typeof value === 'number' &&
      Number.isFinite(value) &&
      Object.keys(kept).length < TELEMETRY_VALUES_MAX;
    if (valid) kept[key] = value;
    else dropped.push(key.slice(0, 40));
  }
  if (Object.keys(kept).length === 0) return null;
  return {
    payload: { ...(time.data === undefined ? {} : { ts: time.data }), values: kept },
    dropped:
      dropped.length > 10 ? [...dropped.slice(0, 10), `${dropped.length - 10} more`] : dropped,
  };
}

/**
 * Value names already seen to be valid: a fleet sends the same few dozen, and a set lookup is
 * cheaper than the pattern. Bounded, since devices choose the names.
 */
const validKeys = new Set<string>();
const VALID_KEYS_MAX = 10_000;

function validKey(key: string): boolean {
  if (validKeys.has(key)) return true;
  if (!TELEMETRY_KEY.test(key)) return false;
  if (validKeys.size >= VALID_KEYS_MAX) validKeys.clear();
  validKeys.add(key);
  return true;
}

/**
 * The telemetry payload as the schema parses it, checked by hand: most messages are telemetry, and
 * the schema's parse was the largest single cost of relaying them. Accepts only what
 * `ZTelemetryPayload` accepts and returns what it would (the two fields, values as sent); null
 * for anything else, which then goes through the schema for its verdict and its error.
 */
function plainTelemetry(json: unknown): TTelemetryPayload | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { ts, values } = json as { ts?: unknown; values?: unknown };
  if (ts !== undefined && !(Number.isSafeInteger(ts) && (ts as number) >= 0)) return null;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return null;
  const checked = values as Record<string, unknown>;
  let count = 0;
  // A parsed JSON object has only its own properties (and `__proto__` is no valid name).
  for (const key in checked) {
    count += 1;
    if (count > TELEMETRY_VALUES_MAX) return null;
    const value = checked[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || !validKey(key)) return null;
  }
  const numbers = checked as Record<string, number>;
  return ts === undefined ? { values: numbers } : { ts: ts as number, values: numbers };
}

/**
 * What devices publish: the topic and payload checked against the contracts' schemas, status
 * messages handed to presence, the rest to the uplink sink (device data, replies to the modules
 * that registered for them); too large, not JSON or invalid payloads recorded as malformed, and a
 * device that keeps sending them disconnected.
 */
export class UplinkService {
  constructor(private readonly deps: UplinkDeps) {}

  message(message: InboundMessage<DeviceSession>): void {
    const receivedAt = this.deps.clock();
    const { session } = message;
    const parsed: TParsedTopic | null =
      session && message.topic === session.telemetryTopic
        ? { address: session.address, direction: 'up', kind: 'telemetry' }
        : parseTopic(message.topic);
    if (!parsed || parsed.direction !== 'up') return;
    if (session) {
      this.uplink(session, parsed, message, receivedAt);
      return;
    }
    this.deps.connection.externalDevice(parsed.address).then(
      (device) => {
        if (device) this.uplink(device, parsed, message, receivedAt);
      },
      (error: unknown) =>
        this.deps.log.error({ err: error, device: parsed.address }, 'device lookup failed'),
    );
  }

  oversized(session: DeviceSession | null, bytes: number, ip: string | null): void {
    if (!session || this.deps.abuse.note(session, 'oversized-packet').count === 1) {
      this.deps.log.warn(
        { device: session?.address, ip, bytes },
        'MQTT packet over the size limit: connection closed',
      );
    }
    if (session) {
      this.malformed(
        session,
        '(packet)',
        `packet of ${bytes} bytes is over the ${MAX_PACKET_BYTES}-byte limit`,
      );
    }
  }

  private uplink(
    device: DeviceSession,
    parsed: Extract<TParsedTopic, { direction: 'up' }>,
    message: InboundMessage<DeviceSession>,
    receivedAt: number,
  ): void {
    if (parsed.address !== device.address) return;
    // An empty payload is how MQTT deletes a retained message: nothing was reported.
    if (message.payload.length === 0) return;
    if (message.payload.length > MQTT_PAYLOAD_MAX_BYTES) {
      return this.malformed(
        device,
        message.topic,
        `payload of ${message.payload.length} bytes is over the ${MQTT_PAYLOAD_MAX_BYTES}-byte limit`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(message.payload.toString('utf8'));
    } catch {
      return this.malformed(device, message.topic, 'not JSON');
    }
    const { events } = this.deps;
    const { sink } = events;
    switch (parsed.kind) {
      case 'status': {
        const status = ZStatusPayload.safeParse(json);
        if (!status.success) return this.malformed(device, message.topic, firstIssue(status.error));
        return this.deps.presence.status(device, status.data, message, receivedAt);
      }
      case 'telemetry': {
        const plain = plainTelemetry(json);
        if (plain) {
          events.run(() => sink.recordTelemetry(device, plain, receivedAt));
          break;
        }
        const telemetry = ZTelemetryPayload.safeParse(json);
        if (telemetry.success) {
          events.run(() => sink.recordTelemetry(device, telemetry.data, receivedAt));
          break;
        }
        // One bad value must not cost the good ones: they are stored, the rest reported.
        const salvaged = salvageTelemetry(json);
        if (!salvaged) return this.malformed(device, message.topic, firstIssue(telemetry.error));
        events.run(() => sink.recordTelemetry(device, salvaged.payload, receivedAt));
        this.malformed(device, message.topic, `values dropped: ${salvaged.dropped.join(', ')}`);
        break;
      }
      case 'event': {
        const event = ZEventPayload.safeParse(json);
        if (!event.success) return this.malformed(device, message.topic, firstIssue(event.error));
        events.run(() => sink.recordEvent(device, { ...event.data, source: 'device' }, receivedAt));
        break;
      }
      case 'config/reported': {
        const report = ZConfigReportedPayload.safeParse(json);
        if (!report.success) return this.malformed(device, message.topic, firstIssue(report.error));
        if (sink.configReported)
          events.run(() => sink.configReported?.(device, report.data, receivedAt));
        break;
      }
      case 'rpc': {
        const reply = ZRpcReplyPayload.safeParse(json);
        if (!reply.success) return this.malformed(device, message.topic, firstIssue(reply.error));
        const reqId = parsed.id ?? '';
        if (sink.rpcReplied)
          events.run(() => sink.rpcReplied?.(device, reqId, reply.data, receivedAt));
        break;
      }
      case 'ota': {
        const report = ZOtaReportPayload.safeParse(json);
        if (!report.success) return this.malformed(device, message.topic, firstIssue(report.error));
        const jobId = parsed.id ?? '';
        if (sink.otaReported)
          events.run(() => sink.otaReported?.(device, jobId, report.data, receivedAt));
        break;
      }
    }
    this.deps.presence.seen(device, receivedAt);
  }

  /**
   * A payload that is too large, not JSON or not what the topic's schema says: dropped and
   * recorded as a platform event, within the device's budget of events; a device that keeps
   * sending them is disconnected (when the broker is ours), and again at its next bad payload
   * until the minute is over, however often it reconnects. The first disconnect of the minute is
   * logged, the rest are counted in the device's summary.
   */
  private malformed(device: DeviceSession, topic: string, reason: string): void {
    const { abuse, runtime } = this.deps;
    const { record, count } = abuse.note(device, 'malformed-payload');
    if (record) {
      this.deps.events.record(device, {
        level: 'warn',
        code: 'malformed-payload',
        message: `${topic}: ${reason}`,
        source: 'platform',
      });
    }
    if (count <= BAD_PAYLOAD_LIMIT || !runtime.transport?.disconnect(device, 'bad-payloads'))
      return;
    if (abuse.note(device, 'bad-payload-disconnect').count === 1) {
      this.deps.log.warn(
        { device: device.address, ip: device.ip },
        'MQTT device disconnected: too many bad payloads',
      );
    }
  }
}
