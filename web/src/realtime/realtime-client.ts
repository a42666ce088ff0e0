import {
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_UNAUTHORIZED,
  WS_HEARTBEAT_MS,
  WS_RECONNECT_MS,
  WS_TOKEN_PROTOCOL,
  ZServerMessage,
  type TChannel,
  type TClientMessage,
  type TServerMessage,
  type TServerMessageType,
} from '@blrms/contracts';

/** `connecting` until the first open; `open`; `down` while waiting to reconnect or refused. */
export type RealtimeStatus = 'connecting' | 'open' | 'down';

type TLanguage = Extract<TClientMessage, { type: 'language' }>['lang'];
type MessageOf<T extends TServerMessageType> = Extract<TServerMessage, { type: T }>;
type Handler<T extends TServerMessageType> = (message: MessageOf<T>) => void;

export interface RealtimeTarget {
  userId: string;
  token: string;
}

/**
 * The console's one websocket per tab (spec sections 4 and 9): sends a heartbeat after 20 s
 * without traffic, reconnects 5 s after a close or error, and hands typed messages to the
 * subscribers of their type. Subscriptions live here, so they survive reconnects. A session the
 * server refuses (4401 expired, 4403 another user) is not retried: the HTTP calls then meet the
 * same refusal and the error catalogue ends the session.
 *
 * Channels (`devices`, `device:{id}`) are counted across the components that join them: the
 * server hears `subscribe` when the first one joins and `unsubscribe` when the last one leaves,
 * and every socket the client opens subscribes to the channels in use, because the server forgets
 * a socket's subscriptions when it closes. The server answers each `subscribe` with `subscribed`
 * once the channel's messages flow (or `subscribe-refused`).
 *
 * Messages can be missed: while the socket is closed, and when the server nodes lose touch with
 * each other for a while (the server then sends `resync`). Resync listeners hear both, so that
 * what the console shows live is loaded again.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null;
  private target: RealtimeTarget | null = null;
  private heartbeat: number | undefined;
  private reconnect: number | undefined;
  private statusValue: RealtimeStatus = 'down';
  private readonly handlers = new Map<TServerMessageType, Set<(m: TServerMessage) => void>>();
  private readonly statusListeners = new Set<() => void>();
  private readonly resyncListeners = new Set<() => void>();
  /** A socket opened since `start`: the next open is a reconnect. */
  private openedBefore = false;
  /** Channel → how many components use it. */
  private readonly channels = new Map<TChannel, number>();
  /** The console's language: the server writes announcement titles in it. */
  private language: TLanguage | null = null;

  constructor(private readonly urlFor: (userId: string) => string = defaultUrl) {}

  get status(): RealtimeStatus {
    return this.statusValue;
  }

  /** Connects for this user, or keeps the current socket when it already serves them. */
  start(target: RealtimeTarget): void {
    if (this.target?.userId === target.userId && this.target.token === target.token) return;
    this.stop();
    this.target = target;
    this.openedBefore = false;
    this.setStatus('connecting');
    this.open();
  }

  stop(): void {
    this.target = null;
    window.clearTimeout(this.reconnect);
    window.clearTimeout(this.heartbeat);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
    this.setStatus('down');
  }

  subscribe<T extends TServerMessageType>(type: T, handler: Handler<T>): () => void {
    const set = this.handlers.get(type) ?? new Set();
    // The map is keyed by type, so only messages of this type reach the handler.
    const untyped = handler as (m: TServerMessage) => void;
    set.add(untyped);
    this.handlers.set(type, set);
    return () => set.delete(untyped);
  }

  /**
   * Joins a channel for one user of it; the returned function leaves it (once, however often it
   * is called). Messages of the channel reach the type subscribers like any other.
   */
  joinChannel(channel: TChannel): () => void {
    const users = this.channels.get(channel) ?? 0;
    this.channels.set(channel, users + 1);
    if (users === 0) this.send({ type: 'subscribe', channel });
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const remaining = (this.channels.get(channel) ?? 1) - 1;
      if (remaining > 0) {
        this.channels.set(channel, remaining);
        return;
      }
      this.channels.delete(channel);
      this.send({ type: 'unsubscribe', channel });
    };
  }

  /** Tells the server (now and on every reconnect) which language this console shows. */
  setLanguage(language: TLanguage): void {
    if (this.language === language) return;
    this.language = language;
    this.send({ type: 'language', lang: language });
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * Hears when messages may have been missed: a `resync` from the server, or a reconnect (not
   * the first connection: whatever was loaded before it started is current).
   */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  private open(): void {
    const target = this.target;
    if (!target) return;
    const socket = new WebSocket(this.urlFor(target.userId), [WS_TOKEN_PROTOCOL, target.token]);
    this.socket = socket;
    socket.onopen = () => {
      if (this.language) this.send({ type: 'language', lang: this.language });
      for (const channel of this.channels.keys()) this.send({ type: 'subscribe', channel });
      this.setStatus('open');
      this.armHeartbeat();
      if (this.openedBefore) this.resynced();
      this.openedBefore = true;
    };
    socket.onmessage = (event: MessageEvent) => {
      this.armHeartbeat();
      this.dispatch(event.data);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      window.clearTimeout(this.heartbeat);
      this.setStatus('down');
      const refused = event.code === WS_CLOSE_UNAUTHORIZED || event.code === WS_CLOSE_FORBIDDEN;
      if (!refused) this.reconnect = window.setTimeout(() => this.open(), WS_RECONNECT_MS);
    };
    // An error is always followed by a close, which schedules the reconnect.
    socket.onerror = () => undefined;
  }

  /** After 20 s without traffic either way, a heartbeat keeps proxies from dropping the socket. */
  private armHeartbeat(): void {
    window.clearTimeout(this.heartbeat);
    this.heartbeat = window.setTimeout(() => {
      this.send({ type: 'heartbeat' });
      this.armHeartbeat();
    }, WS_HEARTBEAT_MS);
  }

  private send(message: TClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private dispatch(data: unknown): void {
    if (typeof data !== 'string') return;
    let parsed: ReturnType<typeof ZServerMessage.safeParse>;
    try {
      parsed = ZServerMessage.safeParse(JSON.parse(data));
    } catch {
      return;
    }
    // Types added by later server versions are ignored until this console knows them.
    if (!parsed.success) return;
    for (const handler of this.handlers.get(parsed.data.type) ?? []) handler(parsed.data);
    if (parsed.data.type === 'resync') this.resynced();
  }

  private resynced(): void {
    this.resyncListeners.forEach((l) => l());
  }

  private setStatus(status: RealtimeStatus): void {
    if (this.statusValue === status) return;
    this.statusValue = status;
    this.statusListeners.forEach((l) => l());
  }
}

function defaultUrl(userId: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}/api/websocket/${userId}`;
}

/** The tab's one connection. */
export const realtime = new RealtimeClient();
