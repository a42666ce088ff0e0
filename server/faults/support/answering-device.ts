import { deviceAddress, downFilter, parseTopic, upTopic } from '@blrms/contracts';
import mqtt, { type MqttClient } from 'mqtt';

/**
 * A device speaking the protocol with mqtt.js directly (docs/device-protocol.md): it subscribes to
 * its downlinks, publishes its status, applies every configuration it is sent and answers every
 * command. It records what it received, so a test can count what was delivered.
 */
export class AnsweringDevice {
  /** Versions of the configurations received (`down/config`). */
  readonly configVersions: number[] = [];
  /** Request ids of the commands received (`down/rpc/{reqId}`). */
  readonly commandIds: string[] = [];

  private constructor(
    readonly address: string,
    private readonly client: MqttClient,
  ) {}

  static async connect(
    brokerUrl: string,
    token: { code: string; key: string },
    sn: string,
    status: Record<string, unknown> = { series: 'R40', model: 'R40-4G', fw: '1.0.0' },
  ): Promise<AnsweringDevice> {
    const address = deviceAddress(token.code, sn);
    const client = mqtt.connect(brokerUrl, {
      clientId: address,
      username: address,
      password: token.key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      will: {
        topic: upTopic(address, 'status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    const device = new AnsweringDevice(address, client);
    client.on('message', (topic, raw) => device.received(topic, raw));
    await client.subscribeAsync(downFilter(address), { qos: 1 });
    await device.publishStatus({ online: true, ...status });
    return device;
  }

  publishStatus(status: Record<string, unknown>): Promise<unknown> {
    return this.client.publishAsync(upTopic(this.address, 'status'), JSON.stringify(status), {
      qos: 1,
      retain: true,
    });
  }

  /** Goes away without a word, as a device that loses power does (the broker sends its will). */
  drop(): void {
    this.client.stream.destroy();
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }

  private received(topic: string, raw: Buffer): void {
    const parsed = parseTopic(topic);
    if (!parsed || parsed.direction !== 'down') return;
    const payload = JSON.parse(raw.toString()) as { version?: number };
    if (parsed.kind === 'config' && typeof payload.version === 'number') {
      this.configVersions.push(payload.version);
      void this.client.publishAsync(
        upTopic(this.address, 'config/reported'),
        JSON.stringify({ version: payload.version, result: 'ok' }),
        { qos: 1 },
      );
    } else if (parsed.kind === 'rpc' && parsed.id) {
      this.commandIds.push(parsed.id);
      void this.client.publishAsync(
        upTopic(this.address, 'rpc', parsed.id),
        JSON.stringify({ ok: true, result: 'pong' }),
        { qos: 1 },
      );
    }
  }
}
