import { z } from 'zod';
import { ZDeviceSeries } from './device.js';
import { isConfigObject, mergePatch, type TDeviceConfigObject } from './device-config.js';

/**
 * Device protocol v1 over MQTT (docs/device-protocol.md). A device is named by its address, the
 * device tag code `{tokenCode}:{sn}`: the public code of the token it belongs to and its serial
 * number. Two companies (or two tokens of one company) may hold the same SN; their addresses
 * differ, so the broker never mistakes one for the other. Devices connect with clientId =
 * username = address and password = the token key; they publish under `blrms/v1/{address}/up/...`
 * and subscribe to `blrms/v1/{address}/down/...` only. Every payload is one JSON object of at
 * most {@link MQTT_PAYLOAD_MAX_BYTES}; the server, the simulator and the tests validate with the
 * schemas below.
 */

export const TOPIC_ROOT = 'blrms/v1';
export const MQTT_PAYLOAD_MAX_BYTES = 64 * 1024;

/** `{tokenCode}:{sn}`: the token's public code (4–16 of A-Z 0-9) and an SN. */
export const DEVICE_ADDRESS_PATTERN = /^([A-Z0-9]{4,16}):([A-Za-z0-9_-]{1,64})$/;

/** The address of the device with this SN under the token with this public code. */
export const deviceAddress = (tokenCode: string, sn: string) => `${tokenCode}:${sn}`;

/** The token code and SN of an address; null when it is not one. */
export function parseDeviceAddress(address: string): { tokenCode: string; sn: string } | null {
  const match = DEVICE_ADDRESS_PATTERN.exec(address);
  if (!match?.[1] || !match[2]) return null;
  return { tokenCode: match[1], sn: match[2] };
}

/** Uplink kinds: `up/{kind}` or `up/{kind}/{id}` for rpc replies and OTA progress. */
export const UP_KINDS = ['status', 'telemetry', 'event', 'config/reported', 'rpc', 'ota'] as const;
export type TUpKind = (typeof UP_KINDS)[number];
export const DOWN_KINDS = ['config', 'rpc', 'ota'] as const;
export type TDownKind = (typeof DOWN_KINDS)[number];

export const upTopic = (address: string, kind: TUpKind, id?: string) =>
  `${TOPIC_ROOT}/${address}/up/${kind}${id === undefined ? '' : `/${id}`}`;
export const downTopic = (address: string, kind: TDownKind, id?: string) =>
  `${TOPIC_ROOT}/${address}/down/${kind}${id === undefined ? '' : `/${id}`}`;
/** What a device subscribes to: everything sent down to it. */
export const downFilter = (address: string) => `${TOPIC_ROOT}/${address}/down/#`;

/** Request and job ids inside topics: the same alphabet as an SN. */
const TOPIC_ID = /^[A-Za-z0-9_-]{1,64}$/;

export type TParsedTopic =
  | { address: string; direction: 'up'; kind: TUpKind; id?: string }
  | { address: string; direction: 'down'; kind: TDownKind; id?: string };

/**
 * Splits a concrete topic (no wildcards) of protocol v1; null for anything else, including an
 * unknown kind, a level that is not a device address, or a missing or extra level. ACL checks and
 * the uplink router both use it.
 */
export function parseTopic(topic: string): TParsedTopic | null {
  const parts = topic.split('/');
  if (parts.length < 5 || parts[0] !== 'blrms' || parts[1] !== 'v1') return null;
  const address = parts[2] ?? '';
  const direction = parts[3];
  if (!DEVICE_ADDRESS_PATTERN.test(address)) return null;
  const rest = parts.slice(4);
  if (direction === 'up') {
    if (
      rest.length === 1 &&
      (rest[0] === 'status' || rest[0] === 'telemetry' || rest[0] === 'event')
    )
      return { address, direction, kind: rest[0] };
    if (rest.length === 2 && rest[0] === 'config' && rest[1] === 'reported')
      return { address, direction, kind: 'config/reported' };
    if (
      rest.length === 2 &&
      (rest[0] === 'rpc' || rest[0] === 'ota') &&
      TOPIC_ID.test(rest[1] ?? '')
    )
      return { address, direction, kind: rest[0], id: rest[1] };
    return null;
  }
  if (direction === 'down') {
    if (rest.length === 1 && rest[0] === 'config') return { address, direction, kind: 'config' };
    if (
      rest.length === 2 &&
      (rest[0] === 'rpc' || rest[0] === 'ota') &&
      TOPIC_ID.test(rest[1] ?? '')
    )
      return { address, direction, kind: rest[0], id: rest[1] };
    return null;
  }
  return null;
}

/**
 * Whether the device with this address may publish (`up`) or subscribe (`down`) to a topic or
 * filter. Publishing needs a concrete topic of its own `up/` tree; subscribing, a topic or filter
 * inside its own `down/` tree (`down/#`, `down/rpc/+`, ...). Everything else is refused.
 */
