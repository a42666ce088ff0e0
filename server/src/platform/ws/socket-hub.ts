import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  CAMPAIGNS_CHANNEL,
  DEVICES_CHANNEL,
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_UNAUTHORIZED,
  WS_TOKEN_PROTOCOL,
  ZClientMessage,
  type TChannel,
  type TDeviceLive,
  type TServerMessage,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PermissionService } from '../auth/permissions.js';
import type { Session, SessionService } from '../auth/sessions.js';
import type { Bus } from '../bus/bus.js';
import { languageOf, type Lang } from '../http/i18n.js';

const PATH = /^\/api\/websocket\/([0-9a-f]{32})\/?$/;
/**
 * Every 30 s each socket is pinged at the protocol level (browsers answer by themselves); one that
 * has not answered the previous ping is gone and is dropped. This is independent of the console's
 * heartbeat messages, which a busy socket may not send at all.
 */
const PING_INTERVAL_MS = 30_000;
const MAX_MESSAGE_BYTES = 4096;
/**
 * Device channels one socket may hold (subscribed or being checked). A detail page needs one; the
 * cap keeps a client from making the server check and route for thousands of devices.
 */
export const MAX_DEVICE_CHANNELS = 50;
/**
 * A socket that has this much unsent data is not keeping up (a fleet in a status storm, a stalled
 * tab): it is dropped rather than buffered without bound. The console reconnects, subscribes
 * again and reloads what it shows.
 */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const DEVICE_CHANNEL_PREFIX = 'device:';
/** RFC 6455: the server hit an unexpected condition. */
const WS_CLOSE_INTERNAL_ERROR = 1011;
/** RFC 6455 "service restart": the server is shutting down; the console reconnects (to another node). */
const WS_CLOSE_SERVICE_RESTART = 1012;
/** At shutdown, sockets that have not answered the close by then are cut. */
const CLOSE_GRACE_MS = 1000;
/**
 * Status batches of one socket waiting for its data rules' check, at most: a socket that falls
 * this far behind (the database is slow) is dropped like one that does not read its messages.
 */
const MAX_FILTER_BACKLOG = 100;
/** A status batch whose data-rule check failed. */
const CHECK_FAILED = Symbol('check failed');
/** What a user needs in a company to follow its campaigns' progress (`campaigns`). */
const CAMPAIGN_LIST = 'campaign:list';

/** A company whose device status changes a socket may watch (`devices`). */
export interface FleetCompany {
  companyId: string;
  /** The user's data rules hide some of the company's devices from them. */
  narrowed: boolean;
}

/** What the hub asks before it lets a socket watch devices. */
export interface DeviceWatchAccess {
  /** Companies of the session in which the user may watch device status. */
  fleetCompanies(session: Session): Promise<FleetCompany[]>;
  /** Of these devices of the company, those the user may see (their data rules applied). */
  visibleDevices(session: Session, companyId: string, deviceIds: string[]): Promise<string[]>;
  /** Whether the user may watch one device (its status, telemetry and events). */
  deviceAccess(session: Session, deviceId: string): Promise<'allowed' | 'forbidden' | 'not-found'>;
}

interface Client {
  socket: WebSocket;
  session: Session;
  /** The console's language (`language` message; the upgrade's Accept-Language until then). */
  lang: Lang;
  /** Answered since the last ping. */
  alive: boolean;
  expiry: NodeJS.Timeout;
  /** Companies whose device status changes the socket gets (`devices`); empty when unsubscribed. */
  fleet: string[];
  /** Of `fleet`, the companies whose status changes are filtered by the user's data rules. */
  narrowedIn: Set<string>;
  /**
   * Status batches on their way to the socket after a data-rule check; later batches queue behind
   * them, so that the socket gets them in order.
   */
  backlog: Promise<void>;
  backlogSize: number;
  /** Devices the socket watches (`device:{id}`). */
  devices: Set<string>;
  /** Companies whose campaigns' progress the socket gets (`campaigns`); empty when unsubscribed. */
  campaigns: string[];
  /** Channels whose subscription is being checked; an unsubscribe meanwhile cancels it. */
  pending: Set<TChannel>;
}

