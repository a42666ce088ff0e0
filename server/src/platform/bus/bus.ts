import type {
  TCampaignProgress,
  TDeviceCommand,
  TDeviceConfigState,
  TDeviceEvent,
  TDownKind,
  TDeviceLive,
  TDeviceTelemetryPoint,
  TDisconnectReason,
} from '@blrms/contracts';

/**
 * Events between the parts of the server, and between server nodes when Redis is configured.
 * Topics and their payloads are declared here so publishers and subscribers agree on them.
 */
export interface BusTopics {
  /** Sessions ended (logout, password change): drop them from every node's session cache. */
  'auth.sessions-revoked': { tokenHashes?: string[]; userId?: string };
  /** A user's session-visible data changed (current department, companies, status). */
  'auth.user-changed': { userId: string };
  /** Roles, grants or the menu catalogue changed: permissions must be resolved again. */
  'auth.permissions-changed': { userId?: string };
  /**
   * An announcement was published, revoked or read: the sockets of `userIds` (every user of the
   * company when null) get a websocket message on whichever node they are connected.
   */
  'notice.delivered': {
    companyId: string;
    userIds: string[] | null;
    msgId: string;
    msgTxt: string;
    cmd: 'publish' | 'revoke' | 'read';
  };
  /**
   * Presence of devices changed (connect, disconnect, status message), as persisted: sockets
   * subscribed to `devices` in the company, or to one of these devices, get a `device-status`.
   */
  'device.live': { companyId: string; devices: TDeviceLive[] };
  /** A device reported telemetry: sockets subscribed to `device:{id}` get it. */
  'device.telemetry': { companyId: string; deviceId: string; point: TDeviceTelemetryPoint };
  /** A device event was stored: sockets subscribed to `device:{id}` get it. */
  'device.event': { companyId: string; event: TDeviceEvent };
  /**
   * Close the MQTT connections of these devices on whichever node holds them (token disabled or
   * its key regenerated, device disabled or deleted). Empty selectors match nothing.
   */
  'device.kick': { tokenIds?: string[]; deviceIds?: string[]; reason: TDisconnectReason };
  /**
   * A downlink for a device whose connection another node's embedded broker holds: the node that
   * holds it publishes it (with an external broker any node publishes directly).
   */
  'device.downlink': { address: string; kind: TDownKind; id?: string; payload: unknown };
  /** A device's configuration state changed: sockets subscribed to `device:{id}` get it. */
  'device.config': { companyId: string; config: TDeviceConfigState };
  /** A command was sent, answered or timed out: sockets subscribed to `device:{id}` get it. */
  'device.command': { companyId: string; command: TDeviceCommand };
  /** A campaign's counts or state changed (at most about once a second per campaign). */
  'campaign.progress': { companyId: string; campaign: TCampaignProgress };
}

export type Topic = keyof BusTopics;
export type Handler<T extends Topic> = (payload: BusTopics[T]) => void;

export interface Bus {
  publish<T extends Topic>(topic: T, payload: BusTopics[T]): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe<T extends Topic>(topic: T, handler: Handler<T>): () => void;
  close(): Promise<void>;
}
