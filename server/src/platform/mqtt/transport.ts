import type { TDisconnectReason } from '@blrms/contracts';

/*
 * What the device gateway sees of an MQTT broker, whichever it is: the embedded Aedes broker,
 * which asks the gateway about every connection, or an external broker that the server joins as
 * a client. Transports are thin: they translate broker events into these calls and back.
 */

/** What the gateway keeps on a connection it accepted: at least the connection's client id. */
export interface MqttSession {
  readonly clientId: string;
}

export interface ConnectRequest {
  clientId: string;
  username: string | undefined;
  password: Buffer | undefined;
  /** Source address of the socket. */
  ip: string | null;
}

/** CONNACK return codes of a refusal (MQTT 3.1.1): bad user name or password, not authorized. */
export type RefusalCode = 4 | 5;

export type ConnectVerdict<S extends MqttSession> =
  { accept: true; session: S } | { accept: false; returnCode: RefusalCode };

export interface InboundMessage<S extends MqttSession> {
  /** The connection that sent it; null when the broker is external (the topic names the SN). */
  session: S | null;
  topic: string;
  payload: Buffer;
  /** A retained message the broker replays, not one sent just now. */
  retained: boolean;
  /** The last will of a connection that is closing, published by the broker on its behalf. */
  will: boolean;
}

/** Calls a broker that holds device connections makes into the gateway. */
export interface BrokerHooks<S extends MqttSession> {
  authenticate(request: ConnectRequest): Promise<ConnectVerdict<S>>;
  /** Whether the connection may publish to, or subscribe to, this topic or filter. */
  authorize(session: S, action: 'publish' | 'subscribe', topic: string): boolean;
  connected(session: S): void;
  /** `takeover` when a newer connection with the same client id replaced this one. */
  disconnected(session: S, reason: TDisconnectReason): void;
  message(message: InboundMessage<S>): void;
  /** A packet over the size limit: the connection is closed without reading it. */
  oversized(session: S | null, bytes: number, ip: string | null): void;
}

/** Calls an external broker's client makes into the gateway. */
export interface ClientHooks<S extends MqttSession> {
  message(message: InboundMessage<S>): void;
}

export interface MqttTransport<S extends MqttSession> {
  readonly kind: 'embedded' | 'external';
  /** Publishes as the server: the device ACL does not apply. */
  publish(topic: string, payload: string | Buffer, options: { qos: 0 | 1 }): Promise<void>;
  /**
   * Closes the connection of this session, recording `reason`. False when the transport cannot
   * (an external broker) or the session is no longer connected here.
   */
  disconnect(session: S, reason: TDisconnectReason): boolean;
  /**
   * Whether a publish here reaches the device with this client id: always for an external broker,
   * only while the device is connected to this node for an embedded one.
   */
  holds(clientId: string): boolean;
  /** The sessions connected to this node (none for an external broker). */
  sessions(): Iterable<S>;
  close(): Promise<void>;
}
