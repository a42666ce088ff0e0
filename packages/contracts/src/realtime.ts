import { z } from 'zod';
import { ZId, ZTimestamp } from './common.js';
import { ZDeviceStatus, ZExpectedRestart } from './device.js';
import { ZCampaignProgress } from './campaign.js';
import { ZDeviceCommand } from './device-command.js';
import { ZDeviceConfigState } from './device-config.js';
import { ZDeviceEvent, ZDeviceTelemetryPoint } from './device-data.js';
import { ZAlarm } from './alarm.js';

/*
 * Websocket messages (`/api/websocket/{userId}`). Every message is one JSON object with a `type`;
 * later features add members to these unions, and clients ignore types they do not know.
 */

/**
 * What a device's live state is made of: the columns presence changes. Sent for every change,
 * in batches, to sockets subscribed to `devices` (their company's devices) or `device:{id}`.
 */
export const ZDeviceLive = z.object({
  id: ZId,
  sn: z.string(),
  groupId: ZId.nullable(),
  status: ZDeviceStatus,
  ip: z.string().nullable(),
  series: z.string(),
  model: z.string().nullable(),
  version: z.string().nullable(),
  lastSeenAt: ZTimestamp.nullable(),
  lastConnectAt: ZTimestamp.nullable(),
  lastDisconnectAt: ZTimestamp.nullable(),
  disconnectReason: z.string().nullable(),
  expectedRestart: ZExpectedRestart.nullable(),
});
export type TDeviceLive = z.infer<typeof ZDeviceLive>;

/**
 * Channels a socket subscribes to: `devices` (status changes of every device of the user's
 * companies, for lists and the dashboard), `device:{id}` (status, telemetry, events, configuration
 * state and command results of one device, for its detail page) or `campaigns` (progress of the
 * campaigns of the user's company, with `campaign:list`) or `alarms` (every change of the alarms
 * of the devices the user may see, with `alarm:list`). Subscriptions live as long as the
 * socket; a reconnecting console subscribes again.
 */
export const DEVICE_CHANNEL = /^(devices|campaigns|alarms|device:[0-9a-f]{32})$/;
export const ZChannel = z
  .string()
  .regex(DEVICE_CHANNEL, 'must be devices, campaigns, alarms or device:{id}');
export type TChannel = z.infer<typeof ZChannel>;
export const deviceChannel = (deviceId: string): TChannel => `device:${deviceId}`;
export const DEVICES_CHANNEL: TChannel = 'devices';
export const CAMPAIGNS_CHANNEL: TChannel = 'campaigns';
export const ALARMS_CHANNEL: TChannel = 'alarms';

/** Server → console. */
export const ZServerMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('topic'),
    msgId: ZId.describe('Announcement id'),
    msgTxt: z.string().describe('Title'),
    cmd: z.enum(['publish', 'revoke']),
  }),
  z.object({
    type: z.literal('user'),
    msgId: ZId.describe('Announcement id'),
    msgTxt: z.string().describe('Title'),
    cmd: z.enum(['publish', 'revoke', 'read']),
  }),
  z.object({ type: z.literal('heartbeat') }),
  z
    .object({ type: z.literal('resync') })
    .describe(
      'Messages may have been missed (the server nodes lost touch for a while): reload what is shown live',
    ),
  z.object({
    type: z.literal('device-status'),
    devices: z.array(ZDeviceLive).describe('Changes since the previous message, oldest first'),
  }),
  z.object({
    type: z.literal('device-telemetry'),
    deviceId: ZId,
    point: ZDeviceTelemetryPoint,
  }),
  z.object({ type: z.literal('device-event'), event: ZDeviceEvent }),
  z.object({ type: z.literal('device-config'), config: ZDeviceConfigState }),
  z.object({ type: z.literal('device-command'), command: ZDeviceCommand }),
  z.object({ type: z.literal('campaign-progress'), campaign: ZCampaignProgress }),
  z.object({
    type: z.literal('alarm'),
    alarm: ZAlarm.describe(
      'An alarm as it is after a change (raised, repeated, acknowledged, cleared); its message in the socket’s language',
    ),
  }),
  z.object({
    type: z.literal('subscribed'),
    channel: ZChannel.describe(
      'The subscription is in place: what the console loads now cannot miss a later change',
    ),
  }),
  z.object({
    type: z.literal('subscribe-refused'),
    channel: z.string(),
    reason: z.enum(['forbidden', 'not-found', 'invalid']),
  }),
]);
export type TServerMessage = z.infer<typeof ZServerMessage>;
export type TServerMessageType = TServerMessage['type'];

/** Console → server. */
export const ZClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heartbeat') }),
  z.object({ type: z.literal('subscribe'), channel: ZChannel }),
  z.object({ type: z.literal('unsubscribe'), channel: ZChannel }),
  z
    .object({ type: z.literal('language'), lang: z.enum(['zh-CN', 'en-US']) })
    .describe(
      "The console's language: announcement titles (`msgTxt`) reach this socket in it. Until the console says, the upgrade request's Accept-Language decides",
    ),
]);
export type TClientMessage = z.infer<typeof ZClientMessage>;

/** Spec section 9: a heartbeat after 20 s of silence, reconnect 5 s after a close or error. */
export const WS_HEARTBEAT_MS = 20_000;
export const WS_RECONNECT_MS = 5_000;
/** Fallback polling of the bell when the socket cannot connect (spec section 9). */
export const NOTICE_POLL_MS = 6_000;
/**
 * The browser sends the session token as the second subprotocol, after this marker:
 * `new WebSocket(url, [WS_TOKEN_PROTOCOL, token])`. Headers cannot be set on a browser websocket
 * and URLs end up in access logs, so neither the path nor the query carries the token.
 */
export const WS_TOKEN_PROTOCOL = 'blrms-token';
/** Close codes: the session is missing or expired; the path names another user. */
export const WS_CLOSE_UNAUTHORIZED = 4401;
export const WS_CLOSE_FORBIDDEN = 4403;