/** The token the console offers as the subprotocol after {@link WS_TOKEN_PROTOCOL}. */
function offeredToken(request: IncomingMessage): string | undefined {
  const offered = (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const at = offered.indexOf(WS_TOKEN_PROTOCOL);
  return at >= 0 ? offered[at + 1] : undefined;
}

/**
 * `/api/websocket/{userId}` on the HTTP server's port. The session is checked like an HTTP
 * request's (SessionService); a socket whose session is missing or expired is closed with 4401, a
 * socket for another user's id with 4403. Sockets close when their session is revoked or expires.
 * Messages reach sockets through the bus, so a publish on any node reaches every node's sockets;
 * after a gap in the bus every socket is told to `resync`.
 *
 * Channels are subscriptions of one socket: `devices` (status changes of the devices the user's
 * device list shows, in the companies in which they hold `device:list`), `device:{id}` (status,
 * telemetry, events, configuration state and commands of a device the user may see, data rules
 * included) and `campaigns` (progress of the campaigns of the companies in which they hold
 * `campaign:list`). They are
 * checked when made and again when the user's grants change; sockets are indexed by company and by device, so a bus message costs its
 * recipients, not a scan of every socket.
 */
export class SocketHub {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // Echo the marker, never the token, as the chosen subprotocol.
    handleProtocols: (protocols) => (protocols.has(WS_TOKEN_PROTOCOL) ? WS_TOKEN_PROTOCOL : false),
  });
  private readonly byUser = new Map<string, Set<Client>>();
  /** Sockets subscribed to `devices`, by company: status changes go to their recipients only. */
  private readonly fleetByCompany = new Map<string, Set<Client>>();
  /** Sockets subscribed to `device:{id}`, by device id. */
  private readonly watchersByDevice = new Map<string, Set<Client>>();
  /** Sockets subscribed to `campaigns`, by company. */
  private readonly campaignsByCompany = new Map<string, Set<Client>>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly sessions: SessionService,
    bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number,
    private readonly access: DeviceWatchAccess,
    private readonly permissions: Pick<PermissionService, 'has'>,
  ) {
    this.unsubscribe.push(
      bus.subscribe('notice.delivered', ({ companyId, userIds, msgId, msgTxt, cmd }) => {
        // One serialization per language for every recipient: a publish may address 10,000 users.
        const perLang = (message: (title: string) => TServerMessage) => {
          const byLang: Record<Lang, string> = {
            'zh-CN': JSON.stringify(message(msgTxt['zh-CN'])),
            'en-US': JSON.stringify(message(msgTxt['en-US'])),
          };
          return (client: Client) => byLang[client.lang];
        };
        if (userIds === null) {
          if (cmd === 'read') return;
          this.broadcast(
            companyId,
            perLang((title) => ({ type: 'topic', msgId, msgTxt: title, cmd })),
          );
        } else {
          const textFor = perLang((title) => ({ type: 'user', msgId, msgTxt: title, cmd }));
          for (const userId of userIds) this.sendTo(userId, textFor);
        }
      }),
      bus.subscribe('auth.sessions-revoked', ({ tokenHashes, userId }) => {
        const hashes = new Set(tokenHashes ?? []);
        for (const client of this.all()) {
          if (hashes.has(client.session.tokenHash) || client.session.userId === userId) {
            client.socket.close(WS_CLOSE_UNAUTHORIZED, 'session ended');
          }
        }
      }),
      bus.subscribe('device.live', ({ companyId, devices }) => this.deviceLive(companyId, devices)),
      bus.subscribe('device.telemetry', ({ deviceId, point }) => {
        const watchers = this.watchersByDevice.get(deviceId);
        if (!watchers) return;
        const text = JSON.stringify({
          type: 'device-telemetry',
          deviceId,
          point,
        } satisfies TServerMessage);
        for (const client of watchers) this.deliver(client, text);
      }),
      bus.subscribe('device.event', ({ event }) =>
        this.toWatchers(event.deviceId, { type: 'device-event', event }),
      ),
      bus.subscribe('device.config', ({ config }) =>
        this.toWatchers(config.deviceId, { type: 'device-config', config }),
      ),
      bus.subscribe('device.command', ({ command }) =>
        this.toWatchers(command.deviceId, { type: 'device-command', command }),
      ),
      bus.subscribe('campaign.progress', ({ companyId, campaign }) => {
        const subscribers = this.campaignsByCompany.get(companyId);
        if (!subscribers) return;
        const text = JSON.stringify({
          type: 'campaign-progress',
          campaign,
        } satisfies TServerMessage);
        for (const client of subscribers) this.deliver(client, text);
      }),
      // Grants changed: what a socket watches is checked again, as a new subscription would be
      // (after this event has reached the permission caches, which subscribed before the hub).
      bus.subscribe('auth.permissions-changed', ({ userId }) => {
        const clients = userId ? [...(this.byUser.get(userId) ?? [])] : [...this.all()];
        setImmediate(() => void this.recheck(clients));
      }),
      bus.subscribe('bus.resumed', () => void this.resynchronise()),
    );
    this.sweep = setInterval(() => this.pingAll(), PING_INTERVAL_MS);
    this.sweep.unref();
  }

  /** Takes over the upgrade when the path is the websocket's; returns false otherwise. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const match = PATH.exec(new URL(request.url ?? '/', 'http://x').pathname);
    if (!match) return false;
    void this.admit(request, socket, head, match[1] ?? '');
    return true;
  }

  /**
   * The session is checked before the handshake completes, so an open socket is already
   * registered. A refused one still completes the handshake and is then closed, so that the
   * console can tell an expired session (4401) from a refused user id (4403).
   */
  private async admit(request: IncomingMessage, socket: Duplex, head: Buffer, userId: string) {
    const token = offeredToken(request);
    let session: Session | null = null;
    try {
      session = token ? await this.sessions.resolve(token) : null;
    } catch (err) {
      this.log.warn({ err }, 'websocket session check failed');
      socket.destroy();
      return;
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      if (!session) ws.close(WS_CLOSE_UNAUTHORIZED, 'unauthorized');
      else if (session.userId !== userId) ws.close(WS_CLOSE_FORBIDDEN, 'forbidden');
      else this.register(ws, session, languageOf(request));
    });
  }

  private register(ws: WebSocket, session: Session, lang: Lang) {
    const userId = session.userId;
    const expiresIn = Math.max(0, session.expireTime - this.clock());
    const client: Client = {
      socket: ws,
      session,
      lang,
      alive: true,
      expiry: setTimeout(() => ws.close(WS_CLOSE_UNAUTHORIZED, 'session expired'), expiresIn),
      fleet: [],
      narrowedIn: new Set(),
      backlog: Promise.resolve(),
      backlogSize: 0,
      devices: new Set(),
      campaigns: [],
      pending: new Set(),
    };
    client.expiry.unref();
    const set = this.byUser.get(userId) ?? new Set<Client>();
    set.add(client);
    this.byUser.set(userId, set);

    ws.on('message', (data) => {
      client.alive = true;
      const raw = safeJson(data.toString());
      const parsed = ZClientMessage.safeParse(raw);
      if (!parsed.success) {
        // A subscription to something that is no channel is answered, so that a console bug
        // shows as a refusal instead of silence.
        const channel = subscribedChannel(raw);
        if (channel !== null) this.refuse(client, channel, 'invalid');
        return;
      }
      const message = parsed.data;
      if (message.type === 'heartbeat') this.send(client, { type: 'heartbeat' });
      else if (message.type === 'language') client.lang = message.lang;
      else if (message.type === 'subscribe') void this.subscribe(client, message.channel);
      else this.leave(client, message.channel);
    });
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('close', () => {
      clearTimeout(client.expiry);
      set.delete(client);
      if (set.size === 0) this.byUser.delete(userId);
      client.pending.clear();
      this.setFleet(client, []);
      this.setCampaigns(client, []);
      for (const deviceId of [...client.devices]) this.unwatch(client, deviceId);
    });
    ws.on('error', (err) => this.log.debug({ err }, 'websocket error'));
  }

  /** Answers `subscribed` once the channel's messages reach the socket, or `subscribe-refused`. */
  private async subscribe(client: Client, channel: TChannel) {
    if (client.pending.has(channel)) return;
    if (channel === CAMPAIGNS_CHANNEL) return this.subscribeCampaigns(client);
    const deviceId = deviceIdOf(channel);
    if (deviceId === null ? client.fleet.length > 0 : client.devices.has(deviceId)) {
      return this.send(client, { type: 'subscribed', channel });
    }
    if (deviceId !== null) {
      let held = client.devices.size;
      for (const c of client.pending) if (deviceIdOf(c) !== null) held += 1;
      if (held >= MAX_DEVICE_CHANNELS) return this.refuse(client, channel, 'invalid');
    }
    client.pending.add(channel);
    let outcome: 'allowed' | 'forbidden' | 'not-found';
    let companies: FleetCompany[] = [];
    try {
      if (deviceId === null) {
        companies = await this.access.fleetCompanies(client.session);
        outcome = companies.length > 0 ? 'allowed' : 'forbidden';
      } else {
        outcome = await this.access.deviceAccess(client.session, deviceId);
      }
    } catch (err) {
      // The console reconnects after a close and subscribes again: that is the retry.
      this.log.warn({ err, channel }, 'websocket subscription check failed');
      client.socket.close(WS_CLOSE_INTERNAL_ERROR, 'subscription check failed');
      return;
    }
    // Unsubscribed, or the socket closed, while the check ran.
    if (!client.pending.delete(channel)) return;
    if (outcome !== 'allowed') return this.refuse(client, channel, outcome);
    if (deviceId === null) this.setFleet(client, companies);
    else this.watch(client, deviceId);
    this.send(client, { type: 'subscribed', channel });
  }

  /** `campaigns`: the companies of the session in which the user holds `campaign:list`. */
  private async subscribeCampaigns(client: Client) {
    const channel = CAMPAIGNS_CHANNEL;
    if (client.campaigns.length > 0) return this.send(client, { type: 'subscribed', channel });
    client.pending.add(channel);
    let companies: string[];
    try {
      companies = await this.campaignCompanies(client.session);
    } catch (err) {
      this.log.warn({ err, channel }, 'websocket subscription check failed');
      client.socket.close(WS_CLOSE_INTERNAL_ERROR, 'subscription check failed');
      return;
    }
    if (!client.pending.delete(channel)) return;
    if (companies.length === 0) return this.refuse(client, channel, 'forbidden');
    this.setCampaigns(client, companies);
    this.send(client, { type: 'subscribed', channel });
  }

  private async campaignCompanies(session: Session): Promise<string[]> {
    const allowed = await Promise.all(
      session.companyIds.map((c) => this.permissions.has(session.userId, c, CAMPAIGN_LIST)),
    );
    return session.companyIds.filter((_, i) => allowed[i]);
  }

  private leave(client: Client, channel: TChannel) {
    client.pending.delete(channel);
    if (channel === CAMPAIGNS_CHANNEL) return this.setCampaigns(client, []);
    const deviceId = deviceIdOf(channel);
    if (deviceId === null) this.setFleet(client, []);
    else this.unwatch(client, deviceId);
  }

  /**
   * Checks every subscription of these sockets again, one socket after another so that a change
   * of the whole catalogue does not fire every socket's checks at once. Lost ones are refused.
   */
  private async recheck(clients: Client[]) {
    // Each result applies only to a subscription still held: the socket may have closed or
    // unsubscribed while it was checked.
    const open = (client: Client) => client.socket.readyState === client.socket.OPEN;
    for (const client of clients) {
      try {
        if (open(client) && client.fleet.length > 0) {
          const companies = await this.access.fleetCompanies(client.session);
          if (open(client) && client.fleet.length > 0) {
            this.setFleet(client, companies);
            if (companies.length === 0) this.refuse(client, DEVICES_CHANNEL, 'forbidden');
          }
        }
        if (open(client) && client.campaigns.length > 0) {
          const companies = await this.campaignCompanies(client.session);
          if (open(client) && client.campaigns.length > 0) {
            this.setCampaigns(client, companies);
            if (companies.length === 0) this.refuse(client, CAMPAIGNS_CHANNEL, 'forbidden');
          }
        }
        for (const deviceId of [...client.devices]) {
          if (!open(client)) break;
          const outcome = await this.access.deviceAccess(client.session, deviceId);
          if (outcome === 'allowed' || !open(client) || !client.devices.has(deviceId)) continue;
          this.unwatch(client, deviceId);
          this.refuse(client, `${DEVICE_CHANNEL_PREFIX}${deviceId}`, outcome);
        }
      } catch (err) {
        this.log.warn({ err }, 'websocket subscription recheck failed');
      }
    }
  }

  private setFleet(client: Client, companies: FleetCompany[]) {
    for (const companyId of client.fleet) {
      const set = this.fleetByCompany.get(companyId);
      set?.delete(client);
      if (set?.size === 0) this.fleetByCompany.delete(companyId);
    }
    client.fleet = companies.map((c) => c.companyId);
    client.narrowedIn = new Set(companies.filter((c) => c.narrowed).map((c) => c.companyId));
    for (const { companyId } of companies) {
      const set = this.fleetByCompany.get(companyId) ?? new Set<Client>();
      set.add(client);
      this.fleetByCompany.set(companyId, set);
    }
  }

  private setCampaigns(client: Client, companies: string[]) {
    for (const companyId of client.campaigns) {
      const set = this.campaignsByCompany.get(companyId);
      set?.delete(client);
      if (set?.size === 0) this.campaignsByCompany.delete(companyId);
    }
    client.campaigns = companies;
    for (const companyId of companies) {
      const set = this.campaignsByCompany.get(companyId) ?? new Set<Client>();
      set.add(client);
      this.campaignsByCompany.set(companyId, set);
    }
  }

  /** A message about one device, serialized once, to the sockets watching it. */
  private toWatchers(deviceId: string, message: TServerMessage) {
    const watchers = this.watchersByDevice.get(deviceId);
    if (!watchers) return;
    const text = JSON.stringify(message);
    for (const client of watchers) this.deliver(client, text);
  }

  private watch(client: Client, deviceId: string) {
    client.devices.add(deviceId);
    const set = this.watchersByDevice.get(deviceId) ?? new Set<Client>();
    set.add(client);
    this.watchersByDevice.set(deviceId, set);
  }

  private unwatch(client: Client, deviceId: string) {
    client.devices.delete(deviceId);
    const set = this.watchersByDevice.get(deviceId);
    set?.delete(client);
    if (set?.size === 0) this.watchersByDevice.delete(deviceId);
  }

  private refuse(client: Client, channel: string, reason: 'forbidden' | 'not-found' | 'invalid') {
    this.send(client, { type: 'subscribe-refused', channel, reason });
  }

  /**
   * The whole change goes, serialized once, to the company's `devices` sockets whose users see
   * every device; sockets whose users' data rules narrow the list get the devices they may see
   * (one query and one serialization per user). Each device's own watchers that are not among
   * them get that device's change, serialized once per device.
   */
  private deviceLive(companyId: string, devices: TDeviceLive[]) {
    const fleet = this.fleetByCompany.get(companyId);
    if (fleet) {
      let text: string | undefined;
      const narrowed = new Map<string, { session: Session; clients: Client[] }>();
      for (const client of fleet) {
        if (client.narrowedIn.has(companyId)) {
          const { userId, username, orgCode } = client.session;
          // What the rules' variables are replaced with: sockets that agree share one query.
          const key = JSON.stringify([userId, username, orgCode]);
          const group = narrowed.get(key) ?? { session: client.session, clients: [] };
          group.clients.push(client);
          narrowed.set(key, group);
          continue;
        }
        text ??= JSON.stringify({ type: 'device-status', devices } satisfies TServerMessage);
        if (client.backlogSize === 0) this.deliver(client, text);
        else this.queue(client, companyId, Promise.resolve(text));
      }
      for (const { session, clients } of narrowed.values()) {
        const shown = this.visibleStatus(session, companyId, devices);
        for (const client of clients) this.queue(client, companyId, shown);
      }
    }
    if (this.watchersByDevice.size === 0) return;
    for (const device of devices) {
      const watchers = this.watchersByDevice.get(device.id);
      if (!watchers) continue;
      let text: string | undefined;
      for (const client of watchers) {
        if (fleet?.has(client)) continue;
        text ??= JSON.stringify({
          type: 'device-status',
          devices: [device],
        } satisfies TServerMessage);
        this.deliver(client, text);
      }
    }
  }

  /**
   * The message of the devices of a batch that the user may see; null when they see none of them.
   * A failed check is logged here, once for all of the user's sockets.
   */
  private async visibleStatus(
    session: Session,
    companyId: string,
    devices: TDeviceLive[],
  ): Promise<string | null | typeof CHECK_FAILED> {
    try {
      const ids = new Set(
        await this.access.visibleDevices(
          session,
          companyId,
          devices.map((d) => d.id),
        ),
      );
      const shown = devices.filter((d) => ids.has(d.id));
      if (shown.length === 0) return null;
      return JSON.stringify({ type: 'device-status', devices: shown } satisfies TServerMessage);
    } catch (err) {
      this.log.warn({ err, userId: session.userId }, 'websocket device filter failed');
      return CHECK_FAILED;
    }
  }

  /** Sends a status batch of the company once those queued before it on the socket are sent. */
  private queue(
    client: Client,
    companyId: string,
    message: Promise<string | null | typeof CHECK_FAILED>,
  ) {
    if (client.backlogSize >= MAX_FILTER_BACKLOG) {
      this.log.info({ userId: client.session.userId }, 'websocket dropped: not keeping up');
      client.socket.terminate();
      return;
    }
    client.backlogSize += 1;
    client.backlog = client.backlog
      .then(() => message)
      .then((text) => {
        client.backlogSize -= 1;
        // The socket may have left `devices`, or lost the company, while the batch was checked.
        if (text === null || !client.fleet.includes(companyId)) return;
        if (text === CHECK_FAILED) {
          // The console reconnects and reloads what it shows: no status change goes missing.
          client.socket.close(WS_CLOSE_INTERNAL_ERROR, 'device filter failed');
        } else {
          this.deliver(client, text);
        }
      });
  }

  private deliver(client: Client, text: string) {
    const socket = client.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.log.info({ userId: client.session.userId }, 'websocket dropped: not keeping up');
      socket.terminate();
      return;
    }
    socket.send(text);
  }

  /**
   * The bus is back after a gap whose events (status changes, announcements, commands) never
   * reached these sockets: every console is told to reload what it shows, sockets of sessions
   * ended meanwhile close, and subscriptions are checked again against grants changed meanwhile.
   */
  private async resynchronise() {
    const clients = [...this.all()];
    const text = JSON.stringify({ type: 'resync' } satisfies TServerMessage);
    for (const client of clients) this.deliver(client, text);
    const live = new Map<string, Promise<boolean>>();
    const kept: Client[] = [];
    for (const client of clients) {
      const hash = client.session.tokenHash;
      try {
        let check = live.get(hash);
        if (!check) live.set(hash, (check = this.sessions.isLive(hash)));
        if (await check) kept.push(client);
        else client.socket.close(WS_CLOSE_UNAUTHORIZED, 'session ended');
      } catch (err) {
        this.log.warn({ err }, 'websocket session recheck failed');
        kept.push(client);
      }
    }
    await this.recheck(kept);
  }

  private *all(): Generator<Client> {
    for (const set of this.byUser.values()) yield* set;
  }

  private send(client: Client, message: TServerMessage) {
    this.deliver(client, JSON.stringify(message));
  }

  private sendTo(userId: string, textFor: (client: Client) => string) {
    const set = this.byUser.get(userId);
    if (!set) return;
    for (const client of set) this.deliver(client, textFor(client));
  }

  private broadcast(companyId: string, textFor: (client: Client) => string) {
    for (const client of this.all()) {
      if (client.session.companyIds.includes(companyId)) this.deliver(client, textFor(client));
    }
  }

  private pingAll() {
    for (const client of this.all()) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }

  /**
   * Closes every socket with 1012 (service restart), which the console answers by reconnecting, and
   * cuts those that do not complete the close within a second: the HTTP server's close waits for
   * them, so a tab that never answers must not hold the shutdown.
   */
  async close(): Promise<void> {
    clearInterval(this.sweep);
    for (const off of this.unsubscribe) off();
    const sockets = [...this.all()].map((client) => client.socket);
    const closed = sockets.map(
      (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())),
    );
    for (const socket of sockets) socket.close(WS_CLOSE_SERVICE_RESTART, 'server restart');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closed),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS))),
    ]);
    clearTimeout(timer);
    for (const socket of sockets) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The device id of a `device:{id}` channel; null for `devices` (and `campaigns`). */
function deviceIdOf(channel: TChannel): string | null {
  return channel.startsWith(DEVICE_CHANNEL_PREFIX)
    ? channel.slice(DEVICE_CHANNEL_PREFIX.length)
    : null;
}

/** The channel of a subscribe message that failed validation, if it is one. */
function subscribedChannel(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const { type, channel } = raw as { type?: unknown; channel?: unknown };
  if (type !== 'subscribe') return null;
  return typeof channel === 'string' ? channel.slice(0, 100) : '';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
