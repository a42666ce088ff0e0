import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import {
  RESTART_WINDOW_MS,
  downTopic,
  type TDisconnectReason,
  type TDownKind,
  type TMqttAclRequest,
  type TMqttAuthRequest,
  type TMqttHookResult,
  type TMqttHookSecret,
  type TRestartKind,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus, BusTopics } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { EmbeddedBroker, REFUSED_LOG_INTERVAL_MS } from '../../platform/mqtt/embedded-broker.js';
import { ExternalBroker } from '../../platform/mqtt/external-broker.js';
import {
  DEFAULT_CONNECT_RATE_LIMIT,
  type ConnectRateLimit,
} from '../../platform/mqtt/rate-limiter.js';
import type {
  BrokerHooks,
  ConnectRequest,
  ConnectVerdict,
  InboundMessage,
} from '../../platform/mqtt/transport.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import { DeviceAbuse, type AbuseSummary } from './device-abuse.service.js';
import {
  DeviceConnection,
  type DeviceSession,
  type GatewayPartDeps,
  type GatewayRuntime,
} from './device-connection.service.js';
import type { GatewayRepository } from './gateway.repository.js';
import type { AlertSender } from './offline-alerts.service.js';
import { DevicePresence, type DevicePresenceOptions } from './presence.service.js';
import { MAX_PACKET_BYTES, UplinkService } from './uplink.service.js';
import { GuardedSink, type DeviceRef, type UplinkSink } from './uplink-sink.service.js';

export interface GatewayOptions extends DevicePresenceOptions {
  /** This node's id; by default host name and MQTT port (stable across restarts). */
  nodeId?: string;
  connectRateLimit?: ConnectRateLimit;
}

/** This node's MQTT traffic since it started: the system monitor and /metrics read it. */
export interface GatewayTraffic {
  broker: 'embedded' | 'external' | 'none';
  /** Devices connected to this node's embedded broker; null without one (external or none). */
  connected: number | null;
  received: number;
  sent: number;
  refused: number;
}

export interface GatewayDeps {
  repository: GatewayRepository;
  deviceLogs: DeviceLogService;
  permissions: PermissionService;
  alerts: AlertSender;
  bus: Bus;
  sink: UplinkSink;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The server's own account on an external broker (from MQTT_URL): the hooks allow it all. */
  serverAccount: { username: string; password: string } | null;
}

/**
 * The MQTT device gateway, composed of three parts that share this node's broker (the runtime):
 * {@link DeviceConnection} (who may connect and do what: login, ACL, EMQX hooks, refusals,
 * kicks), {@link UplinkService} (what devices publish: validated, then routed to the sink or to
 * presence) and {@link DevicePresence} (online/offline, last seen, node liveness, offline
 * alerts). The gateway itself runs the broker, answers its hooks by handing each to its part,
 * and sends downlinks.
 */
