import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AedesPublishPacket, type Client } from 'aedes';

/**
 * A real MQTT broker (Aedes) on a free port for the simulator's tests: it accepts one token key
 * and records what every client did.
 */

export interface Login {
  clientId: string;
  username: string | undefined;
  password: string | undefined;
  remoteAddress: string | undefined;
}

export interface Received {
  clientId: string | null;
  topic: string;
  payload: Buffer;
  retain: boolean;
  qos: number;
}

export interface TestBroker {
  url: string;
  logins: Login[];
  published: Received[];
  /** The last will of each client, by client id, as it was at CONNECT. */
  wills: Map<string, { topic: string; payload: Buffer; retain: boolean; qos: number }>;
  disconnects: string[];
  pings: string[];
  /** Called with every message a client published, as a server would see it arrive. */
  onPublish: ((message: Received) => void) | undefined;
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface TestBrokerOptions {
  /**
   * Subscriptions take this long to register, as on a busy broker: a client that publishes
   * before its SUBACK may miss what is sent in answer.
   */
  subscribeDelayMs?: number;
}

export async function startTestBroker(
  acceptedToken: string,
  options: TestBrokerOptions = {},
): Promise<TestBroker> {
  const logins: Login[] = [];
  const published: Received[] = [];
  const wills: TestBroker['wills'] = new Map();
  const disconnects: string[] = [];
  const pings: string[] = [];
  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const stream = client.conn as { remoteAddress?: string };
      logins.push({
        clientId: client.id,
        username: username ?? undefined,
        password: password?.toString(),
        remoteAddress: stream.remoteAddress,
      });
      if (password?.toString() === acceptedToken) {
        done(null, true);
      } else {
        done(Object.assign(new Error('bad token'), { returnCode: 4 as const }), false);
      }
    },
    authorizeSubscribe(_client, subscription, done) {
      setTimeout(() => done(null, subscription), options.subscribeDelayMs ?? 0);
    },
  });
  broker.on('clientReady', (client: Client) => {
    const will = (client as Client & { will?: AedesPublishPacket }).will;
    if (will)
      wills.set(client.id, {
        topic: will.topic,
        payload: Buffer.from(will.payload),
        retain: will.retain,
        qos: will.qos,
      });
  });
  broker.on('publish', (packet: AedesPublishPacket, client: Client | null) => {
    if (packet.topic.startsWith('$SYS')) return;
    const message: Received = {
      clientId: client?.id ?? null,
      topic: packet.topic,
      payload: Buffer.from(packet.payload),
      retain: packet.retain,
      qos: packet.qos,
    };
    published.push(message);
    if (client) testBroker.onPublish?.(message);
  });
  broker.on('clientDisconnect', (client: Client) => disconnects.push(client.id));
  broker.on('ping', (_packet, client: Client) => pings.push(client.id));
  const server: Server = createServer((socket) => broker.handle(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const testBroker: TestBroker = {
    url: `mqtt://127.0.0.1:${port}`,
    logins,
    published,
    wills,
    disconnects,
    pings,
    onPublish: undefined,
    publish: (topic, payload) =>
      new Promise((resolve, reject) =>
        broker.publish(
          {
            cmd: 'publish',
            topic,
            payload: Buffer.from(payload),
            qos: 1,
            retain: false,
            dup: false,
          },
          (error) => (error ? reject(error) : resolve()),
        ),
      ),
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return testBroker;
}

/** Polls `condition` every 10 ms; fails naming `what` after the timeout. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
