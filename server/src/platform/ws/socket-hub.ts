import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_UNAUTHORIZED,
  WS_TOKEN_PROTOCOL,
  ZClientMessage,
  type TChannel,
  type TServerMessage,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Session, SessionService } from '../auth/sessions.js';
import type { Bus } from '../bus/bus.js';
import { languageOf, type Lang } from '../http/i18n.js';
import type { ChannelCheck, ChannelRegistry, ChannelSocket } from './channels.js';

const PATH = /^\/api\/websocket\/([0-9a-f]{32})\/?$/;
/**
 * Every 30 s each socket is pinged at the protocol level (browsers answer by themselves); one that
 * has not answered the previous ping is gone and is dropped. This is independent of the console's
 * heartbeat messages, which a busy socket may not send at all.
 */
export const PING_INTERVAL_MS = 30_000;
const MAX_MESSAGE_BYTES = 4096;
/**
 * A socket that has this much unsent data is not keeping up (a fleet in a status storm, a stalled
 * tab): it is dropped rather than buffered without bound. The console reconnects, subscribes
 * again and reloads what it shows.
 */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** RFC 6455: the server hit an unexpected condition. */
const WS_CLOSE_INTERNAL_ERROR = 1011;
/** RFC 6455 "service restart": the server is shutting down; the console reconnects (to another node). */
const WS_CLOSE_SERVICE_RESTART = 1012;
/** At shutdown, sockets that have not answered the close by then are cut. */
const CLOSE_GRACE_MS = 1000;

/** One console socket. */
class Client implements ChannelSocket {
  /** Answered since the last ping. */
  alive = true;
  /** Channels whose subscription is being checked; an unsubscribe meanwhile cancels it. */
  readonly pending = new Set<TChannel>();

  constructor(
    readonly socket: WebSocket,
    readonly session: Session,
    /** The console's language (`language` message; the upgrade's Accept-Language until then). */
    public lang: Lang,
    readonly expiry: NodeJS.Timeout,
    private readonly log: FastifyBaseLogger,
  ) {}

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  deliver(text: string): void {
    if (!this.open) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) return this.drop();
    this.socket.send(text);
  }

  drop(): void {
    this.log.info({ userId: this.session.userId }, 'websocket dropped: not keeping up');
    this.socket.terminate();
  }

  fail(reason: string): void {
    this.socket.close(WS_CLOSE_INTERNAL_ERROR, reason);
  }

  send(message: TServerMessage): void {
    this.deliver(JSON.stringify(message));
  }
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
 * Channels are subscriptions of one socket, served by the kinds the modules register
 * ({@link ChannelRegistry}): the hub runs the protocol (`subscribe`, `subscribed`,
 * `subscribe-refused`, `unsubscribe`) and asks the channel's kind who may hold it, when it is made
 * and again when the user's grants change; the kind routes its bus events to the sockets holding it.
 */
