import {
  MQTT_PAYLOAD_MAX_BYTES,
  TOPIC_ROOT,
  downFilter,
  parseTopic,
  upTopic,
  type TDownKind,
  type TStatusPayload,
  type TTelemetryPayload,
  type TUpKind,
} from '@blrms/contracts';
import type { DeviceModel, Random } from './device-models.js';
import { MqttConnection, type MqttEndpoint } from './mqtt-connection.js';
import type { TimerWheel, WheelTimer } from './timer-wheel.js';

/**
 * One simulated device speaking protocol v1 (docs/device-protocol.md): it logs in with
 * clientId = username = SN and the token key as password, leaves a retained `{"online":false}`
 * last will on `up/status`, announces itself with a retained status, reports telemetry every
 * interval (with the events its model raises), and answers what the platform sends down.
 */

export interface AgentSettings {
  endpoint: MqttEndpoint;
  token: string;
  keepaliveSec: number;
  /** Telemetry period; the fleet may change it while running. */
  intervalMs: number;
  /** Chance, per telemetry interval, that the device drops its connection. */
  churn: number;
  /** Chance, per telemetry interval, that the device sends a bad payload instead. */
  badPayloadRate: number;
  /** After a drop on purpose (churn), the device comes back after a delay in this range. */
  dropReconnectMs: { min: number; max: number };
  /** `blrms/v1` for BLRMS; benchmarks against a shared broker use a root of their own. */
  topicRoot: string;
  random: Random;
}

export interface FleetCounters {
  online: number;
  connecting: number;
  /** Connections accepted (CONNACK 0), reconnects included. */
  connects: number;
  /** CONNACKs with a refusal code. */
  refused: number;
  /** Connections that got no CONNACK in time, or failed before it. */
  connectFailures: number;
  /** Online connections the other side closed. */
  lost: number;
  /** Connections the simulator dropped on purpose (churn, kills). */
  drops: number;
  telemetry: number;
  events: number;
  badPayloads: number;
  /** Downlink messages received. */
  downlinks: number;
  rpcAnswered: number;
  /** Messages not sent because the socket's send buffer was full. */
  sendBufferFull: number;
}

/** What an agent needs from its fleet. */
export interface AgentHost {
  readonly wheel: TimerWheel;
  readonly settings: AgentSettings;
  readonly counters: FleetCounters;
  /** Queues the agent to connect when the fleet's connect rate allows. */
  requestConnect(agent: DeviceAgent): void;
  connected(agent: DeviceAgent, latencyMs: number): void;
  refused(agent: DeviceAgent, returnCode: number): void;
}

export type AgentState = 'idle' | 'connecting' | 'online' | 'stopped';

const CONNECT_TIMEOUT_MS = 30_000;
const BACKOFF_FIRST_MS = 2_000;
const BACKOFF_MAX_MS = 300_000;

/** Down kinds a device handles; issue 5 adds `config` and `ota` here. */
type DownHandler = (agent: DeviceAgent, id: string | undefined, payload: Buffer) => void;
const DOWN_HANDLERS: Partial<Record<TDownKind, DownHandler>> = {
  rpc: (agent, id, payload) => agent.answerRpc(id, payload),
};

/** RPC methods a device answers; the others get `{ok:false}`. */
const RPC_METHODS: Record<string, (params: unknown) => unknown> = {
  ping: () => 'pong',
};

export const BAD_PAYLOAD_KINDS = ['malformed-json', 'oversized', 'schema-invalid'] as const;
const OVERSIZED_PAYLOAD = Buffer.from(
  JSON.stringify({ values: { signal: -70 }, padding: 'x'.repeat(MQTT_PAYLOAD_MAX_BYTES) }),
);

export class DeviceAgent {
  state: AgentState = 'idle';
  private connection: MqttConnection | undefined;
  /** Bumped whenever a connection ends: timers and callbacks of an older one do nothing. */
  private generation = 0;
  private failures = 0;
  private telemetryTimer: WheelTimer | undefined;

  constructor(
    readonly sn: string,
    readonly model: DeviceModel,
    /** The WAN address the device reports in its status. */
    readonly wanIp: string,
    private readonly host: AgentHost,
    private readonly localAddress: string | undefined,
  ) {}

