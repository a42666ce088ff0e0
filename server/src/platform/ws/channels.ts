import type { TChannel } from '@blrms/contracts';
import type { PermissionService } from '../auth/permissions.js';
import type { Session } from '../auth/sessions.js';
import type { Bus } from '../bus/bus.js';
import type { Lang } from '../http/i18n.js';

/** What a channel kind sees of a console socket. */
export interface ChannelSocket {
  readonly session: Session;
  /** The console's language: texts a channel renders reach the socket in it. */
  readonly lang: Lang;
  /**
   * Sends a message serialized once for all its recipients, if the socket is still open; a socket
   * that is not keeping up is dropped instead.
   */
  deliver(text: string): void;
  /** Drops a socket that is not keeping up: the console reconnects, subscribes again and reloads. */
  drop(): void;
  /** Closes with 1011 (server error): the console reconnects and subscribes again. */
  fail(reason: string): void;
}

/** A subscription check's outcome: an allowed one says how the socket joins the channel. */
export type ChannelCheck =
  | { outcome: 'allowed'; join: (socket: ChannelSocket) => void }
  | { outcome: 'forbidden' | 'not-found' };

/**
 * One kind of channel of the console websocket (`devices`, `device:{id}`, `campaigns`): the names
 * it serves, who may subscribe, which sockets hold it, and how bus events reach them.
 */
export interface ChannelKind {
  matches(channel: TChannel): boolean;
  /** Channels of this kind one socket may hold (subscribed or being checked); no cap when absent. */
  readonly maxPerSocket?: number;
  /** The channels of this kind the socket is subscribed to. */
  held(socket: ChannelSocket): TChannel[];
  /**
   * Whether the session may hold the channel: checked when a socket subscribes and again when
   * the user's grants change. Joining again updates what the socket gets (companies, data rules).
   */
  check(session: Session, channel: TChannel): Promise<ChannelCheck>;
  /** Stops the channel's messages to the socket; nothing when it does not hold the channel. */
  leave(socket: ChannelSocket, channel: TChannel): void;
  /** Subscribes to the bus events routed to this kind's sockets; returns their unsubscribes. */
  listen(bus: Bus): (() => void)[];
}

/**
 * The channel kinds the console websocket serves, registered by the modules that own them before
 * the socket hub starts. Subscriptions are checked again (on a grant change, after a bus gap)
 * kind by kind in the order of registration.
 */
export class ChannelRegistry {
  private readonly registered: ChannelKind[] = [];
  private listening = false;

  register(...kinds: ChannelKind[]): void {
    if (this.listening)
      throw new Error('channel kinds are registered before the socket hub starts');
    this.registered.push(...kinds);
  }

  get kinds(): readonly ChannelKind[] {
    return this.registered;
  }

  /** The kind that serves the channel; undefined when none does. */
  kindOf(channel: TChannel): ChannelKind | undefined {
    return this.registered.find((kind) => kind.matches(channel));
  }

  /** Routes the bus events of every kind to its sockets; returns the unsubscribes. */
  listen(bus: Bus): (() => void)[] {
    this.listening = true;
    return this.registered.flatMap((kind) => kind.listen(bus));
  }
}

/**
 * Sockets by key (a company, a device) and each socket's keys, so that a bus message costs its
 * recipients, not a scan of every socket.
 */
export class SocketIndex {
  private readonly socketsByKey = new Map<string, Set<ChannelSocket>>();
  private readonly keysBySocket = new Map<ChannelSocket, Set<string>>();

  /** The sockets of the key; undefined when there are none. */
  socketsOf(key: string): ReadonlySet<ChannelSocket> | undefined {
    return this.socketsByKey.get(key);
  }

  keysOf(socket: ChannelSocket): ReadonlySet<string> {
    return this.keysBySocket.get(socket) ?? NO_KEYS;
  }

  has(socket: ChannelSocket, key: string): boolean {
    return this.keysBySocket.get(socket)?.has(key) === true;
  }

  /** No socket has a key. */
  get empty(): boolean {
    return this.socketsByKey.size === 0;
  }

  add(socket: ChannelSocket, key: string): void {
    const keys = this.keysBySocket.get(socket) ?? new Set<string>();
    keys.add(key);
    this.keysBySocket.set(socket, keys);
    const sockets = this.socketsByKey.get(key) ?? new Set<ChannelSocket>();
    sockets.add(socket);
    this.socketsByKey.set(key, sockets);
  }

  delete(socket: ChannelSocket, key: string): void {
    const keys = this.keysBySocket.get(socket);
    keys?.delete(key);
    if (keys?.size === 0) this.keysBySocket.delete(socket);
    const sockets = this.socketsByKey.get(key);
    sockets?.delete(socket);
    if (sockets?.size === 0) this.socketsByKey.delete(key);
  }

  /** Replaces the socket's keys: none removes it. */
  replace(socket: ChannelSocket, keys: readonly string[]): void {
    for (const key of [...this.keysOf(socket)]) this.delete(socket, key);
    for (const key of keys) this.add(socket, key);
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** Companies of the session in which the user holds the permission code. */
export async function companiesWith(
  permissions: Pick<PermissionService, 'has'>,
  session: Session,
  code: string,
): Promise<string[]> {
  const allowed = await Promise.all(
    session.companyIds.map((c) => permissions.has(session.userId, c, code)),
  );
  return session.companyIds.filter((_, i) => allowed[i]);
}