export class SocketHub {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // Echo the marker, never the token, as the chosen subprotocol.
    handleProtocols: (protocols) => (protocols.has(WS_TOKEN_PROTOCOL) ? WS_TOKEN_PROTOCOL : false),
  });
  private readonly byUser = new Map<string, Set<Client>>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly sessions: SessionService,
    bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number,
    private readonly channels: ChannelRegistry,
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
      ...channels.listen(bus),
      // Grants changed: what a socket watches is checked again, as a new subscription would be
      // (after this event has reached the permission caches, which subscribed before the hub).
      bus.subscribe('auth.permissions-changed', ({ userId }) => {
        const clients = userId ? [...(this.byUser.get(userId) ?? [])] : [...this.all()];
        setImmediate(() => void this.recheck(clients));
      }),
      bus.subscribe('bus.resumed', () => void this.resynchronise()),
    );
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
    const expiry = setTimeout(() => ws.close(WS_CLOSE_UNAUTHORIZED, 'session expired'), expiresIn);
    expiry.unref();
    const client = new Client(ws, session, lang, expiry, this.log);
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
      if (message.type === 'heartbeat') client.send({ type: 'heartbeat' });
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
      for (const kind of this.channels.kinds) {
        for (const channel of kind.held(client)) kind.leave(client, channel);
      }
    });
    ws.on('error', (err) => this.log.debug({ err }, 'websocket error'));
  }

  /** Answers `subscribed` once the channel's messages reach the socket, or `subscribe-refused`. */
  private async subscribe(client: Client, channel: TChannel) {
    if (client.pending.has(channel)) return;
    const kind = this.channels.kindOf(channel);
    if (!kind) return this.refuse(client, channel, 'invalid');
    const held = kind.held(client);
    if (held.includes(channel)) return client.send({ type: 'subscribed', channel });
    if (kind.maxPerSocket !== undefined) {
      let count = held.length;
      for (const c of client.pending) if (kind.matches(c)) count += 1;
      if (count >= kind.maxPerSocket) return this.refuse(client, channel, 'invalid');
    }
    client.pending.add(channel);
    let check: ChannelCheck;
    try {
      check = await kind.check(client.session, channel);
    } catch (err) {
      // The console reconnects after a close and subscribes again: that is the retry.
      this.log.warn({ err, channel }, 'websocket subscription check failed');
      client.fail('subscription check failed');
      return;
    }
    // Unsubscribed, or the socket closed, while the check ran.
    if (!client.pending.delete(channel)) return;
    if (check.outcome !== 'allowed') return this.refuse(client, channel, check.outcome);
    check.join(client);
    client.send({ type: 'subscribed', channel });
  }

  private leave(client: Client, channel: TChannel) {
    client.pending.delete(channel);
    this.channels.kindOf(channel)?.leave(client, channel);
  }

  /**
   * Checks every subscription of these sockets again, one socket after another so that a change
   * of the whole catalogue does not fire every socket's checks at once. Lost ones are refused.
   */
  private async recheck(clients: Client[]) {
    for (const client of clients) {
      try {
        await this.recheckOne(client);
      } catch (err) {
        this.log.warn({ err }, 'websocket subscription recheck failed');
      }
    }
  }

  private async recheckOne(client: Client) {
    for (const kind of this.channels.kinds) {
      for (const channel of kind.held(client)) {
        if (!client.open) return;
        const check = await kind.check(client.session, channel);
        // Each result applies only to a subscription still held: the socket may have closed or
        // unsubscribed while it was checked.
        if (!client.open || !kind.held(client).includes(channel)) continue;
        if (check.outcome === 'allowed') {
          check.join(client);
        } else {
          kind.leave(client, channel);
          this.refuse(client, channel, check.outcome);
        }
      }
    }
  }

  private refuse(client: Client, channel: string, reason: 'forbidden' | 'not-found' | 'invalid') {
    client.send({ type: 'subscribe-refused', channel, reason });
  }

  /**
   * The bus is back after a gap whose events (status changes, announcements, commands) never
   * reached these sockets: every console is told to reload what it shows, sockets of sessions
   * ended meanwhile close, and subscriptions are checked again against grants changed meanwhile.
   */
  private async resynchronise() {
    const clients = [...this.all()];
    const text = JSON.stringify({ type: 'resync' } satisfies TServerMessage);
    for (const client of clients) client.deliver(text);
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

  private sendTo(userId: string, textFor: (client: Client) => string) {
    const set = this.byUser.get(userId);
    if (!set) return;
    for (const client of set) client.deliver(textFor(client));
  }

  private broadcast(companyId: string, textFor: (client: Client) => string) {
    for (const client of this.all()) {
      if (client.session.companyIds.includes(companyId)) client.deliver(textFor(client));
    }
  }

  /** Open console sockets on this node (the system monitor and /metrics show it). */
  get size(): number {
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  /**
   * Drops the sockets that did not answer the previous ping and pings the others (the scheduler's
   * `console-socket.ping`, every PING_INTERVAL_MS on each node).
   */
  pingAll(): void {
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
