import type {
  TAlarm,
  TCampaignProgress,
  TDeviceCommand,
  TDeviceConfigState,
  TDeviceEvent,
  TDownKind,
  TDeviceLive,
  TDeviceTelemetryPoint,
  TDisconnectReason,
  TMonitorSnapshot,
} from '@blrms/contracts';
import type { Lang } from '../http/i18n.js';

/**
 * Events between the parts of the server, and between server nodes when Redis is configured.
 * Topics and their payloads are declared here so publishers and subscribers agree on them.
 */
export interface BusTopics {
  /** Sessions ended (logout, password change): drop them from every node's session cache. */
  'auth.sessions-revoked': { tokenHashes?: string[]; userId?: string };
  /** A user's session-visible data changed (current department, companies, status). */
  'auth.user-changed': { userId: string };
  /**
   * Roles, grants or the menu catalogue changed: permissions must be resolved again, the user's
   * (`userId`) or everyone's (no `userId`). A node that cached what the user's roles grant drops
   * that too, unless `rolesUnchanged` says only which roles the user holds changed (roles given or
   * taken, departments joined or left): a change to what a role grants is announced with
   * `auth.roles-changed` for the role, which such publishers must send first.
   */
  'auth.permissions-changed': { userId?: string; rolesUnchanged?: boolean };
  /**
   * What these roles grant changed, or they were deleted (company roles and department roles
   * alike, by id): every node drops what it cached of them and every user's grants built from
   * them. Published before the holders' `auth.permissions-changed`.
   */
  'auth.roles-changed': { roleIds: string[] };
  /**
   * An announcement was published, revoked or read: the sockets of `userIds` (every user of the
   * company when null) get a websocket message on whichever node they are connected.
   */
  'notice.delivered': {
    companyId: string;
    userIds: string[] | null;
    msgId: string;
    /** The title in each language: each socket gets it in its console's language. */
    msgTxt: Record<Lang, string>;
    cmd: 'publish' | 'revoke' | 'read';
  };
  /**
   * Presence of devices changed (connect, disconnect, status message), as persisted: sockets
   * subscribed to `devices` in the company, or to one of these devices, get a `device-status`.
   */
  'device.live': { companyId: string; devices: TDeviceLive[] };
  /**
   * A batch of telemetry was stored: sockets subscribed to `device:{id}` get their device's points.
   * One message per batch, times as epoch ms: as a message per sample, a storm's announcements
   * were tens of thousands of bus messages a second (each a Redis PUBLISH between nodes) for the
   * few devices anyone watches.
   */
  'device.telemetry': {
    points: { deviceId: string; ts: number; values: TDeviceTelemetryPoint['values'] }[];
  };
  /** A device event was stored: sockets subscribed to `device:{id}` get it. */
  'device.event': { companyId: string; event: TDeviceEvent };
  /**
   * Close the MQTT connections of these devices on whichever node holds them (token disabled or
   * its key regenerated, device disabled or deleted). Empty selectors match nothing.
   */
  'device.kick': {
    tokenIds?: string[];
    deviceIds?: string[];
    companyIds?: string[];
    reason: TDisconnectReason;
  };
  /**
   * A downlink for a device whose connection another node's embedded broker holds: the node that
   * holds it publishes it (with an external broker any node publishes directly).
   */
  'device.downlink': { address: string; kind: TDownKind; id?: string; payload: unknown };
  /** A device's configuration state changed: sockets subscribed to `device:{id}` get it. */
  'device.config': { companyId: string; config: TDeviceConfigState };
  /** A command was sent, answered or timed out: sockets subscribed to `device:{id}` get it. */
  'device.command': { companyId: string; command: TDeviceCommand };
  /**
   * Dictionaries of a company changed (of every company when it is the platform's, or when
   * absent: a cache refresh): every node drops what it cached of them.
   */
  'dict.changed': { companyId?: string };
  /** A campaign's counts or state changed (at most about once a second per campaign). */
  'campaign.progress': { companyId: string; campaign: TCampaignProgress };
  /**
   * A company's alarm rules were added, edited, enabled, disabled or deleted: every node reloads
   * the rules it evaluates for that company.
   */
  'alarm.rules-changed': { companyId: string };
  /**
   * An alarm was raised, repeated, acknowledged or cleared: sockets subscribed to `alarms` in the
   * company that may see the device get it, its message in the socket's language.
   */
  'alarm.changed': {
    companyId: string;
    alarm: Omit<TAlarm, 'message'>;
    messages: Record<Lang, string>;
  };
  /** A server node's state, every few seconds: the system monitor lists every node from them. */
  'monitor.node': TMonitorSnapshot;
  /**
   * This node's own news, never sent to other nodes: the link to the other nodes (Redis) is back
   * after a gap of `gapMs` in which events published here did not reach them and theirs did not
   * reach here. What the gap may have lost is derived again from the database: caches are
   * dropped, pending downlinks re-sent to the devices this node holds, consoles told to reload.
   */
  'bus.resumed': { gapMs: number };
}

/** Topics delivered on the publishing node only. */
export const LOCAL_TOPICS: ReadonlySet<Topic> = new Set<Topic>(['bus.resumed']);

export type Topic = keyof BusTopics;
export type Handler<T extends Topic> = (payload: BusTopics[T]) => void;

export interface Bus {
  /**
   * Delivers to this node's subscribers at once and, where there are other nodes, sends to them
   * without waiting for the link: it never blocks its caller on Redis. An event the link could
   * not carry is not retried; `bus.resumed` follows when the link is back.
   */
  publish<T extends Topic>(topic: T, payload: BusTopics[T]): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void;
  /** False while events published here may not reach the other nodes (Redis unreachable). */
  readonly connected: boolean;
  close(): Promise<void>;
}