export class GatewayService implements BrokerHooks<DeviceSession> {
  private readonly runtime: GatewayRuntime = {
    transport: null,
    nodeId: `${os.hostname()}:${process.pid}`,
    closing: false,
  };
  private embedded: EmbeddedBroker<DeviceSession> | null = null;
  private readonly log: FastifyBaseLogger;
  private readonly events: GuardedSink;
  private readonly abuse: DeviceAbuse;
  private readonly connection: DeviceConnection;
  private readonly presence: DevicePresence;
  private readonly uplinks: UplinkService;
  private readonly unsubscribeBus: () => void;
  private readonly counts = { received: 0, sent: 0, refused: 0 };

  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: GatewayOptions = {},
  ) {
    this.log = deps.log.child({ module: 'mqtt' });
    this.events = new GuardedSink(deps.sink, deps.clock, this.log);
    this.abuse = new DeviceAbuse(deps.clock, (summary) => this.abuseSummary(summary));
    const shared: GatewayPartDeps = {
      clock: deps.clock,
      log: this.log,
      events: this.events,
      abuse: this.abuse,
      runtime: this.runtime,
    };
    this.presence = new DevicePresence(
      { ...shared, repository: deps.repository, alerts: deps.alerts, bus: deps.bus },
      options,
    );
    this.connection = new DeviceConnection({
      ...shared,
      repository: deps.repository,
      deviceLogs: deps.deviceLogs,
      permissions: deps.permissions,
      serverAccount: deps.serverAccount,
    });
    this.uplinks = new UplinkService({
      ...shared,
      connection: this.connection,
      presence: this.presence,
    });
    const offKick = deps.bus.subscribe('device.kick', (kick) => this.connection.kick(kick));
    // Kicks published on other nodes while the bus was away never arrived: check again what
    // admits the connections held here.
    const offResumed = deps.bus.subscribe('bus.resumed', () => {
      this.connection
        .recheckHeld()
        .catch((err: unknown) =>
          this.log.warn({ err }, 'held connections not checked again after the bus gap'),
        );
    });
    const offDownlink = deps.bus.subscribe('device.downlink', (downlink) =>
      this.downlink(downlink),
    );
    this.unsubscribeBus = () => {
      offKick();
      offResumed();
      offDownlink();
    };
  }

  // ---------------------------------------------------------------- lifecycle

  /** Runs the embedded broker on `port` (0: any free port) and MQTT over WebSocket at /mqtt. */
  async startEmbedded(port: number, host: string): Promise<void> {
    this.runtime.nodeId =
      this.options.nodeId ?? `${os.hostname()}:${port === 0 ? newId().slice(0, 8) : port}`;
    // Before accepting connections: what the previous run of this node held is offline now.
    await this.presence.startLiveness();
    this.embedded = await EmbeddedBroker.start(this, {
      id: this.runtime.nodeId,
      port,
      host,
      maxPacketBytes: MAX_PACKET_BYTES,
      connectRateLimit: this.options.connectRateLimit ?? DEFAULT_CONNECT_RATE_LIMIT,
      log: this.log,
    });
    this.runtime.transport = this.embedded;
    this.presence.startAlerts();
    this.log.info(
      { port: this.embedded.port, node: this.runtime.nodeId },
      'embedded MQTT broker listening',
    );
  }

  /** Joins an external broker (MQTT_URL) as the client `blrms-<node>`. */
  async startExternal(url: string): Promise<void> {
    this.runtime.nodeId = this.options.nodeId ?? this.runtime.nodeId;
    this.runtime.transport = await ExternalBroker.start(
      url,
      `blrms-${this.runtime.nodeId}`,
      this,
      this.log,
    );
    this.presence.startAlerts();
  }

  /**
   * This node's id. A device connected to this node's embedded broker carries it in
   * `device.node_id`, so that only this node dispatches work to it; a device of an external
   * broker carries none (any node reaches it).
   */
  get node(): string {
    return this.runtime.nodeId;
  }

  /** Messages received and sent, refused connects and held connections, since start. */
  traffic(): GatewayTraffic {
    const { transport } = this.runtime;
    return {
      broker: transport?.kind ?? 'none',
      connected: transport?.kind === 'embedded' ? this.heldDevices().length : null,
      received: this.counts.received,
      sent: this.counts.sent,
      refused: this.counts.refused + (this.embedded?.rateLimitedTotal ?? 0),
    };
  }

  /** The embedded broker's TCP port; null when it does not run. */
  get port(): number | null {
    return this.embedded?.port ?? null;
  }

  /** MQTT over WebSocket on the HTTP server; false for other paths (or without the broker). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    return this.embedded?.handleUpgrade(request, socket, head) ?? false;
  }

  /**
   * This node's periodic work: heartbeat, offline alerts, the end of bad-payload windows, the log
   * of connects the embedded broker refused.
   */
  scheduledJobs(): JobSpec[] {
    return [
      ...this.presence.scheduledJobs(),
      {
        name: 'device-gateway.abuse-windows',
        everyMs: this.abuse.sweepEveryMs,
        scope: 'node',
        run: async () => this.abuse.sweep(),
      },
      {
        name: 'device-gateway.refused-connects',
        everyMs: REFUSED_LOG_INTERVAL_MS,
        scope: 'node',
        run: async () => this.embedded?.reportRefused(),
      },
    ];
  }

  async close(): Promise<void> {
    this.runtime.closing = true;
    this.unsubscribeBus();
    await this.presence.stopAlerts();
    await this.runtime.transport?.close();
    this.abuse.close();
    await this.presence.close();
  }

  // ---------------------------------------------------------------- downlinks

  /**
   * Sends a downlink as the server (remote configuration, RPC, OTA). An external broker reaches
   * the device from any node; an embedded broker only from the node that holds the connection, so
   * a device connected elsewhere gets it through the bus. A device connected nowhere misses it:
   * callers re-send what is pending when the device's next online status arrives. `address` is
   * the device's `{tokenCode}:{sn}`: only a connection that logged in with that token's key holds
   * it, never a device of another token that has the same SN.
   */
  async send(
    address: string,
    kind: TDownKind,
    id: string | undefined,
    payload: unknown,
  ): Promise<void> {
    const { transport } = this.runtime;
    if (transport?.holds(address)) {
      await transport.publish(downTopic(address, kind, id), JSON.stringify(payload), { qos: 1 });
      this.counts.sent += 1;
      return;
    }
    await this.deps.bus.publish('device.downlink', { address, kind, id, payload });
  }

  /**
   * The devices whose connections this node's embedded broker holds: downlinks other nodes send
   * them go through the bus, so after a gap in the bus their callers re-send what is pending. None
   * with an external broker, which any node reaches directly.
   */
  heldDevices(): DeviceRef[] {
    const { transport } = this.runtime;
    if (transport?.kind !== 'embedded') return [];
    return [...transport.sessions()].filter((session) => !session.watcher);
  }

  /** A downlink another node sent for a device whose connection this node may hold. */
  private downlink({ address, kind, id, payload }: BusTopics['device.downlink']): void {
    const { transport } = this.runtime;
    if (!transport || transport.kind !== 'embedded' || !transport.holds(address)) return;
    transport
      .publish(downTopic(address, kind, id), JSON.stringify(payload), { qos: 1 })
      .then(() => {
        this.counts.sent += 1;
      })
      .catch((error: unknown) =>
        this.log.error({ err: error, device: address }, 'downlink not delivered'),
      );
  }

  // ---------------------------------------------------------------- presence

  /** See {@link DevicePresence.reachable}. */
  reachable(deviceId: string): Promise<boolean> {
    return this.presence.reachable(deviceId);
  }

  /** See {@link DevicePresence.expectRestart}. */
  expectRestart(
    deviceId: string,
    kind: TRestartKind,
    windowMs = RESTART_WINDOW_MS[kind],
  ): Promise<void> {
    return this.presence.expectRestart(deviceId, kind, windowMs);
  }

  /** Sends the offline alerts that are due (on a timer; tests call it after moving the clock). */
  checkAlerts(): Promise<void> {
    return this.presence.checkAlerts();
  }

  /** Heartbeat and the sweep of silent nodes (on a timer; tests call it after moving the clock). */
  sweepNodes(): Promise<void> {
    return this.presence.sweepNodes();
  }

  // ---------------------------------------------------------------- broker hooks

  async authenticate(request: ConnectRequest): Promise<ConnectVerdict<DeviceSession>> {
    const verdict = await this.connection.authenticate(request);
    if (!verdict.accept) this.counts.refused += 1;
    return verdict;
  }

  authorize(session: DeviceSession, action: 'publish' | 'subscribe', topic: string): boolean {
    return this.connection.authorize(session, action, topic);
  }

  connected(session: DeviceSession): void {
    this.presence.connected(session);
  }

  disconnected(session: DeviceSession, reason: TDisconnectReason): void {
    this.presence.disconnected(session, reason);
  }

  message(message: InboundMessage<DeviceSession>): void {
    this.counts.received += 1;
    this.uplinks.message(message);
  }

  oversized(session: DeviceSession | null, bytes: number, ip: string | null): void {
    this.uplinks.oversized(session, bytes, ip);
  }

  // ---------------------------------------------------------------- EMQX hooks

  async hookAuth(body: TMqttAuthRequest): Promise<TMqttHookResult> {
    const result = await this.connection.hookAuth(body);
    if (result.result === 'deny') this.counts.refused += 1;
    return result;
  }

  hookAcl(body: TMqttAclRequest): TMqttHookResult {
    return this.connection.hookAcl(body);
  }

  /** Whether a hook request carries the shared secret (compared in constant time). */
  hookSecretMatches(given: string | undefined): Promise<boolean> {
    return this.connection.hookSecretMatches(given);
  }

  /** The secret to configure in the external broker's hooks: for platform administrators only. */
  hookSecretFor(scope: Scope): Promise<TMqttHookSecret> {
    return this.connection.hookSecretFor(scope);
  }

  /** The shared secret of the EMQX hooks, made at first start (see {@link DeviceConnection}). */
  hookSecret(): Promise<string> {
    return this.connection.hookSecret();
  }

  // ---------------------------------------------------------------- misbehaviour

  /**
   * A device did more in a minute than was recorded: one event and one log line say how much.
   */
  private abuseSummary({ device, counts, notRecorded }: AbuseSummary): void {
    const done = Object.entries(counts)
      .map(([kind, n]) => `${kind} ×${n}`)
      .join(', ');
    this.log.warn(
      { device: device.address, counts, notRecorded },
      'MQTT device misbehaved repeatedly: counted, not all recorded',
    );
    this.events.record(device, {
      level: 'warn',
      code: 'repeats-summarised',
      message: `In the last minute: ${done}; ${notRecorded} of them not recorded one by one`,
      source: 'platform',
    });
  }
}
