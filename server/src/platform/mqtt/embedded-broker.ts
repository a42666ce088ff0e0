import type { IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import type { TDisconnectReason } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { BrokerPersistence } from './broker-persistence.js';
import { ConnectRateLimiter, type ConnectRateLimit } from './rate-limiter.js';
import type { BrokerHooks, MqttSession, MqttTransport } from './transport.js';

/** MQTT over WebSocket is served on the HTTP server's port at this path. */
export const MQTT_WS_PATH = '/mqtt';

/**
 * Where a refused publish goes instead of its topic. MQTT 3.1.1 lets a broker either acknowledge
 * and discard an unauthorized publish or close the connection (MQTT-3.3.5-2); Aedes only knows how
 * to close, so the packet is rerouted to a topic no device may subscribe to, and counted by the
 * gateway, which closes connections that keep doing it.
 */
const DISCARDED_TOPIC = '$blrms/discarded';

/** How often the refused connects are logged (the gateway's job calls `reportRefused`). */
export const REFUSED_LOG_INTERVAL_MS = 10_000;
const SYS_PREFIX = '$SYS/';

export interface EmbeddedBrokerOptions {
  /** This node's id: the Aedes broker id. */
  id: string;
  port: number;
  host: string;
  /** Larger packets close the connection as soon as their length is read. */
  maxPacketBytes: number;
  connectRateLimit: ConnectRateLimit;
  log: FastifyBaseLogger;
}

/** What the broker keeps on each connection besides Aedes' own state. */
interface ConnectionState<S> {
  ip: string | null;
  session: S | null;
  /** Set once Aedes registered the connection (and the gateway heard it connected). */
  registered: boolean;
  /** Why the server closed it, when it did. */
  reason: TDisconnectReason | null;
  /** A newer connection with the same client id, until that one is registered. */
  takenOverBy: Client | null;
}

type AedesPublish = (packet: PublishPacket, ...rest: unknown[]) => void;

const STATE = Symbol('blrms.connection');
type Tracked<S> = Client & { [STATE]?: ConnectionState<S> };

class PacketTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`packet of ${bytes} bytes is over the limit`);
  }
}

/** The parts of mqtt-packet's parser the size limit needs (Aedes does not expose a limit). */
interface PacketParser {
  packet: { length: number };
  _parseLength(): boolean;
  _emitError(error: Error): void;
}

