import { WS_TOKEN_PROTOCOL, type TServerMessage } from '@blrms/contracts';
import WebSocket from 'ws';
import { until } from './ports.js';

/** A console's websocket on one node, recording what the server sends it. */
export class ConsoleSocket {
  readonly messages: TServerMessage[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.messages.push(JSON.parse(data.toString())));
  }

  static async open(baseUrl: string, userId: string, token: string): Promise<ConsoleSocket> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/websocket/${userId}`, [
      WS_TOKEN_PROTOCOL,
      token,
    ]);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new ConsoleSocket(socket);
  }

  /** Subscribes to a channel and waits until the server confirms it. */
  async subscribe(channel: string): Promise<void> {
    this.socket.send(JSON.stringify({ type: 'subscribe', channel }));
    await until(
      () => this.messages.some((m) => m.type === 'subscribed' && m.channel === channel),
      `the subscription of ${channel}`,
      5000,
    );
  }

  /** Messages received after the `from`-th one. */
  since(from: number): TServerMessage[] {
    return this.messages.slice(from);
  }

  close(): void {
    this.socket.close();
  }
}
