import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BrokerPersistence } from './broker-persistence.js';
import { EmbeddedBroker } from './embedded-broker.js';
import type { BrokerHooks, MqttSession } from './transport.js';

/** Every connection accepted and allowed everything: what is tested here is Aedes' own state. */
const openHooks: BrokerHooks<MqttSession> = {
  authenticate: (request) =>
    Promise.resolve({ accept: true, session: { clientId: request.clientId } }),
  authorize: () => true,
  connected: () => undefined,
  disconnected: () => undefined,
  message: () => undefined,
  oversized: () => undefined,
};

describe('BrokerPersistence', () => {
  it('knows which clients may have messages queued, and whether a retained one was stored', async () => {
    const persistence = new BrokerPersistence();
    const packet = {
      cmd: 'publish' as const,
      topic: 'down/a',
      payload: Buffer.from('x'),
      qos: 1 as const,
      retain: false,
      dup: false,
      brokerId: 'b',
      brokerCounter: 1,
    };
    expect(persistence.mayHaveQueued('a')).toBe(false);
    await persistence.outgoingEnqueue({ clientId: 'a' }, packet);
    await persistence.outgoingEnqueueCombi([{ clientId: 'b' }, { clientId: 'c' }], packet);
    expect(['a', 'b', 'c', 'd'].map((id) => persistence.mayHaveQueued(id))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(persistence.mayHaveRetained()).toBe(false);
    await persistence.storeRetained({ ...packet, retain: true });
    expect(persistence.mayHaveRetained()).toBe(true);
  });
});

describe('embedded broker sessions (Aedes patched: patches/aedes+1.2.0.patch)', () => {
  let broker: EmbeddedBroker<MqttSession>;
  const open: MqttClient[] = [];

  async function connect(clientId: string, options: IClientOptions = {}) {
    const connection = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId,
      reconnectPeriod: 0,
      ...options,
    });
    open.push(connection);
    return connection;
  }

  function nextMessage(connection: MqttClient) {
    return new Promise<string>((resolve) =>
      connection.once('message', (_topic, payload) => resolve(payload.toString())),
    );
  }

  beforeAll(async () => {
    broker = await EmbeddedBroker.start(openHooks, {
      id: 'test-node',
      port: 0,
      host: '127.0.0.1',
      maxPacketBytes: 65_536,
      connectRateLimit: { perSecond: 1000, burst: 1000 },
      log: pino({ level: 'silent' }),
    });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
    vi.restoreAllMocks();
  });
  afterAll(() => broker.close());

  it('delivers what was queued for a persistent session while it was away', async () => {
    const first = await connect('persistent-1', { clean: false });
    await first.subscribeAsync('down/persistent-1/#', { qos: 1 });
    await first.endAsync();
    await vi.waitFor(() => expect(broker.holds('persistent-1')).toBe(false));

    await broker.publish('down/persistent-1/ota', 'queued while away', { qos: 1 });
    const again = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: 'persistent-1',
      clean: false,
      reconnectPeriod: 0,
    });
    open.push(again);
    expect(await nextMessage(again)).toBe('queued while away');
  });

  it('reads no outgoing queue nor retained store for clean sessions, and still delivers live', async () => {
    const outgoing = vi.spyOn(BrokerPersistence.prototype, 'outgoingStream');
    const retained = vi.spyOn(BrokerPersistence.prototype, 'createRetainedStreamCombi');
    const device = await connect('clean-1');
    await device.subscribeAsync('down/clean-1/#', { qos: 1 });
    const message = nextMessage(device);
    await broker.publish('down/clean-1/rpc', 'live', { qos: 1 });
    expect(await message).toBe('live');
    expect(outgoing).not.toHaveBeenCalled();
    expect(retained).not.toHaveBeenCalled();
  });
});
