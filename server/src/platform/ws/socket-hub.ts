import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_UNAUTHORIZED,
  WS_TOKEN_PROTOCOL,
  ZClientMessage,
  type TServerMessage,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Session, SessionService } from '../auth/sessions.js';
import type { Bus } from '../bus/bus.js';

const PATH = /^\/api\/websocket\/([0-9a-f]{32})\/?$/;
/**
 * Every 30 s each socket is pinged at the protocol level (browsers answer by themselves); one that
 * has not answered the previous ping is gone and is dropped. This is independent of the console's
 * heartbeat messages, which a busy socket may not send at all.
 */
const PING_INTERVAL_MS = 30_000;
const MAX_MESSAGE_BYTES = 4096;

interface Client {
  socket: WebSocket;
  session: Session;
  /** Answered since the last ping. */
  alive: boolean;
  expiry: NodeJS.Timeout;
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
 * Messages reach sockets through the bus, so a publish on any node reaches every node's sockets.
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
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly sessions: SessionService,
    bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number,
  ) {
    this.unsubscribe.push(
      bus.subscribe('notice.delivered', ({ companyId, userIds, msgId, msgTxt, cmd }) => {
        if (userIds === null) {
          if (cmd === 'read') return;
          this.broadcast(companyId, { type: 'topic', msgId, msgTxt, cmd });
        } else {
          // One serialization for every recipient: a publish may address 10,000 users.
          const text = JSON.stringify({
            type: 'user',
            msgId,
            msgTxt,
            cmd,
          } satisfies TServerMessage);
          for (const userId of userIds) this.sendTo(userId, text);
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
      else this.register(ws, session);
    });
  }

  private register(ws: WebSocket, session: Session) {
    const userId = session.userId;
    const expiresIn = Math.max(0, session.expireTime - this.clock());
    const client: Client = {
      socket: ws,
      session,
      alive: true,
      expiry: setTimeout(() => ws.close(WS_CLOSE_UNAUTHORIZED, 'session expired'), expiresIn),
    };
    client.expiry.unref();
    const set = this.byUser.get(userId) ?? new Set<Client>();
    set.add(client);
    this.byUser.set(userId, set);

    ws.on('message', (data) => {
      client.alive = true;
      const parsed = ZClientMessage.safeParse(safeJson(data.toString()));
      if (parsed.success && parsed.data.type === 'heartbeat')
        this.send(client, { type: 'heartbeat' });
    });
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('close', () => {
      clearTimeout(client.expiry);
      set.delete(client);
      if (set.size === 0) this.byUser.delete(userId);
    });
    ws.on('error', (err) => this.log.debug({ err }, 'websocket error'));
  }

  private *all(): Generator<Client> {
    for (const set of this.byUser.values()) yield* set;
  }

  private send(client: Client, message: TServerMessage) {
    if (client.socket.readyState === client.socket.OPEN)
      client.socket.send(JSON.stringify(message));
  }

  private sendTo(userId: string, text: string) {
    const set = this.byUser.get(userId);
    if (!set) return;
    for (const client of set) {
      if (client.socket.readyState === client.socket.OPEN) client.socket.send(text);
    }
  }

  private broadcast(companyId: string, message: TServerMessage) {
    const text = JSON.stringify(message);
    for (const client of this.all()) {
      if (client.session.companyIds.includes(companyId) && client.socket.readyState === 1) {
        client.socket.send(text);
      }
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

  async close(): Promise<void> {
    clearInterval(this.sweep);
    for (const off of this.unsubscribe) off();
    for (const client of this.all()) client.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