export function deviceMayUse(
  address: string,
  action: 'publish' | 'subscribe',
  topic: string,
): boolean {
  if (action === 'publish') {
    const parsed = parseTopic(topic);
    return parsed !== null && parsed.address === address && parsed.direction === 'up';
  }
  const prefix = `${TOPIC_ROOT}/${address}/down`;
  if (topic === `${prefix}/#`) return true;
  if (!topic.startsWith(`${prefix}/`)) return false;
  const rest = topic.slice(prefix.length + 1).split('/');
  return rest.every(
    (level, i) => level === '+' || (level === '#' && i === rest.length - 1) || TOPIC_ID.test(level),
  );
}

// ---------------------------------------------------------------- uplink payloads

const ZEpochMs = z.number().int().nonnegative().describe('Device time, epoch milliseconds');
const ZShortText = z.string().max(64);

/**
 * `up/status`, retained. The device publishes `{online:true,...}` on connect and sets the same
 * topic's last will to `{"online":false}`.
 */
export const ZStatusPayload = z.discriminatedUnion('online', [
  z.object({
    online: z.literal(true),
    series: ZDeviceSeries,
    model: ZShortText.optional(),
    fw: ZShortText.optional().describe('Firmware version'),
    ip: z.string().max(45).optional().describe('The device’s own (WAN) address'),
    signal: z.number().int().min(-150).max(0).optional().describe('Signal strength, dBm'),
  }),
  z.object({ online: z.literal(false) }),
]);
export type TStatusPayload = z.infer<typeof ZStatusPayload>;

/** Telemetry value names: `signal`, `di1`, `ain1`, ... */
export const TELEMETRY_KEY = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
export const TELEMETRY_VALUES_MAX = 64;
export const ZTelemetryValues = z
  .record(
    z.string().regex(TELEMETRY_KEY, 'must be a letter then up to 31 letters, digits or _'),
    z.number(),
  )
  .refine((values) => Object.keys(values).length <= TELEMETRY_VALUES_MAX, {
    message: `at most ${TELEMETRY_VALUES_MAX} values`,
  });
export type TTelemetryValues = z.infer<typeof ZTelemetryValues>;

/** `up/telemetry`. A missing `ts` means "now" (server time). */
export const ZTelemetryPayload = z.object({
  ts: ZEpochMs.optional(),
  values: ZTelemetryValues,
});
export type TTelemetryPayload = z.infer<typeof ZTelemetryPayload>;

export const EVENT_LEVELS = ['info', 'warn', 'alarm', 'recovery'] as const;
export const ZEventLevel = z.enum(EVENT_LEVELS);
export type TEventLevel = z.infer<typeof ZEventLevel>;

/** `up/event`. */
export const ZEventPayload = z.object({
  ts: ZEpochMs.optional(),
  level: ZEventLevel,
  code: z.string().min(1).max(64),
  message: z.string().max(1024).default(''),
});
export type TEventPayload = z.infer<typeof ZEventPayload>;

// ---------------------------------------------------------------- external broker hooks

/**
 * EMQX HTTP authentication hook (`POST /api/mqtt/auth`). Configure EMQX to send
 * `{"clientid":"${clientid}","username":"${username}","password":"${password}","peerhost":"${peerhost}"}`
 * and the shared secret in the `X-Hook-Secret` header.
 */
export const ZMqttAuthRequest = z.object({
  clientid: z.string().max(256),
  username: z.string().max(256),
  password: z.string().max(1024),
  peerhost: z.string().max(64).optional(),
});
export type TMqttAuthRequest = z.infer<typeof ZMqttAuthRequest>;

/** EMQX HTTP authorization hook (`POST /api/mqtt/acl`). */
export const ZMqttAclRequest = z.object({
  clientid: z.string().max(256),
  username: z.string().max(256),
  topic: z.string().max(1024),
  action: z.enum(['publish', 'subscribe']),
  peerhost: z.string().max(64).optional(),
});
export type TMqttAclRequest = z.infer<typeof ZMqttAclRequest>;

/** Both hooks answer HTTP 200 with this body (EMQX 5 shape), never the API envelope. */
export const ZMqttHookResult = z.object({
  result: z.enum(['allow', 'deny', 'ignore']),
  is_superuser: z.boolean().optional(),
});
export type TMqttHookResult = z.infer<typeof ZMqttHookResult>;
export const MQTT_HOOK_SECRET_HEADER = 'x-hook-secret';

/** `GET /api/mqtt/hookSecret` (platform administrators): what to configure in the broker's hooks. */
export const ZMqttHookSecret = z.object({
  secret: z.string().describe('Shared secret the hooks must send'),
  header: z.string().describe('Request header that carries it'),
});
export type TMqttHookSecret = z.infer<typeof ZMqttHookSecret>;

/** Why the broker refused a connection or dropped a client; written to the device log. */
export const REFUSAL_REASONS = [
  'bad-credentials',
  'token-unknown',
  'token-disabled',
  'company-frozen',
  'token-mismatch',
  'device-disabled',
  'auto-register-off',
  'rate-limited',
  'device-removed',
] as const;
export type TRefusalReason = (typeof REFUSAL_REASONS)[number];