  /** Opens the connection now; the fleet calls this when its connect rate allows. */
  connect(): void {
    if (this.state !== 'idle') return;
    const { settings, counters, wheel } = this.host;
    this.state = 'connecting';
    counters.connecting += 1;
    const generation = ++this.generation;
    const startedAt = performance.now();
    const status = this.topic('status');
    this.connection = new MqttConnection(
      { ...settings.endpoint, ...(this.localAddress ? { localAddress: this.localAddress } : {}) },
      {
        clientId: this.sn,
        username: this.sn,
        password: settings.token,
        keepaliveSec: settings.keepaliveSec,
        will: { topic: status, payload: '{"online":false}', qos: 1, retain: true },
      },
      {
        connack: (code) => {
          if (generation === this.generation) this.connackReceived(code, startedAt);
        },
        message: (topic, payload) => {
          if (generation === this.generation) this.received(topic, payload);
        },
        closed: () => {
          if (generation === this.generation) this.connectionClosed();
        },
      },
    );
    wheel.schedule(CONNECT_TIMEOUT_MS, () => {
      if (generation === this.generation && this.state === 'connecting') this.connection?.destroy();
    });
  }

  /**
   * Drops the connection without a DISCONNECT (the broker sees it lost, and publishes the last
   * will) and comes back after `reconnectAfterMs`. Returns false when the device was not online.
   */
  drop(reconnectAfterMs = this.dropReconnectDelay()): boolean {
    if (this.state !== 'online') return false;
    this.host.counters.drops += 1;
    this.leave();
    this.connection?.destroy();
    this.reconnectAfter(reconnectAfterMs);
    return true;
  }

  /**
   * Goes away for good. An online device first publishes its retained offline status, as the
   * last will would have, so that an external broker's retained state is right too.
   */
  stop(): void {
    if (this.state === 'stopped') return;
    if (this.state === 'online') {
      this.publish(this.topic('status'), '{"online":false}', 1, true);
      this.leave();
      this.connection?.disconnect();
    } else {
      if (this.state === 'connecting') this.host.counters.connecting -= 1;
      this.generation += 1;
      this.connection?.destroy();
    }
    this.state = 'stopped';
  }

  /** Restarts the telemetry cycle at a random phase of the current interval. */
  rescheduleTelemetry(): void {
    if (this.state !== 'online') return;
    this.telemetryTimer?.cancel();
    this.scheduleTelemetry(this.host.settings.random() * this.host.settings.intervalMs);
  }

  answerRpc(id: string | undefined, payload: Buffer): void {
    if (id === undefined) return;
    let reply: { ok: boolean; result?: unknown; error?: string };
    try {
      const request = JSON.parse(payload.toString()) as { method?: unknown; params?: unknown };
      const method = typeof request.method === 'string' ? RPC_METHODS[request.method] : undefined;
      reply = method
        ? { ok: true, result: method(request.params) }
        : { ok: false, error: `unsupported method: ${String(request.method)}` };
    } catch {
      reply = { ok: false, error: 'request is not JSON' };
    }
    if (this.publish(this.topic('rpc', id), JSON.stringify(reply), 1, false))
      this.host.counters.rpcAnswered += 1;
  }

  private connackReceived(code: number, startedAt: number): void {
    const { counters } = this.host;
    counters.connecting -= 1;
    if (code !== 0) {
      counters.refused += 1;
      this.host.refused(this, code);
      this.state = 'idle';
      this.generation += 1;
      this.connection?.destroy();
      this.reconnectAfter(this.backoff());
      return;
    }
    this.state = 'online';
    this.failures = 0;
    counters.online += 1;
    counters.connects += 1;
    this.host.connected(this, performance.now() - startedAt);
    const connection = this.connection;
    if (!connection) return;
    connection.subscribe(this.rooted(downFilter(this.sn)), 1);
    const status: TStatusPayload = {
      online: true,
      series: this.model.series,
      model: this.model.model,
      fw: this.model.firmware,
      ip: this.wanIp,
      signal: this.model.signal(),
    };
    this.publish(this.topic('status'), JSON.stringify(status), 1, true);
    this.scheduleTelemetry(this.host.settings.random() * this.host.settings.intervalMs);
    this.scheduleKeepalive(this.generation);
  }

  private connectionClosed(): void {
    const { counters } = this.host;
    if (this.state === 'connecting') {
      counters.connecting -= 1;
      counters.connectFailures += 1;
    } else if (this.state === 'online') {
      counters.lost += 1;
      this.leave();
    } else {
      return;
    }
    this.state = 'idle';
    this.generation += 1;
    this.reconnectAfter(this.backoff());
  }