/** `::ffff:10.0.0.1` → `10.0.0.1`: the console shows IPv4 clients as such. */
function plainAddress(address: string | undefined): string | null {
  if (!address) return null;
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * The embedded broker: Aedes behind a TCP server on `MQTT_PORT`, and the same broker over
 * WebSocket at `/mqtt` on the HTTP port. Every connection is rate limited per source address when
 * it is accepted, authenticated and authorized by the gateway, and its disconnect is reported with
 * the reason (client disconnect, keepalive timeout, connection lost, takeover, or the server's).
 */
export class EmbeddedBroker<S extends MqttSession> implements MqttTransport<S> {
  readonly kind = 'embedded';
  private readonly broker: Aedes;
  private readonly tcp: net.Server;
  private readonly ws: WebSocketServer;
  private readonly limiter: ConnectRateLimiter;
  private readonly refused = new Map<string, number>();
  /** Connects refused by the rate limit since start (the monitor's counter). */
  rateLimitedTotal = 0;
  private readonly limitParseLength: (this: PacketParser) => boolean;

  private constructor(
    private readonly hooks: BrokerHooks<S>,
    private readonly options: EmbeddedBrokerOptions,
  ) {
    this.limiter = new ConnectRateLimiter(options.connectRateLimit);
    this.broker = new Aedes({
      id: options.id,
      persistence: new BrokerPersistence(),
      // SNs are up to 64 characters; Aedes' default is MQTT 3.1's 23.
      maxClientsIdLength: 64,
      connectTimeout: 10_000,
      drainTimeout: 10_000,
      authenticate: (client, username, password, done) =>
        this.authenticate(client as Tracked<S>, username, password, done),
      authorizePublish: (client, packet, done) => {
        this.authorizePublish(client as Tracked<S> | null, packet);
        done(null);
      },
      authorizeSubscribe: (client, subscription, done) => {
        const session = stateOf(client as Tracked<S>).session;
        const allowed =
          session !== null && hooks.authorize(session, 'subscribe', subscription.topic);
        // A null subscription is refused in the SUBACK (0x80); the others of the packet stand.
        done(null, allowed ? subscription : null);
      },
    });
    // Aedes announces every connect, subscribe and disconnect on `$SYS/…` topics that nothing here
    // reads (devices may not subscribe to them; the gateway hears the events directly), and each
    // announcement went through the topic matchers: dropped before it is built into a packet.
    // A connection's own publish (and its will), once authorized, is on its device's `up/` tree
    // or on the discard topic, and no connection may subscribe to either (only to its `down/`
    // tree): it goes to the gateway at once instead of through the matchers, the offline queues
    // and the retained store, which at tens of thousands of messages a second cost more than the
    // gateway's own work. The server's own publishes (downlinks) have no client and are routed.
    // (Aedes calls it as publish(packet, client, done); the server as publish(packet, done).)
    const broker = this.broker as unknown as { publish: AedesPublish };
    const publish = broker.publish.bind(this.broker);
    broker.publish = (packet, ...rest) => {
      const done = rest.at(-1);
      const [client] = rest;
      if (client !== null && typeof client === 'object') {
        this.published(client as Tracked<S>, packet);
      } else if (!packet.topic.startsWith(SYS_PREFIX)) {
        return publish(packet, ...rest);
      }
      if (typeof done === 'function') (done as (error: null) => void)(null);
    };
    this.broker.on('client', (client: Tracked<S>) => {
      const state = stateOf(client);
      state.registered = true;
      if (state.session) hooks.connected(state.session);
    });
    this.broker.on('keepaliveTimeout', (client: Tracked<S>) => {
      stateOf(client).reason ??= 'keepalive-timeout';
    });
    this.broker.on('clientDisconnect', (client: Tracked<S>) => this.disconnected(client));
    const onError = (client: Tracked<S>, error: Error) => this.clientError(client, error);
    this.broker.on('clientError', onError);
    this.broker.on('connectionError', onError);

    const max = options.maxPacketBytes;
    this.limitParseLength = function (this: PacketParser) {
      const parseLength = (Object.getPrototypeOf(this) as PacketParser)._parseLength;
      const complete = parseLength.call(this);
      if (complete && this.packet.length > max) {
        this._emitError(new PacketTooLarge(this.packet.length));
        return false;
      }
      return complete;
    };

    this.tcp = net.createServer({ noDelay: true }, (socket) =>
      this.accept(socket, plainAddress(socket.remoteAddress)),
    );
    this.ws = new WebSocketServer({
      noServer: true,
      maxPayload: max + 16,
      perMessageDeflate: false,
      handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : false),
    });
  }

  static async start<S extends MqttSession>(
    hooks: BrokerHooks<S>,
    options: EmbeddedBrokerOptions,
  ): Promise<EmbeddedBroker<S>> {
    const broker = new EmbeddedBroker(hooks, options);
    await broker.broker.listen();
    await new Promise<void>((resolve, reject) => {
      const fail = (error: NodeJS.ErrnoException) => {
        broker.broker.close();
        reject(
          error.code === 'EADDRINUSE'
            ? new Error(
                `MQTT_PORT ${options.port} is in use: choose another port, ` +
                  'or 0 to run without the embedded broker',
              )
            : error,
        );
      };
      broker.tcp.once('error', fail);
      broker.tcp.listen(options.port, options.host, () => {
        broker.tcp.off('error', fail);
        resolve();
      });
    });
    broker.tcp.on('error', (error) => options.log.error({ err: error }, 'MQTT listener failed'));
    return broker;
  }

  /** The TCP port the broker listens on (the real one when started on port 0). */
  get port(): number {
    return (this.tcp.address() as AddressInfo).port;
  }

  /** MQTT over WebSocket; false when the request is for another path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    if (new URL(request.url ?? '/', 'http://x').pathname !== MQTT_WS_PATH) return false;
    const ip = plainAddress(request.socket.remoteAddress);
    if (!this.admit(ip)) {
      socket.destroy();
      return true;
    }
    this.ws.handleUpgrade(request, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      this.handle(stream, ip);
    });
    return true;
  }

  async publish(topic: string, payload: string | Buffer, options: { qos: 0 | 1 }): Promise<void> {
    const packet: PublishPacket = {
      cmd: 'publish',
      topic,
      payload: typeof payload === 'string' ? Buffer.from(payload) : payload,
      qos: options.qos,
      retain: false,
      dup: false,
    };
    await new Promise<void>((resolve, reject) =>
      this.broker.publish(packet, (error) => (error ? reject(error) : resolve())),
    );
  }

  disconnect(session: S, reason: TDisconnectReason): boolean {
    const client = this.clients()[session.clientId];
    if (!client || stateOf(client).session !== session) return false;
    stateOf(client).reason = reason;
    client.close();
    return true;
  }

  holds(clientId: string): boolean {
    const client = this.clients()[clientId];
    return client !== undefined && stateOf(client).registered;
  }

  *sessions(): Iterable<S> {
    for (const client of Object.values(this.clients())) {
      const state = stateOf(client);
      if (state.registered && state.session) yield state.session;
    }
  }

  async close(): Promise<void> {
    this.reportRefused();
    this.tcp.close();
    this.ws.close();
    for (const client of Object.values(this.clients())) stateOf(client).reason = 'server-shutdown';
    await new Promise<void>((resolve) => this.broker.close(() => resolve()));
  }

  private clients(): Record<string, Tracked<S>> {
    return (this.broker as unknown as { clients: Record<string, Tracked<S>> }).clients;
  }

  private admit(ip: string | null): boolean {
    const key = ip ?? 'unknown';
    if (this.limiter.take(key)) return true;
    this.rateLimitedTotal += 1;
    this.refused.set(key, (this.refused.get(key) ?? 0) + 1);
    return false;
  }

  private accept(socket: net.Socket, ip: string | null): void {
    if (!this.admit(ip)) {
      socket.destroy();
      return;
    }
    this.handle(socket, ip);
  }

  private handle(stream: Duplex, ip: string | null): void {
    const client = this.broker.handle(stream) as Tracked<S>;
    client[STATE] = { ip, session: null, registered: false, reason: null, takenOverBy: null };
    const parser = (client as unknown as { _parser: PacketParser })._parser;
    parser._parseLength = this.limitParseLength;
  }

  private authenticate(
    client: Tracked<S>,
    username: string | undefined,
    password: Buffer | undefined,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ): void {
    const state = stateOf(client);
    const refuse = (returnCode: number) => {
      const error = new Error('connection refused') as AuthenticateError;
      error.returnCode = returnCode;
      done(error, null);
    };
    this.hooks.authenticate({ clientId: client.id, username, password, ip: state.ip }).then(
      (verdict) => {
        if (!verdict.accept) return refuse(verdict.returnCode);
        state.session = verdict.session;
        // Aedes closes the older connection with the same client id when it registers this one:
        // mark it, so that its disconnect is reported as a takeover and not as the device leaving.
        const previous = this.clients()[client.id];
        if (previous && previous !== client) stateOf(previous).takenOverBy = client;
        done(null, true);
      },
      (error: unknown) => {
        this.options.log.error({ err: error, clientId: client.id }, 'MQTT authentication failed');
        refuse(3);
      },
    );
  }

  private authorizePublish(client: Tracked<S> | null, packet: PublishPacket): void {
    // Only the server reads device uplinks, as they arrive: keeping them retained would only hold
    // memory. (Wills come through here too.)
    packet.retain = false;
    const session = client ? stateOf(client).session : null;
    if (!session || !this.hooks.authorize(session, 'publish', packet.topic)) {
      packet.topic = DISCARDED_TOPIC;
    }
  }

  private published(client: Tracked<S>, packet: PublishPacket): void {
    if (packet.topic === DISCARDED_TOPIC) return;
    const session = stateOf(client).session;
    if (!session) return;
    this.hooks.message({
      session,
      topic: packet.topic,
      payload: typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload,
      retained: false,
      // Aedes publishes a connection's will while closing it.
      will: client.closed,
    });
  }

  private disconnected(client: Tracked<S>): void {
    const state = stateOf(client);
    if (!state.registered || !state.session) return;
    state.registered = false;
    let reason = state.reason;
    if (!reason && state.takenOverBy && !state.takenOverBy.closed) reason = 'takeover';
    if (!reason) {
      // Set by Aedes when the client sent DISCONNECT before closing.
      const clean = (client as unknown as { _disconnected: boolean })._disconnected;
      reason = clean ? 'client-disconnect' : 'connection-lost';
    }
    state.takenOverBy = null;
    this.hooks.disconnected(state.session, reason);
  }

  private clientError(client: Tracked<S>, error: Error): void {
    const state = client[STATE];
    if (error instanceof PacketTooLarge) {
      if (state) state.reason ??= 'bad-payloads';
      this.hooks.oversized(state?.session ?? null, error.bytes, state?.ip ?? null);
      return;
    }
    this.options.log.debug({ err: error, clientId: client.id, ip: state?.ip }, 'MQTT client error');
  }

  /**
   * One line per address and interval, however many connections it had refused; then forgets the
   * addresses the rate limiter no longer needs.
   */
  reportRefused(): void {
    for (const [ip, count] of this.refused) {
      this.options.log.warn(
        { ip, refused: count, reason: 'rate-limited' },
        'MQTT connects refused',
      );
    }
    this.refused.clear();
    this.limiter.prune();
  }
}

function stateOf<S>(client: Tracked<S>): ConnectionState<S> {
  const state = client[STATE];
  if (!state) throw new Error('MQTT connection without state');
  return state;
}
