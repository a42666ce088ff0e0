import {
  CONFIG_DEFAULTS,
  configAfter,
  configProblem,
  deviceAddress,
  downFilter,
  parseTopic,
  upTopic,
  type TConfigDownPayload,
  type TDeviceConfigObject,
  type TDeviceSeries,
  type TRpcDownPayload,
  type TRpcReplyPayload,
} from '@blrms/contracts';
import type { MqttClient } from 'mqtt';
import { connectDevice, type TokenCredential } from './mqtt-devices.js';

/** A downlink as the device received it. */
export interface Downlink {
  kind: 'config' | 'rpc' | 'ota';
  id: string | undefined;
  payload: unknown;
}

/**
 * How the device treats a configuration: `apply` it when its series' schema accepts it (refusing
 * it otherwise, as firmware does), `refuse` everything with `refusal`, or stay `silent`.
 */
export type ConfigMode = 'apply' | 'refuse' | 'silent';

/**
 * A device of protocol v1 over a real MQTT connection, for API tests of configuration and
 * commands: it subscribes to `down/#` before it publishes its online status, then reports the
 * configuration it runs (unless told not to, like firmware that never does), applies (a whole
 * configuration, or a patch merged into its own) or refuses `down/config`, and answers `reboot`,
 * `ping` and `get_config` (other methods fail) unless told to stay silent.
 */
export class RemoteDevice {
  readonly downlinks: Downlink[] = [];
  configMode: ConfigMode = 'apply';
  refusal = 'wifi.channel: not supported by this radio';
  /** Commands go unanswered (for timeouts). */
  silentRpc = false;
  /** Reports its configuration after its online status, as the protocol asks. */
  reportsAtBoot = true;
  version = 0;
  config: TDeviceConfigObject;
  /** `{tokenCode}:{sn}`: its client id and the level of its topics. */
  readonly address: string;
  private connection: MqttClient | undefined;

  constructor(
    private readonly url: string,
    readonly sn: string,
    private readonly token: TokenCredential,
    readonly series: TDeviceSeries = 'R40',
  ) {
    this.config = structuredClone(CONFIG_DEFAULTS[series]);
    this.address = deviceAddress(token.code, sn);
  }

  /** Connects, subscribes to its downlinks, then says it is online. */
  async connect(): Promise<this> {
    const connection = await connectDevice(this.url, this.sn, this.token, {
      will: {
        topic: upTopic(this.address, 'status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.connection = connection;
    connection.on('message', (topic, payload) => {
      const parsed = parseTopic(topic);
      if (!parsed || parsed.direction !== 'down') return;
      const downlink = {
        kind: parsed.kind,
        id: parsed.id,
        payload: JSON.parse(payload.toString()),
      };
      this.downlinks.push(downlink);
      // A device cut off while it answers loses the answer, as a real one would.
      this.answer(downlink).catch(() => undefined);
    });
    await connection.subscribeAsync(downFilter(this.address), { qos: 1 });
    await connection.publishAsync(
      upTopic(this.address, 'status'),
      JSON.stringify({ online: true, series: this.series, fw: '1.0.0' }),
      { qos: 1, retain: true },
    );
    if (this.reportsAtBoot) {
      await this.publish(upTopic(this.address, 'config/reported'), {
        version: this.version,
        config: this.config,
        result: 'ok',
      });
    }
    return this;
  }

  /** Drops the connection (the broker marks the device offline). */
  async disconnect(): Promise<void> {
    await this.connection?.endAsync(true);
    this.connection = undefined;
  }

  of(kind: Downlink['kind']): Downlink[] {
    return this.downlinks.filter((d) => d.kind === kind);
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    if (!this.connection) throw new Error(`${this.sn} is not connected`);
    await this.connection.publishAsync(topic, JSON.stringify(payload), { qos: 1 });
  }

  private async answer(downlink: Downlink) {
    if (downlink.kind === 'config') return this.applyConfig(downlink.payload as TConfigDownPayload);
    if (downlink.kind === 'rpc' && downlink.id && !this.silentRpc) {
      const request = downlink.payload as TRpcDownPayload;
      await this.publish(upTopic(this.address, 'rpc', downlink.id), this.reply(request));
    }
  }

  /** Takes a configuration its schema accepts; a refusal reports what it kept, its version too. */
  private async applyConfig(down: TConfigDownPayload) {
    if (this.configMode === 'silent') return;
    const config = configAfter(this.config, down);
    const problem =
      this.configMode === 'refuse' ? this.refusal : configProblem(this.series, config);
    if (problem) {
      await this.publish(upTopic(this.address, 'config/reported'), {
        version: this.version,
        config: this.config,
        result: 'error',
        error: problem,
      });
      return;
    }
    this.version = down.version;
    this.config = config;
    await this.publish(upTopic(this.address, 'config/reported'), {
      version: this.version,
      config,
      result: 'ok',
    });
  }

  private reply(request: TRpcDownPayload): TRpcReplyPayload {
    switch (request.method) {
      case 'ping':
        return { ok: true, result: { pong: true, params: request.params ?? null } };
      case 'reboot':
        return { ok: true, result: { rebooting: true } };
      case 'get_config':
        return { ok: true, result: { version: this.version, config: this.config } };
      default:
        return { ok: false, error: `unknown method ${request.method}` };
    }
  }
}