/** `device.disconnect_reason` values. */
export const DISCONNECT_REASONS = [
  'client-disconnect',
  'keepalive-timeout',
  'connection-lost',
  'takeover',
  'token-disabled',
  'device-disabled',
  'device-deleted',
  'bad-payloads',
  'acl-violation',
  'server-shutdown',
  'last-will',
  'company-frozen',
] as const;
export const ZDisconnectReason = z.enum(DISCONNECT_REASONS);
export type TDisconnectReason = z.infer<typeof ZDisconnectReason>;

// ---------------------------------------------------------------- remote configuration, RPC, OTA

/** A device's configuration as it travels: one object, validated against its series' schema. */
const ZConfigObject = z.record(z.string(), z.unknown());

/**
 * `down/config` (QoS 1) carries a version and either `config`, the whole configuration (once the
 * platform knows all of it: the device reported it), or `patch`, the fields set on the platform as
 * a JSON Merge Patch (RFC 7386) that the device merges into what it runs (while the platform does
 * not know the rest). Sent when it changes and again after every reconnect (after the device's
 * `up/status`) while the device has not answered this version.
 */
export const ZConfigDownPayload = z.union([
  z.object({ version: z.number().int().positive(), config: ZConfigObject }).strict(),
  z.object({ version: z.number().int().positive(), patch: ZConfigObject }).strict(),
]);
export type TConfigDownPayload = z.infer<typeof ZConfigDownPayload>;

/** What a device runs once it takes a `down/config`: the whole `config`, or its own merged with `patch`. */
export function configAfter(
  current: TDeviceConfigObject,
  down: TConfigDownPayload,
): TDeviceConfigObject {
  if ('config' in down) return down.config;
  const merged = mergePatch(current, down.patch);
  return isConfigObject(merged) ? merged : current;
}

/** What a device runs: its `get_config` answer. */
export const ZConfigSnapshot = z.object({
  version: z.number().int().nonnegative(),
  config: ZConfigObject,
});
export type TConfigSnapshot = z.infer<typeof ZConfigSnapshot>;

/**
 * `up/config/reported`: what the device runs now, at boot (after `up/status`), after a local
 * change (with its own version) and in answer to `down/config`. A refusal keeps the configuration
 * it had: `result: "error"`, `error` the reason, `version` and `config` what it kept.
 */
export const ZConfigReportedPayload = z.object({
  version: z.number().int().nonnegative(),
  config: ZConfigObject.optional(),
  result: z.enum(['ok', 'error']),
  error: z.string().max(1000).optional(),
});
export type TConfigReportedPayload = z.infer<typeof ZConfigReportedPayload>;

/** Methods every device of protocol v1 answers; others are free-form commands for admins. */
export const RPC_METHODS = ['reboot', 'ping', 'get_config'] as const;
export type TRpcMethod = (typeof RPC_METHODS)[number];
export const RPC_METHOD_PATTERN = /^[a-z][a-z0-9_.]{0,63}$/;
export const RPC_TIMEOUT_DEFAULT_SEC = 30;
export const RPC_TIMEOUT_MAX_SEC = 600;

/** `down/rpc/{reqId}`: the device answers on `up/rpc/{reqId}` within `timeoutSec`. */
export const ZRpcDownPayload = z.object({
  method: z.string().regex(RPC_METHOD_PATTERN),
  params: ZConfigObject.optional(),
  timeoutSec: z.number().int().min(1).max(RPC_TIMEOUT_MAX_SEC),
});
export type TRpcDownPayload = z.infer<typeof ZRpcDownPayload>;

/**
 * `up/rpc/{reqId}`. `get_config` answers `result: {version, config}` (also taken as the reported
 * configuration); `reboot` answers before it restarts.
 */
export const ZRpcReplyPayload = z.object({
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z.string().max(1000).optional(),
});
export type TRpcReplyPayload = z.infer<typeof ZRpcReplyPayload>;

/**
 * `down/ota/{jobId}`: download `url` (HTTP GET, Range supported, signed and expiring), check
 * `size` and `sha256`, install, reboot, and reconnect reporting `fw: version` in `up/status`.
 */
export const ZOtaDownPayload = z.object({
  version: z.string().min(1).max(64),
  url: z.string().url(),
  size: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type TOtaDownPayload = z.infer<typeof ZOtaDownPayload>;

/** What a device reports of an upgrade job, in this order; `failed` may come at any step. */
export const OTA_DEVICE_STATES = [
  'downloading',
  'downloaded',
  'verified',
  'updating',
  'failed',
] as const;
export type TOtaDeviceState = (typeof OTA_DEVICE_STATES)[number];

/**
 * `up/ota/{jobId}`. `progress` (0–100) with `downloading`; `sha256` is what the device computed
 * (with `downloaded`, `verified` or a failed check), `error` a reason with `failed`.
 */
export const ZOtaReportPayload = z.object({
  state: z.enum(OTA_DEVICE_STATES),
  progress: z.number().min(0).max(100).optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  error: z.string().max(1000).optional(),
});
export type TOtaReportPayload = z.infer<typeof ZOtaReportPayload>;