  private received(topic: string, payload: Buffer): void {
    const parsed = parseTopic(this.canonical(topic));
    if (!parsed || parsed.direction !== 'down' || parsed.sn !== this.sn) return;
    this.host.counters.downlinks += 1;
    DOWN_HANDLERS[parsed.kind]?.(this, parsed.id, payload);
  }

  /** Online → idle bookkeeping shared by drops, stops and lost connections. */
  private leave(): void {
    this.host.counters.online -= 1;
    this.telemetryTimer?.cancel();
    this.telemetryTimer = undefined;
    this.generation += 1;
    this.state = 'idle';
  }

  private scheduleTelemetry(delayMs: number): void {
    const generation = this.generation;
    this.telemetryTimer = this.host.wheel.schedule(delayMs, () => {
      if (generation !== this.generation) return;
      const { churn, badPayloadRate, intervalMs, random } = this.host.settings;
      if (churn > 0 && random() < churn) {
        this.drop();
        return;
      }
      if (badPayloadRate > 0 && random() < badPayloadRate) this.sendBadPayload();
      else this.report();
      this.scheduleTelemetry(intervalMs);
    });
  }

  private scheduleKeepalive(generation: number): void {
    const periodMs = (this.host.settings.keepaliveSec * 1000) / 2;
    if (periodMs <= 0) return;
    this.host.wheel.schedule(periodMs, () => {
      if (generation !== this.generation || !this.connection) return;
      if (performance.now() - this.connection.lastSentAt >= periodMs) this.connection.ping();
      this.scheduleKeepalive(generation);
    });
  }

  private report(): void {
    const { values, events } = this.model.step();
    const ts = Date.now();
    const telemetry: TTelemetryPayload = { ts, values };
    if (this.publish(this.topic('telemetry'), JSON.stringify(telemetry), 0, false))
      this.host.counters.telemetry += 1;
    for (const event of events) {
      if (this.publish(this.topic('event'), JSON.stringify({ ts, ...event }), 1, false))
        this.host.counters.events += 1;
    }
  }

  private sendBadPayload(): void {
    const { random } = this.host.settings;
    const kind = BAD_PAYLOAD_KINDS[Math.floor(random() * BAD_PAYLOAD_KINDS.length)];
    let sent: boolean;
    if (kind === 'malformed-json') {
      sent = this.publish(this.topic('telemetry'), `{"ts":${Date.now()},"values":{`, 0, false);
    } else if (kind === 'oversized') {
      sent = this.publish(this.topic('telemetry'), OVERSIZED_PAYLOAD, 0, false);
    } else if (random() < 0.5) {
      sent = this.publish(
        this.topic('telemetry'),
        JSON.stringify({ ts: Date.now(), values: { signal: 'strong', '9lives': 1 } }),
        0,
        false,
      );
    } else {
      sent = this.publish(
        this.topic('event'),
        JSON.stringify({ ts: Date.now(), level: 'panic', code: '' }),
        1,
        false,
      );
    }
    if (sent) this.host.counters.badPayloads += 1;
  }

  private publish(topic: string, payload: string | Buffer, qos: 0 | 1, retain: boolean): boolean {
    if (!this.connection) return false;
    if (this.connection.publish(topic, payload, qos, retain)) return true;
    this.host.counters.sendBufferFull += 1;
    return false;
  }

  private reconnectAfter(delayMs: number): void {
    const generation = this.generation;
    this.host.wheel.schedule(delayMs, () => {
      if (generation === this.generation && this.state === 'idle') this.host.requestConnect(this);
    });
  }

  /** Exponential with jitter, so that a fleet refused at once does not come back at once. */
  private backoff(): number {
    this.failures += 1;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.failures - 1));
    return base * (0.5 + this.host.settings.random());
  }

  private dropReconnectDelay(): number {
    const { min, max } = this.host.settings.dropReconnectMs;
    return min + this.host.settings.random() * (max - min);
  }

  private topic(kind: TUpKind, id?: string): string {
    return this.rooted(upTopic(this.sn, kind, id));
  }

  /** A protocol v1 topic (`blrms/v1/...`) under the configured root. */
  private rooted(topic: string): string {
    const root = this.host.settings.topicRoot;
    return root === TOPIC_ROOT ? topic : root + topic.slice(TOPIC_ROOT.length);
  }

  /** A topic under the configured root as protocol v1 names it, for `parseTopic`. */
  private canonical(topic: string): string {
    const root = this.host.settings.topicRoot;
    if (root === TOPIC_ROOT || !topic.startsWith(`${root}/`)) return topic;
    return TOPIC_ROOT + topic.slice(root.length);
  }
}
