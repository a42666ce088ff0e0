import {
  DEVICES_CHANNEL,
  deviceChannel,
  WS_CLOSE_UNAUTHORIZED,
  WS_HEARTBEAT_MS,
  WS_RECONNECT_MS,
  WS_TOKEN_PROTOCOL,
} from '@blrms/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeClient } from './realtime-client';

/** A stand-in for the browser's WebSocket that the test opens, feeds and closes. */
class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const latest = () => FakeSocket.all.at(-1) as FakeSocket;
const TARGET = { userId: 'a'.repeat(32), token: 'secret-token' };
const DEVICE_ID = 'c'.repeat(32);
const ONE_DEVICE = deviceChannel(DEVICE_ID);

/** The channel messages a socket sent, in order, as `subscribe devices` etc. */
const channelMessages = (socket: FakeSocket) =>
  socket.sent
    .map((text) => JSON.parse(text) as { type: string; channel?: string })
    .filter((m) => m.channel !== undefined)
    .map((m) => `${m.type} ${m.channel}`);

describe('RealtimeClient (spec sections 4 and 9)', () => {
  let client: RealtimeClient;
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('window', globalThis);
    client = new RealtimeClient((userId) => `ws://console/api/websocket/${userId}`);
  });
  afterEach(() => {
    client.stop();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('offers the token as a subprotocol, never in the URL', () => {
    client.start(TARGET);
    expect(latest().url).toBe(`ws://console/api/websocket/${TARGET.userId}`);
    expect(latest().protocols).toEqual([WS_TOKEN_PROTOCOL, 'secret-token']);
  });

  it('sends a heartbeat after 20 s of silence, and not while messages arrive', () => {
    client.start(TARGET);
    latest().open();
    vi.advanceTimersByTime(WS_HEARTBEAT_MS - 1000);
    latest().receive({ type: 'heartbeat' });
    vi.advanceTimersByTime(WS_HEARTBEAT_MS - 1000);
    expect(latest().sent).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(latest().sent).toEqual([JSON.stringify({ type: 'heartbeat' })]);
  });

  it('hands each message to the subscribers of its type only, across reconnects', () => {
    const topics: unknown[] = [];
    const users: unknown[] = [];
    client.subscribe('topic', (m) => topics.push(m.msgId));
    client.subscribe('user', (m) => users.push(m.cmd));
    client.start(TARGET);
    latest().open();
    const id = 'b'.repeat(32);
    latest().receive({ type: 'topic', msgId: id, msgTxt: 'x', cmd: 'publish' });
    latest().receive({ type: 'device-status', sn: 'R40' });
    latest().onmessage?.({ data: 'not json' });

    latest().drop();
    vi.advanceTimersByTime(WS_RECONNECT_MS);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    latest().receive({ type: 'user', msgId: id, msgTxt: 'x', cmd: 'read' });
    expect(topics).toEqual([id]);
    expect(users).toEqual(['read']);
  });

  it('reconnects 5 s after a close, and reports its status', () => {
    const statuses: string[] = [];
    client.onStatus(() => statuses.push(client.status));
    client.start(TARGET);
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(WS_RECONNECT_MS - 1);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(statuses).toEqual(['connecting', 'open', 'down', 'open']);
  });

  it('tells resync listeners when messages may have been missed: a resync, a reconnect', () => {
    const resyncs = vi.fn();
    const seen = vi.fn();
    client.onResync(resyncs);
    client.subscribe('resync', seen);
    client.start(TARGET);
    latest().open();
    // The first connection: what was loaded before it is current.
    expect(resyncs).not.toHaveBeenCalled();

    // The server nodes lost touch for a while.
    latest().receive({ type: 'resync' });
    expect(resyncs).toHaveBeenCalledTimes(1);
    expect(seen).toHaveBeenCalledWith({ type: 'resync' });

    // The socket itself was closed for a while.
    latest().drop();
    vi.advanceTimersByTime(WS_RECONNECT_MS);
    expect(resyncs).toHaveBeenCalledTimes(1);
    latest().open();
    expect(resyncs).toHaveBeenCalledTimes(2);

    // Another user's (or a new session's) first connection starts afresh.
    client.start({ ...TARGET, token: 'another-token' });
    latest().open();
    expect(resyncs).toHaveBeenCalledTimes(2);
  });

  it('does not retry a session the server refused', () => {
    client.start(TARGET);
    latest().drop(WS_CLOSE_UNAUTHORIZED);
    vi.advanceTimersByTime(WS_RECONNECT_MS * 3);
    expect(FakeSocket.all).toHaveLength(1);
    expect(client.status).toBe('down');
  });

  it('subscribes to a channel once for all its users, and leaves it with the last one', () => {
    client.start(TARGET);
    latest().open();
    const leaveList = client.joinChannel(DEVICES_CHANNEL);
    const leaveDashboard = client.joinChannel(DEVICES_CHANNEL);
    const leaveDetail = client.joinChannel(ONE_DEVICE);
    expect(channelMessages(latest())).toEqual(['subscribe devices', `subscribe ${ONE_DEVICE}`]);

    leaveList();
    leaveList();
    expect(channelMessages(latest())).toHaveLength(2);
    leaveDashboard();
    leaveDetail();
    expect(channelMessages(latest()).slice(2)).toEqual([
      'unsubscribe devices',
      `unsubscribe ${ONE_DEVICE}`,
    ]);

    client.joinChannel(DEVICES_CHANNEL);
    expect(channelMessages(latest()).at(-1)).toBe('subscribe devices');
  });

  it('subscribes to the channels joined before the socket opened once it opens', () => {
    client.joinChannel(ONE_DEVICE);
    client.start(TARGET);
    expect(latest().sent).toEqual([]);
    latest().open();
    expect(channelMessages(latest())).toEqual([`subscribe ${ONE_DEVICE}`]);
  });

  it('tells the server the console’s language on every open socket and when it changes', () => {
    const languages = (socket: FakeSocket) =>
      socket.sent
        .map((text) => JSON.parse(text) as { type: string; lang?: string })
        .filter((m) => m.type === 'language')
        .map((m) => m.lang);
    client.setLanguage('en-US');
    client.start(TARGET);
    latest().open();
    expect(languages(latest())).toEqual(['en-US']);
    client.setLanguage('zh-CN');
    client.setLanguage('zh-CN');
    expect(languages(latest())).toEqual(['en-US', 'zh-CN']);
    latest().drop();
    vi.advanceTimersByTime(WS_RECONNECT_MS);
    latest().open();
    expect(languages(latest())).toEqual(['zh-CN']);
  });

  it('subscribes a new socket to every channel still in use after a reconnect', () => {
    client.start(TARGET);
    latest().open();
    client.joinChannel(DEVICES_CHANNEL);
    const leaveDetail = client.joinChannel(ONE_DEVICE);
    latest().drop();
    // Left while the socket was down: the new socket must not subscribe to it.
    leaveDetail();
    const other = deviceChannel('d'.repeat(32));
    client.joinChannel(other);
    vi.advanceTimersByTime(WS_RECONNECT_MS);
    latest().open();
    expect(channelMessages(latest())).toEqual(['subscribe devices', `subscribe ${other}`]);
  });

  it('hands device messages to their subscribers, typed', () => {
    const statuses: string[] = [];
    client.subscribe('device-status', (m) => statuses.push(...m.devices.map((d) => d.status)));
    client.start(TARGET);
    latest().open();
    latest().receive({
      type: 'device-status',
      devices: [
        {
          id: DEVICE_ID,
          sn: 'R40-1',
          groupId: null,
          status: 'online',
          ip: '10.0.0.2',
          series: 'R40',
          model: null,
          version: '1.0.0',
          lastSeenAt: '2026-01-01T00:00:00.000Z',
          lastConnectAt: '2026-01-01T00:00:00.000Z',
          lastDisconnectAt: null,
          disconnectReason: null,
          expectedRestart: null,
        },
      ],
    });
    expect(statuses).toEqual(['online']);
  });
});
