import { TOPIC_ROOT, type TDisconnectReason } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { ClientHooks, MqttSession, MqttTransport } from './transport.js';

/** Server nodes share the device uplinks through this shared-subscription group. */
const SHARE_GROUP = 'blrms';
const FIRST_CONNECT_WAIT_MS = 10_000;

/**
 * Uplinks but status, each delivered to one node of the group. Status is not among them: brokers
 * do not send retained messages to shared subscriptions, and presence after a restart comes from
 * the retained status (and the last will that replaces it), so every node subscribes to it
 * directly; presence writes are idempotent.
 */
const SHARED_FILTERS = ['telemetry', 'event', 'config/reported', 'rpc/+', 'ota/+'].map(
  (kind) => `$share/${SHARE_GROUP}/${TOPIC_ROOT}/+/up/${kind}`,
);
const STATUS_FILTER = `${TOPIC_ROOT}/+/up/status`;

/**
 * An external broker (EMQX, Mosquitto) that the server joins as a client named `blrms-<node>`.
 * The broker holds the device connections, so this transport cannot close one: a kicked device is
 * refused by the authentication hook when it next connects.
 */
export class ExternalBroker<S extends MqttSession> implements MqttTransport<S> {
  readonly kind = 'external';
  private readonly client: MqttClient;

  private constructor(
    url: string,
    clientId: string,
    hooks: ClientHooks<S>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = mqtt.connect(url, { clientId, clean: true, reconnectPeriod: 2000 });
    this.client.on('message', (topic, payload, packet) =>
      hooks.message({ session: null, topic, payload, retained: packet.retain, will: false }),
    );
    this.client.on('error', (error) => log.warn({ err: error }, 'MQTT broker connection error'));
    this.client.on('offline', () => log.warn('MQTT broker unreachable; reconnecting'));
  }

  /** Connects and subscribes; waits at most 10 s for the broker, then keeps trying behind. */
  static async start<S extends MqttSession>(
    url: string,
    clientId: string,
    hooks: ClientHooks<S>,
    log: FastifyBaseLogger,
  ): Promise<ExternalBroker<S>> {
    const broker = new ExternalBroker(url, clientId, hooks, log);
    const subscribed = new Promise<void>((resolve) => {
      broker.client.on('connect', () => {
        broker
          .subscribe()
          .then(resolve, (error: unknown) => log.error({ err: error }, 'MQTT subscribe failed'));
      });
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      subscribed.then(() => true),
      new Promise<false>(
        (resolve) => (timer = setTimeout(() => resolve(false), FIRST_CONNECT_WAIT_MS)),
      ),
    ]);
    clearTimeout(timer);
    if (!waited) log.warn('MQTT broker not reached yet; the server keeps trying');
    return broker;
  }

  async publish(topic: string, payload: string | Buffer, options: { qos: 0 | 1 }): Promise<void> {
    await this.client.publishAsync(topic, payload, { qos: options.qos });
  }

  disconnect(_session: S, _reason: TDisconnectReason): boolean {
    return false;
  }

  holds(_clientId: string): boolean {
    return true;
  }

  sessions(): Iterable<S> {
    return [];
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }

  private async subscribe(): Promise<void> {
    await this.client.subscribeAsync([...SHARED_FILTERS, STATUS_FILTER], { qos: 1 });
    this.log.info('subscribed to device uplinks on the external MQTT broker');
  }
}
