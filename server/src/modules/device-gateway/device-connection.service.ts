import { createHash, timingSafeEqual } from 'node:crypto';
import {
  COMPANY_STATUS,
  MQTT_HOOK_SECRET_HEADER,
  deviceMayUse,
  parseDeviceAddress,
  upTopic,
  type TDisconnectReason,
  type TMqttAclRequest,
  type TMqttAuthRequest,
  type TMqttHookResult,
  type TMqttHookSecret,
  type TRefusalReason,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { BusTopics } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { forbidden } from '../../platform/http/app-error.js';
import type {
  ConnectRequest,
  ConnectVerdict,
  MqttSession,
  MqttTransport,
} from '../../platform/mqtt/transport.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import { AutoRegistration } from './auto-register.service.js';
import type { DeviceAbuse } from './device-abuse.service.js';
import type { GatewayRepository } from './gateway.repository.js';
import type { DeviceRef, GuardedSink } from './uplink-sink.service.js';

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
const HOOK_SECRET_SETTING = 'mqtt.hook-secret';
/** What the device log names as the request of a connection attempt. */
const CONNECT_REQUEST = 'MQTT CONNECT';
/** Held connections checked in one query after a bus gap. */
const RECHECK_BATCH = 500;

/**
 * A connected device, kept on its connection so that uplinks need no database lookup. Small on
 * purpose: there is one per connected device. Its client id is its address, `{tokenCode}:{sn}`.
 */
export class DeviceSession implements MqttSession, DeviceRef {
  /** The id of this connection's row in the connection history. */
  readonly connectionId = newId();
  aclViolations = 0;
  /** The last-seen time last given to the presence writer for this connection. */
  seenGivenAt = 0;
  /**
   * The topic of most of its messages: one string comparison admits and routes them, instead of
   * parsing the topic twice (the ACL, then the router) at tens of thousands of messages a second.
   */
  readonly telemetryTopic: string;

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
  ) {
    this.telemetryTopic = upTopic(address, 'telemetry');
  }

  get clientId(): string {
    return this.watcher ? `${this.address}${WATCH_SUFFIX}` : this.address;
  }
}

/** What the parts of the gateway share about this node once it runs. */
export interface GatewayRuntime {
  /** The broker this node runs or joins; null before the gateway starts. */
  transport: MqttTransport<DeviceSession> | null;
  nodeId: string;
  /** The node is shutting down: it releases all its devices in one statement. */
  closing: boolean;
}

/** What each part of the gateway is given, besides its own dependencies. */
export interface GatewayPartDeps {
  clock: Clock;
  log: FastifyBaseLogger;
  events: GuardedSink;
  abuse: DeviceAbuse;
  runtime: Readonly<GatewayRuntime>;
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
      /** The hash of the key it logged in with. */
      keyHash: string;
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

export interface DeviceConnectionDeps extends GatewayPartDeps {
  repository: GatewayRepository;
  deviceLogs: DeviceLogService;
  permissions: PermissionService;
  /** The server's own account on an external broker (from MQTT_URL): the hooks allow it all. */
  serverAccount: { username: string; password: string } | null;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Who may connect and what a connection may do: device login (SN + token key,
 * auto-registration), refusals written to the device log, the per-device ACL, the EMQX hooks of
 * the external-broker mode and their shared secret, the device behind an external broker's
 * uplink, and the kicks of connections whose token, device or company no longer admits them.
 */
export class DeviceConnection {
  private readonly registration: AutoRegistration;
  private readonly refusals = new Map<string, { until: number; repeated: number }>();
  private readonly external = new Map<
    string,
    { device: Promise<DeviceSession | null>; at: number }
  >();
  private hookSecretValue: Promise<string> | undefined;

  constructor(private readonly deps: DeviceConnectionDeps) {
    this.registration = new AutoRegistration(
      deps.repository,
      deps.deviceLogs,
      deps.clock,
      deps.log,
    );
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
        outcome.keyHash,
      ),
    };
  }

