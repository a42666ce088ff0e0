import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import {
  COMPANY_STATUS,
  MQTT_HOOK_SECRET_HEADER,
  MQTT_PAYLOAD_MAX_BYTES,
  RESTART_WINDOW_MS,
  TELEMETRY_KEY,
  TELEMETRY_VALUES_MAX,
  ZConfigReportedPayload,
  ZEventPayload,
  ZOtaReportPayload,
  ZRpcReplyPayload,
  ZStatusPayload,
  ZTelemetryPayload,
  deviceMayUse,
  downTopic,
  parseDeviceAddress,
  parseTopic,
  type TDisconnectReason,
  type TDownKind,
  type TMqttAclRequest,
  type TMqttAuthRequest,
  type TMqttHookResult,
  type TMqttHookSecret,
  type TParsedTopic,
  type TRefusalReason,
  type TRestartKind,
  type TStatusPayload,
  type TTelemetryPayload,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { Bus, BusTopics } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { forbidden } from '../../platform/http/app-error.js';
import { EmbeddedBroker } from '../../platform/mqtt/embedded-broker.js';
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
  MqttSession,
  MqttTransport,
} from '../../platform/mqtt/transport.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import { AutoRegistration } from './auto-register.js';
import { DeviceAbuse, type AbuseSummary } from './device-abuse.js';
import type { GatewayRepository, LiveRow, PresenceValues } from './gateway.repository.js';
import {
  NodeLiveness,
  DEFAULT_LIVENESS_OPTIONS,
  type NodeLivenessOptions,
} from './node-liveness.js';
import {
  DEFAULT_ALERT_OPTIONS,
  OfflineAlerts,
  type AlertSender,
  type OfflineAlertOptions,
} from './offline-alerts.js';
import {
  DEFAULT_PRESENCE_OPTIONS,
  PresenceWriter,
  type PresenceWriterOptions,
} from './presence.js';
import type { DeviceEventInput, DeviceRef, UplinkSink } from './uplink-sink.js';

/**
 * Bad payloads a device may send per minute (counted over all its connections); one more closes
 * an embedded connection, and so does every further one in that minute.
 */
const BAD_PAYLOAD_LIMIT = 20;
/**
 * Refused subscriptions per connection before it is closed. A refused publish closes it at once:
 * MQTT 3.1.1 has no negative PUBACK, and a device whose publish was dropped without a word would
 * believe it delivered (MQTT-3.3.5-2 lets the server close instead).
 */
const ACL_VIOLATION_LIMIT = 10;
/**
 * A watcher logs in with its device's key as `{address}:watch` (username: the address): it may
 * subscribe to what the server sends the device and nothing more, and it is not the device (no
 * presence, never taken over by nor taking over the device's own session).
 */
const WATCH_SUFFIX = ':watch';
/**
 * The same refusal (client id and reason) is logged once per window, with how often it repeated.
 */
const REFUSAL_LOG_WINDOW_MS = 60_000;
const REFUSAL_LOG_KEYS_MAX = 10_000;
/**
 * External broker: how long a device looked up by address is trusted, and an unknown address
 * remembered.
 */
const EXTERNAL_DEVICE_TTL_MS = 10 * 60_000;
const EXTERNAL_UNKNOWN_TTL_MS = 30_000;
/**
 * Packets a little over the payload limit are read and recorded as malformed; larger ones close
 * the connection before they are read.
 */
const MAX_PACKET_BYTES = 2 * MQTT_PAYLOAD_MAX_BYTES;
const HOOK_SECRET_SETTING = 'mqtt.hook-secret';
/** What the device log names as the request of a connection attempt. */
const CONNECT_REQUEST = 'MQTT CONNECT';

/**
 * A connected device, kept on its connection so that uplinks need no database lookup. Small on
 * purpose: there is one per connected device. Its client id is its address, `{tokenCode}:{sn}`.
 */
/** Held connections checked in one query after a bus gap. */
const RECHECK_BATCH = 500;

export class DeviceSession implements MqttSession, DeviceRef {
  /** The id of this connection's row in the connection history. */
  readonly connectionId = newId();
  aclViolations = 0;

  constructor(
    readonly id: string,
    readonly companyId: string,
    readonly sn: string,
    readonly address: string,
    readonly tokenId: string,
    readonly ip: string | null,
    readonly connectedAt: number,
    /** A watcher of the device's downlinks, not the device (see {@link WATCH_SUFFIX}). */
    readonly watcher = false,
    /** The hash of the key it logged in with: a key regenerated since no longer admits it. */
    readonly keyHash: string | null = null,
  ) {}

