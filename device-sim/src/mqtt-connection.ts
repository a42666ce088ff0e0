import { connect, type Socket } from 'node:net';
import { generate, parser, type Packet, type QoS } from 'mqtt-packet';

/**
 * A lean MQTT 3.1.1 client: one TCP socket, one packet parser, no timers, no queues, no
 * reconnect logic of its own. mqtt.js gives every client its own timers, stores and streams,
 * which at tens of thousands of simulated devices costs more memory and CPU than the broker
 * under test; the device agent above drives keepalive and reconnects from the fleet's shared
 * timer wheel instead.
 */

export interface MqttEndpoint {
  host: string;
  port: number;
  /** Local address to bind: many source addresses lift the per-address ephemeral port limit. */
  localAddress?: string;
}

export interface MqttLogin {
  clientId: string;
  username: string;
  password: string;
  keepaliveSec: number;
  will?: { topic: string; payload: string; qos: QoS; retain: boolean };
}

export interface MqttConnectionHandlers {
  /** The CONNACK return code: 0 accepted, 1–5 refused (MQTT 3.1.1 §3.2.2.3). */
  connack(returnCode: number): void;
  message(topic: string, payload: Buffer): void;
  /** The broker registered a subscription (SUBACK): messages for it will now be delivered. */
  subscribed?(): void;
  /** The socket is gone, closed by either side; `error` when it failed. Called once. */
  closed(error: Error | undefined): void;
}

/** Writes beyond this much unsent data are refused, as a device with a full send buffer would. */
const SEND_BUFFER_LIMIT = 256 * 1024;

export class MqttConnection {
  /** `performance.now()` of the last packet written: keepalive pings only an idle connection. */
  lastSentAt = 0;
  private readonly socket: Socket;
  private nextMessageId = 1;
  private failure: Error | undefined;

  constructor(endpoint: MqttEndpoint, login: MqttLogin, handlers: MqttConnectionHandlers) {
    const packets = parser({ protocolVersion: 4 });
    this.socket = connect({
      host: endpoint.host,
      port: endpoint.port,
      ...(endpoint.localAddress ? { localAddress: endpoint.localAddress } : {}),
      noDelay: true,
    });
    this.socket.once('connect', () => {
      this.send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: login.clientId,
        username: login.username,
        password: Buffer.from(login.password),
        keepalive: login.keepaliveSec,
        ...(login.will ? { will: login.will } : {}),
      });
    });
    this.socket.on('data', (chunk: Buffer) => packets.parse(chunk));
    this.socket.on('error', (error) => {
      this.failure = error;
    });
    this.socket.once('close', () => handlers.closed(this.failure));
    packets.on('error', (error: Error) => {
      this.failure = error;
      this.socket.destroy();
    });
    packets.on('packet', (packet: Packet) => {
      if (packet.cmd === 'connack') {
        handlers.connack(packet.returnCode ?? packet.reasonCode ?? 0);
      } else if (packet.cmd === 'publish') {
        if (packet.qos === 1 && packet.messageId !== undefined)
          this.send({ cmd: 'puback', messageId: packet.messageId });
        const payload =
          typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
        handlers.message(packet.topic, payload);
      } else if (packet.cmd === 'suback') {
        handlers.subscribed?.();
      }
      // PUBACK and PINGRESP need no answer: the simulator neither retries nor waits.
    });
  }

  /** False when the socket already holds too much unsent data and the message was not sent. */
  publish(topic: string, payload: string | Buffer, qos: QoS, retain: boolean): boolean {
    if (this.socket.writableLength > SEND_BUFFER_LIMIT) return false;
    this.send({
      cmd: 'publish',
      topic,
      payload,
      qos,
      retain,
      dup: false,
      ...(qos > 0 ? { messageId: this.messageId() } : {}),
    });
    return true;
  }

  subscribe(filter: string, qos: QoS): void {
    this.send({
      cmd: 'subscribe',
      messageId: this.messageId(),
      subscriptions: [{ topic: filter, qos }],
    });
  }

  ping(): void {
    this.send({ cmd: 'pingreq' });
  }

  /** A polite goodbye: the broker discards the last will. */
  disconnect(): void {
    this.send({ cmd: 'disconnect' });
    this.socket.end();
  }

  /** Drops the connection without a word: the broker sees a lost connection. */
  destroy(): void {
    this.socket.destroy();
  }

  private send(packet: Packet): void {
    if (this.socket.destroyed) return;
    this.lastSentAt = performance.now();
    this.socket.write(generate(packet));
  }

  private messageId(): number {
    const id = this.nextMessageId;
    this.nextMessageId = id === 0xffff ? 1 : id + 1;
    return id;
  }
}