  authorize(session: DeviceSession, action: 'publish' | 'subscribe', topic: string): boolean {
    // Its own telemetry topic is one it may publish (an address of a session is a valid one).
    if (action === 'publish' && !session.watcher && topic === session.telemetryTopic) return true;
    if (!(session.watcher && action === 'publish') && deviceMayUse(session.address, action, topic))
      return true;
    session.aclViolations += 1;
    const shown = topic.slice(0, 256);
    // The device's first violation of the minute is logged; the rest go into its summary.
    const { record, count } = this.deps.abuse.note(session, 'acl-violation');
    if (count === 1) {
      this.deps.log.warn(
        { device: session.address, ip: session.ip, action, topic: shown },
        'MQTT ACL violation',
      );
    }
    if (record) {
      this.deps.events.record(session, {
        level: 'warn',
        code: 'acl-violation',
        message: `${action} ${shown}`,
        source: 'platform',
      });
    }
    if (action === 'publish' || session.aclViolations >= ACL_VIOLATION_LIMIT) {
      // Not from inside the broker's callback that is asking.
      setImmediate(() => this.deps.runtime.transport?.disconnect(session, 'acl-violation'));
    }
    return false;
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
    this.deps.log.warn(
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

  // ---------------------------------------------------------------- external broker devices

  /** External broker: the device of an address, looked up once and then remembered for a while. */
  externalDevice(address: string): Promise<DeviceSession | null> {
    const now = Date.now();
    const cached = this.external.get(address);
    if (cached && now - cached.at < EXTERNAL_DEVICE_TTL_MS) return cached.device;
    const parts = parseDeviceAddress(address);
    const lookup = parts
      ? this.deps.repository.tagTarget(parts.tokenCode, parts.sn)
      : Promise.resolve(undefined);
    const device = lookup.then((row) => {
      if (!parts || !row?.device_id || row.device_enabled !== 1) {
        this.deps.log.info(
          { device: address },
          'uplink from an unknown or disabled device ignored',
        );
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
  kick({ tokenIds = [], deviceIds = [], companyIds = [], reason }: BusTopics['device.kick']): void {
    const tokens = new Set(tokenIds);
    const devices = new Set(deviceIds);
    const companies = new Set(companyIds);
    if (tokens.size === 0 && devices.size === 0 && companies.size === 0) return;
    // An external broker keeps its connections; forgetting the devices makes their uplinks look
    // them up again (and the auth hook refuses their next login).
    this.external.clear();
    const { transport } = this.deps.runtime;
    if (!transport) return;
    const kicked = [...transport.sessions()].filter(
      (s) => tokens.has(s.tokenId) || devices.has(s.id) || companies.has(s.companyId),
    );
    for (const session of kicked) transport.disconnect(session, reason);
    if (kicked.length > 0)
      this.deps.log.info({ devices: kicked.length, reason }, 'MQTT connections closed');
  }

  /**
   * Closes the held connections that would be refused now: their device deleted or disabled,
   * their token disabled or its key regenerated, their company frozen (what a kick from another
   * node would have done).
   */
  async recheckHeld(): Promise<void> {
    const { transport } = this.deps.runtime;
    if (transport?.kind !== 'embedded') return;
    const held = [...transport.sessions()];
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
        if (reason && transport.disconnect(session, reason)) closed += 1;
      }
    }
    if (closed > 0)
      this.deps.log.info({ devices: closed }, 'MQTT connections closed after the bus gap');
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
    const keyHash = sha256(input.password);
    const row = await this.deps.repository.login(keyHash, sn);
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
        keyHash,
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
      keyHash,
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
    this.deps.log.warn(
      { device: shownId, ip: context.ip, reason, repeated },
      'MQTT connection refused',
    );
    const sn = parseDeviceAddress(context.address)?.sn ?? shownId.slice(0, 64);
    try {
      // Looked up only for a refusal that is written, so that retries cost no query.
      const target = context.companyId ? context : await this.tagContext(context.address);
      if (!target.companyId) return;
      if (target.deviceId) {
        this.deps.events.record(
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
      this.deps.log.error({ err: error, reason }, 'refused connection not logged');
    }
  }
}