  get clientId(): string {
    return this.watcher ? `${this.address}${WATCH_SUFFIX}` : this.address;
  }
}

type LoginOutcome =
  | {
      ok: true;
      deviceId: string;
      companyId: string;
      tokenId: string;
      sn: string;
      address: string;
      watcher: boolean;
    }
  | { ok: false; reason: TRefusalReason };

interface LoginInput {
  clientId: string;
  username: string;
  password: string;
  ip: string | null;
}

/** What a refusal is logged against: the device's company, when it is known. */
interface RefusalContext {
  /** The client id as given: the device's address when it is one. */
  address: string;
  ip: string | null;
  companyId?: string;
  deviceId?: string | null;
  ownerName?: string;
}

/** CONNACK 4 (bad user name or password) for credentials, 5 (not authorized) for the rest. */
const CREDENTIAL_REFUSALS: ReadonlySet<TRefusalReason> = new Set([
  'bad-credentials',
  'token-unknown',
  'token-disabled',
  'token-mismatch',
]);

export interface GatewayOptions {
  /** This node's id; by default host name and MQTT port (stable across restarts). */
  nodeId?: string;
  connectRateLimit?: ConnectRateLimit;
  presence?: Partial<PresenceWriterOptions>;
  alerts?: Partial<OfflineAlertOptions>;
  liveness?: Partial<NodeLivenessOptions>;
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

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The MQTT device gateway: who may connect (SN + token key, auto-registration, refusals written to
 * the device log), what a connection may publish and subscribe to, presence (online/offline,
 * reasons, takeovers, node liveness), routing of uplinks to the device-data module, kicks of
 * connections whose token or device was disabled, and the EMQX hooks of the external-broker mode.
 */
export class GatewayService implements BrokerHooks<DeviceSession> {
  private transport: MqttTransport<DeviceSession> | null = null;
  private embedded: EmbeddedBroker<DeviceSession> | null = null;
  private liveness: NodeLiveness | null = null;
  private get livenessOptions(): NodeLivenessOptions {
    return { ...DEFAULT_LIVENESS_OPTIONS, ...this.options.liveness };
  }
  private nodeId = `${os.hostname()}:${process.pid}`;
  private closing = false;
  private readonly presence: PresenceWriter;
  private readonly registration: AutoRegistration;
  private readonly alerts: OfflineAlerts;
  private readonly abuse: DeviceAbuse;
  private readonly refusals = new Map<string, { until: number; repeated: number }>();
  private readonly external = new Map<
    string,
    { device: Promise<DeviceSession | null>; at: number }
  >();
  private hookSecretValue: Promise<string> | undefined;
  private readonly unsubscribeBus: () => void;
  private readonly log: FastifyBaseLogger;

  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: GatewayOptions = {},
  ) {
    this.log = deps.log.child({ module: 'mqtt' });
    this.presence = new PresenceWriter(deps.repository, deps.bus, deps.clock, this.log, {
      ...DEFAULT_PRESENCE_OPTIONS,
      ...options.presence,
    });
    this.alerts = new OfflineAlerts(deps.repository, deps.alerts, deps.clock, this.log, {
      ...DEFAULT_ALERT_OPTIONS,
      ...options.alerts,
    });
    this.abuse = new DeviceAbuse(deps.clock, (summary) => this.abuseSummary(summary));
    this.registration = new AutoRegistration(
      deps.repository,
      deps.deviceLogs,
      deps.clock,
      this.log,
    );
    const offKick = deps.bus.subscribe('device.kick', (kick) => this.kick(kick));
    // Kicks published on other nodes while the bus was away never arrived: check again what
    // admits the connections held here.
    const offResumed = deps.bus.subscribe('bus.resumed', () => {
      this.recheckHeld().catch((err: unknown) =>
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
    this.nodeId =
      this.options.nodeId ?? `${os.hostname()}:${port === 0 ? newId().slice(0, 8) : port}`;
    this.liveness = new NodeLiveness(
      this.nodeId,
      this.deps.repository,
      this.deps.clock,
      this.log,
      { offline: (rows) => this.released(rows), revived: () => this.revive() },
      this.livenessOptions,
    );
    // Before accepting connections: what the previous run of this node held is offline now.
    await this.liveness.start();
    this.embedded = await EmbeddedBroker.start(this, {
      id: this.nodeId,
      port,
      host,
      maxPacketBytes: MAX_PACKET_BYTES,
      connectRateLimit: this.options.connectRateLimit ?? DEFAULT_CONNECT_RATE_LIMIT,
      log: this.log,
    });
    this.transport = this.embedded;
    this.alerts.start();
    this.log.info(
      { port: this.embedded.port, node: this.nodeId },
      'embedded MQTT broker listening',
    );
  }

  /** Joins an external broker (MQTT_URL) as the client `blrms-<node>`. */
  async startExternal(url: string): Promise<void> {
    this.nodeId = this.options.nodeId ?? this.nodeId;
    this.transport = await ExternalBroker.start(url, `blrms-${this.nodeId}`, this, this.log);
    this.alerts.start();
  }

  /**
   * This node's id. A device connected to this node's embedded broker carries it in
   * `device.node_id`, so that only this node dispatches work to it; a device of an external
   * broker carries none (any node reaches it).
   */
  get node(): string {
    return this.nodeId;
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
    if (this.transport?.holds(address)) {
      await this.transport.publish(downTopic(address, kind, id), JSON.stringify(payload), {
        qos: 1,
      });
      return;
    }
    await this.deps.bus.publish('device.downlink', { address, kind, id, payload });
  }

  /**
   * Whether a device shown online can be reached now: false when the node holding its connection
   * has missed more heartbeats than a live node would (it died, and the others have not yet set
   * its devices offline), so that work is refused at once instead of timing out. A device held
   * here, or by an external broker (no node), is reachable.
   */
  async reachable(deviceId: string): Promise<boolean> {
    const held = await this.deps.repository.nodeOfDevice(deviceId);
    if (!held?.nodeId || held.nodeId === this.nodeId) return true;
    return (
      held.seenAt !== null &&
      held.seenAt >= this.deps.clock() - 3 * this.livenessOptions.heartbeatMs
    );
  }

  /**
   * The devices whose connections this node's embedded broker holds: downlinks other nodes send
   * them go through the bus, so after a gap in the bus their callers re-send what is pending. None
   * with an external broker, which any node reaches directly.
   */
  heldDevices(): DeviceRef[] {
    if (this.transport?.kind !== 'embedded') return [];
    return [...this.transport.sessions()].filter((session) => !session.watcher);
  }

  /** A downlink another node sent for a device whose connection this node may hold. */
  private downlink({ address, kind, id, payload }: BusTopics['device.downlink']): void {
    if (!this.transport || this.transport.kind !== 'embedded' || !this.transport.holds(address))
      return;
    this.transport
      .publish(downTopic(address, kind, id), JSON.stringify(payload), { qos: 1 })
      .catch((error: unknown) =>
        this.log.error({ err: error, device: address }, 'downlink not delivered'),
      );
  }

  /**
   * The platform is about to make the device restart (a reboot command, an upgrade, a
   * configuration that needs one): a disconnect within the window is no outage. Kept in the
   * database, so that any node judges the device's disconnects and alerts by it; shown at once.
   */
  async expectRestart(
    deviceId: string,
    kind: TRestartKind,
    windowMs = RESTART_WINDOW_MS[kind],
  ): Promise<void> {
    const now = this.deps.clock();
    const rows = await this.deps.repository.expectRestart(deviceId, {
      kind,
      from: now,
      until: now + windowMs,
    });
    await this.presence.publish(rows);
  }

  /** Sends the offline alerts that are due (on a timer; tests call it after moving the clock). */
  checkAlerts(): Promise<void> {
    return this.alerts.check();
  }

  /** Heartbeat and the sweep of silent nodes (on a timer; tests call it after moving the clock). */
  async sweepNodes(): Promise<void> {
    await this.liveness?.beat();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.unsubscribeBus();
    await this.alerts.stop();
    await this.transport?.close();
    this.abuse.close();
    await this.presence.flush();
    // The connections were closed above without a write each: one statement sets them offline.
    await this.liveness?.stop();
    await this.presence.close();
  }

  // ---------------------------------------------------------------- broker hooks

  async authenticate(request: ConnectRequest): Promise<ConnectVerdict<DeviceSession>> {
    const outcome = await this.login({
      clientId: request.clientId,
      username: request.username ?? '',
      password: request.password?.toString('utf8') ?? '',
      ip: request.ip,
    });
    if (!outcome.ok) {
      return { accept: false, returnCode: CREDENTIAL_REFUSALS.has(outcome.reason) ? 4 : 5 };
    }
    return {
      accept: true,
      session: new DeviceSession(
        outcome.deviceId,
        outcome.companyId,
        outcome.sn,
        outcome.address,
        outcome.tokenId,
        request.ip,
        this.deps.clock(),
        outcome.watcher,
        sha256(request.password?.toString('utf8') ?? ''),
      ),
    };
  }

  authorize(session: DeviceSession, action: 'publish' | 'subscribe', topic: string): boolean {
    if (!(session.watcher && action === 'publish') && deviceMayUse(session.address, action, topic))
      return true;
    session.aclViolations += 1;
    const shown = topic.slice(0, 256);
    // The device's first violation of the minute is logged; the rest go into its summary.
    const { record, count } = this.abuse.note(session, 'acl-violation');
    if (count === 1) {
      this.log.warn(
        { device: session.address, ip: session.ip, action, topic: shown },
        'MQTT ACL violation',
      );
    }
    if (record) {
      this.record(session, {
        level: 'warn',
        code: 'acl-violation',
        message: `${action} ${shown}`,
        source: 'platform',
      });
    }
    if (action === 'publish' || session.aclViolations >= ACL_VIOLATION_LIMIT) {
      // Not from inside the broker's callback that is asking.
      setImmediate(() => this.transport?.disconnect(session, 'acl-violation'));
    }
    return false;
  }

  connected(session: DeviceSession): void {
    if (session.watcher) {
      this.log.info({ device: session.address, ip: session.ip }, 'MQTT watcher connected');
      return;
    }
    this.presence.write({
      deviceId: session.id,
      companyId: session.companyId,
      values: {
        status: 'online',
        ip: session.ip,
        last_connect_at: session.connectedAt,
        last_seen_at: session.connectedAt,
        node_id: this.nodeId,
      },
    });
    this.presence.sessionOpened({
      id: session.connectionId,
      company_id: session.companyId,
      device_id: session.id,
      connected_at: session.connectedAt,
      disconnected_at: null,
      reason: null,
      ip: session.ip,
      node_id: this.nodeId,
    });
    this.alerts.online(session.id);
  }

  disconnected(session: DeviceSession, reason: TDisconnectReason): void {
    // At shutdown the node releases all its devices in one statement instead.
    if (this.closing || session.watcher) return;
    const now = this.deps.clock();
    this.presence.sessionClosed({ id: session.connectionId, disconnectedAt: now, reason });
    if (reason === 'takeover') {
      // The device stays online: only the replaced connection is recorded (two devices that
      // share an SN take each other over all the time: the first of the minute is logged).
      const { record, count } = this.abuse.note(session, 'takeover');
      if (count === 1)
        this.log.info({ device: session.address, ip: session.ip }, 'MQTT connection taken over');
      this.presence.write({
        deviceId: session.id,
        companyId: session.companyId,
        values: { last_disconnect_at: now, disconnect_reason: 'takeover' },
      });
      if (record) {
        this.record(session, {
          level: 'warn',
          code: 'takeover',
          message: `Connection from ${session.ip ?? 'an unknown address'} replaced by a newer one`,
          source: 'platform',
        });
      }
      return;
    }
    this.log.debug({ device: session.address, ip: session.ip, reason }, 'MQTT device disconnected');
    this.presence.write({
      deviceId: session.id,
      companyId: session.companyId,
      values: {
        status: 'offline',
        last_disconnect_at: now,
        last_seen_at: now,
        disconnect_reason: reason,
        node_id: null,
      },
      guard: { nodeId: this.nodeId, connectedAt: session.connectedAt },
    });
    this.alerts.offline(session.id);
  }

  message(message: InboundMessage<DeviceSession>): void {
    const receivedAt = this.deps.clock();
    const parsed = parseTopic(message.topic);
    if (!parsed || parsed.direction !== 'up') return;
    if (message.session) {
      this.uplink(message.session, parsed, message, receivedAt);
      return;
    }
    this.externalDevice(parsed.address).then(
      (device) => {
        if (device) this.uplink(device, parsed, message, receivedAt);
      },
      (error: unknown) =>
        this.log.error({ err: error, device: parsed.address }, 'device lookup failed'),
    );
  }

  oversized(session: DeviceSession | null, bytes: number, ip: string | null): void {
    if (!session || this.abuse.note(session, 'oversized-packet').count === 1) {
      this.log.warn(
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

  // ---------------------------------------------------------------- EMQX hooks

  async hookAuth(body: TMqttAuthRequest): Promise<TMqttHookResult> {
    const server = this.deps.serverAccount;
    if (server && body.username === server.username && body.password === server.password) {
      return { result: 'allow', is_superuser: true };
    }
    const outcome = await this.login({
      clientId: body.clientid,
      username: body.username,
      password: body.password,
      ip: body.peerhost ?? null,
    });
    return outcome.ok ? { result: 'allow', is_superuser: false } : { result: 'deny' };
  }

  hookAcl(body: TMqttAclRequest): TMqttHookResult {
    // The auth hook checked the server's password; here the username alone says who it is.
    if (this.deps.serverAccount && body.username === this.deps.serverAccount.username) {
      return { result: 'allow' };
    }
    if (body.clientid === body.username && deviceMayUse(body.username, body.action, body.topic)) {
      return { result: 'allow' };
    }
    if (
      body.clientid === `${body.username}${WATCH_SUFFIX}` &&
      body.action === 'subscribe' &&
      deviceMayUse(body.username, 'subscribe', body.topic)
    ) {
      return { result: 'allow' };
    }
    this.log.warn(
      {
        device: body.username.slice(0, 96),
        ip: body.peerhost,
        action: body.action,
        topic: body.topic.slice(0, 256),
      },
      'MQTT ACL violation (external broker)',
    );
    return { result: 'deny' };
  }

  /** Whether a hook request carries the shared secret (compared in constant time). */
  async hookSecretMatches(given: string | undefined): Promise<boolean> {
    if (!given) return false;
    return timingSafeEqual(digest(given), digest(await this.hookSecret()));
  }

  /** The secret to configure in the external broker's hooks: for platform administrators only. */
  async hookSecretFor(scope: Scope): Promise<TMqttHookSecret> {
    const grants = await this.deps.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
    return { secret: await this.hookSecret(), header: MQTT_HOOK_SECRET_HEADER };
  }

  /**
   * Made at first start and kept in `sys_setting`, so every node has the same one without an
   * environment variable; the first node to store one wins.
   */
  hookSecret(): Promise<string> {
    this.hookSecretValue ??= this.loadHookSecret();
    this.hookSecretValue.catch(() => (this.hookSecretValue = undefined));
    return this.hookSecretValue;
  }

  private loadHookSecret(): Promise<string> {
    return this.deps.repository.sharedSecret(HOOK_SECRET_SETTING, this.deps.clock());
  }

  // ---------------------------------------------------------------- authentication

  /**
   * The checks of a device login, for the embedded broker and the EMQX auth hook alike. The client
   * id and the username are the device's address `{tokenCode}:{sn}`, and the password is the key
   * of that very token: a key of another token is refused even when its company holds the same
   * SN, so no connection can take over the session of another company's (or token's) device.
   */
  private async login(input: LoginInput): Promise<LoginOutcome> {
    const watcher = input.clientId === `${input.username}${WATCH_SUFFIX}`;
    const name = watcher ? input.username : input.clientId;
    const address = parseDeviceAddress(name);
    const refuse = (
      reason: TRefusalReason,
      context: Omit<RefusalContext, 'address' | 'ip'> = {},
    ) => {
      void this.refused(reason, { address: name, ip: input.ip, ...context }, input);
      return { ok: false, reason } as const;
    };
    if (!address || (input.username !== input.clientId && !watcher) || input.password === '') {
      return refuse('bad-credentials');
    }
    const { sn, tokenCode } = address;
    const row = await this.deps.repository.login(sha256(input.password), sn);
    if (!row) return refuse('token-unknown');
    if (row.token_code !== tokenCode) return refuse('token-mismatch');
    const context = {
      companyId: row.company_id,
      deviceId: row.device_id,
      ownerName: row.owner_name,
    };
    if (row.token_enabled !== 1) return refuse('token-disabled', context);
    if (row.company_status !== COMPANY_STATUS.active) return refuse('company-frozen', context);
    if (row.device_id !== null) {
      if (row.device_enabled !== 1) return refuse('device-disabled', context);
      return {
        ok: true,
        deviceId: row.device_id,
        companyId: row.company_id,
        tokenId: row.token_id,
        sn,
        address: name,
        watcher,
      };
    }
    // A watcher watches a device that exists; it never registers one.
    if (row.auto_register !== 1 || watcher) return refuse('auto-register-off', context);
    const registered = await this.registration.register({
      sn,
      companyId: row.company_id,
      tokenId: row.token_id,
      ownerId: row.owner_id,
      ownerName: row.owner_name,
      ownerOrgCode: row.owner_org_code,
      ip: input.ip,
    });
    if ('refused' in registered) return refuse(registered.refused, context);
    return {
      ok: true,
      deviceId: registered.deviceId,
      companyId: row.company_id,
      tokenId: row.token_id,
      sn,
      address: name,
      watcher,
    };
  }

  /**
   * Whom a refusal of this address concerns when the key did not name them: the company of the
   * token whose code the address carries (and its device with that SN). A wrong key for a real
   * device is worth its owner's attention; a made-up code concerns nobody.
   */
  private async tagContext(clientId: string): Promise<Omit<RefusalContext, 'address' | 'ip'>> {
    const address = parseDeviceAddress(clientId);
    if (!address) return {};
    const target = await this.deps.repository.tagTarget(address.tokenCode, address.sn);
    if (!target) return {};
    return {
      companyId: target.company_id,
      deviceId: target.device_id,
      ownerName: target.owner_name,
    };
  }

  /**
   * A refused login: a log line, a device log row in the company the refusal concerns (none for
   * an unknown token code), and an event on the device when there is one. Repeats of the same
   * client id and reason within a minute are counted, not written again, so a device retrying
   * with a wrong key cannot flood the log.
   */
  private async refused(
    reason: TRefusalReason,
    context: RefusalContext,
    input: LoginInput,
  ): Promise<void> {
    const now = this.deps.clock();
    const shownId = context.address.slice(0, 96);
    const key = `${shownId}|${reason}`;
    const seen = this.refusals.get(key);
    if (seen && now < seen.until) {
      seen.repeated += 1;
      return;
    }
    if (this.refusals.size >= REFUSAL_LOG_KEYS_MAX) {
      for (const [k, v] of this.refusals) if (now >= v.until) this.refusals.delete(k);
      if (this.refusals.size >= REFUSAL_LOG_KEYS_MAX) this.refusals.clear();
    }
    this.refusals.set(key, { until: now + REFUSAL_LOG_WINDOW_MS, repeated: 0 });
    const repeated = seen?.repeated ?? 0;
    this.log.warn({ device: shownId, ip: context.ip, reason, repeated }, 'MQTT connection refused');
    const sn = parseDeviceAddress(context.address)?.sn ?? shownId.slice(0, 64);
    try {
      // Looked up only for a refusal that is written, so that retries cost no query.
      const target = context.companyId ? context : await this.tagContext(context.address);
      if (!target.companyId) return;
      if (target.deviceId) {
        this.record(
          { id: target.deviceId, companyId: target.companyId, sn, address: context.address },
          {
            level: 'warn',
            code: 'connection-refused',
            message: `Connection from ${context.ip ?? 'an unknown address'} refused: ${reason}`,
            source: 'platform',
          },
        );
      }
      await this.deps.deviceLogs.writeMany([
        {
          companyId: target.companyId,
          deviceId: target.deviceId ?? null,
          sn,
          requestUrl: CONNECT_REQUEST,
          sourceUser: null,
          targetUser: target.ownerName ?? null,
          subject: `MQTT connection refused: ${reason}`,
          content: {
            reason,
            clientId: input.clientId.slice(0, 256),
            username: input.username.slice(0, 256),
            ...(repeated > 0 ? { repeatedInLastMinute: repeated } : {}),
          },
          sourceIp: context.ip,
          state: 'failed',
        },
      ]);
    } catch (error) {
      this.log.error({ err: error, reason }, 'refused connection not logged');
    }
  }

  // ---------------------------------------------------------------- uplinks

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
    switch (parsed.kind) {
      case 'status': {
        const status = ZStatusPayload.safeParse(json);
        if (!status.success) return this.malformed(device, message.topic, firstIssue(status.error));
        return this.status(device, status.data, message, receivedAt);
      }
      case 'telemetry': {
        const telemetry = ZTelemetryPayload.safeParse(json);
        if (telemetry.success) {
          this.run(() => this.deps.sink.recordTelemetry(device, telemetry.data, receivedAt));
          break;
        }
        // One bad value must not cost the good ones: they are stored, the rest reported.
        const salvaged = salvageTelemetry(json);
        if (!salvaged) return this.malformed(device, message.topic, firstIssue(telemetry.error));
        this.run(() => this.deps.sink.recordTelemetry(device, salvaged.payload, receivedAt));
        this.malformed(device, message.topic, `values dropped: ${salvaged.dropped.join(', ')}`);
        break;
      }
      case 'event': {
        const event = ZEventPayload.safeParse(json);
        if (!event.success) return this.malformed(device, message.topic, firstIssue(event.error));
        this.run(() =>
          this.deps.sink.recordEvent(device, { ...event.data, source: 'device' }, receivedAt),
        );
        break;
      }
      case 'config/reported': {
        const report = ZConfigReportedPayload.safeParse(json);
        if (!report.success) return this.malformed(device, message.topic, firstIssue(report.error));
        const { sink } = this.deps;
        if (sink.configReported)
          this.run(() => sink.configReported?.(device, report.data, receivedAt));
        break;
      }
      case 'rpc': {
        const reply = ZRpcReplyPayload.safeParse(json);
        if (!reply.success) return this.malformed(device, message.topic, firstIssue(reply.error));
        const { sink } = this.deps;
        const reqId = parsed.id ?? '';
        if (sink.rpcReplied)
          this.run(() => sink.rpcReplied?.(device, reqId, reply.data, receivedAt));
        break;
      }
      case 'ota': {
        const report = ZOtaReportPayload.safeParse(json);
        if (!report.success) return this.malformed(device, message.topic, firstIssue(report.error));
        const { sink } = this.deps;
        const jobId = parsed.id ?? '';
        if (sink.otaReported)
          this.run(() => sink.otaReported?.(device, jobId, report.data, receivedAt));
        break;
      }
    }
    this.seen(device, receivedAt);
  }

  /**
   * `up/status`. On the embedded broker the connection itself says online or offline; the status
   * message adds series, model, firmware and the device's own address, and a last will is left to
   * the disconnect that follows it (which knows the reason). On an external broker the retained
   * status and its last will are all there is: they set presence, and the connect and disconnect
   * times when they arrive live rather than replayed.
   */
  private status(
    device: DeviceSession,
    payload: TStatusPayload,
    message: InboundMessage<DeviceSession>,
    now: number,
  ): void {
    const external = message.session === null;
    const live = !message.retained;
    let values: PresenceValues;
    if (payload.online) {
      if (message.will) return;
      values = { status: 'online', series: payload.series, last_seen_at: now };
      if (payload.model !== undefined) values.model = payload.model;
      if (payload.fw !== undefined) values.version = payload.fw;
      if (payload.ip !== undefined) values.ip = payload.ip;
      if (external && live) values.last_connect_at = now;
      // No node holds a device of an external broker: any node may send it work.
      if (external) values.node_id = null;
      this.alerts.online(device.id);
      // A replayed retained status (an external broker, at the server's start) says nothing new.
      const { sink } = this.deps;
      if (live && sink.deviceOnline) {
        const online = { series: payload.series, fw: payload.fw };
        this.run(() => sink.deviceOnline?.(device, online, now));
      }
    } else {
      if (message.will && !external) return;
      values = live
        ? {
            status: 'offline',
            disconnect_reason: 'last-will',
            last_disconnect_at: now,
            last_seen_at: now,
          }
        : { status: 'offline' };
      if (live) this.alerts.offline(device.id);
    }
    this.presence.write({ deviceId: device.id, companyId: device.companyId, values });
  }

  private seen(device: DeviceSession, now: number): void {
    this.presence.seen(device.id, device.companyId, now);
  }

  /**
   * A payload that is too large, not JSON or not what the topic's schema says: dropped and
   * recorded as a platform event, within the device's budget of events; a device that keeps
   * sending them is disconnected (when the broker is ours), and again at its next bad payload
   * until the minute is over, however often it reconnects. The first disconnect of the minute is
   * logged, the rest are counted in the device's summary.
   */
  private malformed(device: DeviceSession, topic: string, reason: string): void {
    const { record, count } = this.abuse.note(device, 'malformed-payload');
    if (record) {
      this.record(device, {
        level: 'warn',
        code: 'malformed-payload',
        message: `${topic}: ${reason}`,
        source: 'platform',
      });
    }
    if (count <= BAD_PAYLOAD_LIMIT || !this.transport?.disconnect(device, 'bad-payloads')) return;
    if (this.abuse.note(device, 'bad-payload-disconnect').count === 1) {
      this.log.warn(
        { device: device.address, ip: device.ip },
        'MQTT device disconnected: too many bad payloads',
      );
    }
  }

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
    this.record(device, {
      level: 'warn',
      code: 'repeats-summarised',
      message: `In the last minute: ${done}; ${notRecorded} of them not recorded one by one`,
      source: 'platform',
    });
  }

  /** External broker: the device of an address, looked up once and then remembered for a while. */
  private externalDevice(address: string): Promise<DeviceSession | null> {
    const now = Date.now();
    const cached = this.external.get(address);
    if (cached && now - cached.at < EXTERNAL_DEVICE_TTL_MS) return cached.device;
    const parts = parseDeviceAddress(address);
    const lookup = parts
      ? this.deps.repository.tagTarget(parts.tokenCode, parts.sn)
      : Promise.resolve(undefined);
    const device = lookup.then((row) => {
      if (!parts || !row?.device_id || row.device_enabled !== 1) {
        this.log.info({ device: address }, 'uplink from an unknown or disabled device ignored');
        this.external.set(address, {
          device,
          at: now - EXTERNAL_DEVICE_TTL_MS + EXTERNAL_UNKNOWN_TTL_MS,
        });
        return null;
      }
      return new DeviceSession(
        row.device_id,
        row.company_id,
        parts.sn,
        address,
        row.token_id,
        null,
        0,
      );
    });
    this.external.set(address, { device, at: now });
    device.catch(() => this.external.delete(address));
    return device;
  }

  // ---------------------------------------------------------------- kicks

  /**
   * Closes this node's connections of a disabled token, a disabled or deleted device, or a frozen
   * company.
   */
  private kick({
    tokenIds = [],
    deviceIds = [],
    companyIds = [],
    reason,
  }: BusTopics['device.kick']): void {
    const tokens = new Set(tokenIds);
    const devices = new Set(deviceIds);
    const companies = new Set(companyIds);
    if (tokens.size === 0 && devices.size === 0 && companies.size === 0) return;
    // An external broker keeps its connections; forgetting the devices makes their uplinks look
    // them up again (and the auth hook refuses their next login).
    this.external.clear();
    if (!this.transport) return;
    const kicked = [...this.transport.sessions()].filter(
      (s) => tokens.has(s.tokenId) || devices.has(s.id) || companies.has(s.companyId),
    );
    for (const session of kicked) this.transport.disconnect(session, reason);
    if (kicked.length > 0)
      this.log.info({ devices: kicked.length, reason }, 'MQTT connections closed');
  }

  /**
   * Closes the held connections that would be refused now: their device deleted or disabled,
   * their token disabled or its key regenerated, their company frozen (what a kick from another
   * node would have done).
   */
  private async recheckHeld(): Promise<void> {
    if (this.transport?.kind !== 'embedded') return;
    const held = [...this.transport.sessions()];
    let closed = 0;
    for (let i = 0; i < held.length; i += RECHECK_BATCH) {
      const batch = held.slice(i, i + RECHECK_BATCH);
      const admitted = await this.deps.repository.admission(batch.map((s) => s.id));
      for (const session of batch) {
        const now = admitted.get(session.id);
        const reason: TDisconnectReason | null = !now
          ? 'device-deleted'
          : now.device_enabled !== 1
            ? 'device-disabled'
            : now.token_enabled !== 1 || now.key_hash !== session.keyHash
              ? 'token-disabled'
              : now.company_status !== COMPANY_STATUS.active
                ? 'company-frozen'
                : null;
        if (reason && this.transport.disconnect(session, reason)) closed += 1;
      }
    }
    if (closed > 0) this.log.info({ devices: closed }, 'MQTT connections closed after the bus gap');
  }

  // ---------------------------------------------------------------- helpers

  /** Another node took this one for dead: the devices it still holds are online again. */
  private revive(): void {
    if (!this.transport || this.closing) return;
    const now = this.deps.clock();
    for (const session of this.transport.sessions()) {
      if (session.watcher) continue;
      this.presence.write({
        deviceId: session.id,
        companyId: session.companyId,
        values: { status: 'online', last_seen_at: now, node_id: this.nodeId },
      });
      this.alerts.online(session.id);
    }
  }

  /** Devices set offline in bulk (restart or shutdown of this node, a silent node). */
  private async released(rows: LiveRow[]): Promise<void> {
    await this.presence.publish(rows);
    if (!this.closing) for (const row of rows) this.alerts.offline(row.id);
  }

  private record(device: DeviceRef, event: DeviceEventInput): void {
    const receivedAt = this.deps.clock();
    this.run(() => this.deps.sink.recordEvent(device, event, receivedAt));
  }

  /** The sink must not block or break the broker: failures are logged, never thrown. */
  private run(call: () => void | Promise<void>): void {
    try {
      const result = call();
      if (result)
        result.catch((error: unknown) => this.log.error({ err: error }, 'uplink not recorded'));
    } catch (error) {
      this.log.error({ err: error }, 'uplink not recorded');
    }
  }
}
