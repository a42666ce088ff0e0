import { TOPIC_ROOT, type TDeviceSeries } from '@blrms/contracts';
import {
  DeviceAgent,
  type AgentHost,
  type AgentSettings,
  type FleetCounters,
} from './device-agent.js';
import { createDeviceModel, type Random } from './device-models.js';
import { TimerWheel } from './timer-wheel.js';

/**
 * A fleet of simulated devices in one process, sharing one timer wheel. Connections open at a
 * bounded rate (and with a bounded number awaiting their CONNACK), the way a fleet comes back
 * after a broker restart, and each device binds to one of the given source addresses.
 */

export interface FleetOptions {
  /** `mqtt://host:port` (or `tcp://`). */
  url: string;
  token: string;
  count: number;
  /** Series assigned in turn: device 1 the first, device 2 the second, and so on. */
  series: readonly TDeviceSeries[];
  /** SNs are the prefix and a six-digit number: SIM000001, SIM000002, ... */
  prefix: string;
  /** Number of the first device (default 1). */
  firstNumber?: number;
  intervalMs: number;
  keepaliveSec: number;
  churn: number;
  badPayloadRate: number;
  /** Local addresses to bind, in turn; empty: let the system choose. */
  sourceIps: readonly string[];
  /** New connections per second. */
  connectRate: number;
  /** After a churn drop a device returns within this range (default 1–30 s). */
  dropReconnectMs?: { min: number; max: number };
  /** Connections opened but not yet answered; the rest wait (default 2000). */
  maxPendingConnects?: number;
  topicRoot?: string;
  random?: Random;
}

export interface FleetSnapshot extends FleetCounters {
  devices: number;
  /** Devices waiting for their turn to connect. */
  queued: number;
}

export interface FleetHooks {
  connected?(agent: DeviceAgent, latencyMs: number): void;
  refused?(agent: DeviceAgent, returnCode: number): void;
}

const PUMP_MS = 10;

export function parseBrokerUrl(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  if (parsed.protocol !== 'mqtt:' && parsed.protocol !== 'tcp:')
    throw new Error(`unsupported broker URL ${url}: use mqtt://host:port`);
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : 1883 };
}

export function snOf(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(6, '0')}`;
}

export class Fleet implements AgentHost {
  readonly wheel = new TimerWheel(PUMP_MS);
  readonly settings: AgentSettings;
  readonly counters: FleetCounters = {
    online: 0,
    connecting: 0,
    connects: 0,
    refused: 0,
    connectFailures: 0,
    lost: 0,
    drops: 0,
    telemetry: 0,
    events: 0,
    badPayloads: 0,
    downlinks: 0,
    rpcAnswered: 0,
    sendBufferFull: 0,
  };
  readonly agents: DeviceAgent[];
  private queue: DeviceAgent[] = [];
  private queueHead = 0;
  private allowance = 0;
  private lastPump = 0;
  private running = false;
  private readonly maxPending: number;

  constructor(
    private readonly options: FleetOptions,
    private readonly hooks: FleetHooks = {},
  ) {
    const random = options.random ?? Math.random;
    this.settings = {
      endpoint: parseBrokerUrl(options.url),
      token: options.token,
      keepaliveSec: options.keepaliveSec,
      intervalMs: options.intervalMs,
      churn: options.churn,
      badPayloadRate: options.badPayloadRate,
      dropReconnectMs: options.dropReconnectMs ?? { min: 1_000, max: 30_000 },
      topicRoot: options.topicRoot ?? TOPIC_ROOT,
      random,
    };
    this.maxPending = options.maxPendingConnects ?? 2000;
    const first = options.firstNumber ?? 1;
    this.agents = Array.from({ length: options.count }, (_, i) => {
      const n = first + i;
      const series = options.series[i % options.series.length] ?? 'R40';
      const wanIp = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      const sourceIp = options.sourceIps.length
        ? options.sourceIps[i % options.sourceIps.length]
        : undefined;
      return new DeviceAgent(
        snOf(options.prefix, n),
        createDeviceModel(series, random),
        wanIp,
        this,
        sourceIp,
      );
    });
  }

  /** Queues every device to connect and starts the clock. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.wheel.start();
    for (const agent of this.agents) this.requestConnect(agent);
    this.lastPump = performance.now();
    this.pump();
  }

  /**
   * Every device leaves: online ones publish their offline status and disconnect. Resolves once
   * the goodbyes had a moment to reach the socket.
   */
  async stop(): Promise<void> {
    this.running = false;
    for (const agent of this.agents) agent.stop();
    this.queue = [];
    this.queueHead = 0;
    this.wheel.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  /** A new telemetry period for every device, each at a random phase of it. */
  setInterval(intervalMs: number): void {
    this.settings.intervalMs = intervalMs;
    for (const agent of this.agents) agent.rescheduleTelemetry();
  }

  /**
   * Drops `count` online devices at once (destroyed sockets, no DISCONNECT); they come back
   * after `reconnectAfterMs`. Returns each one's SN and the wall-clock time of its drop.
   */
  drop(count: number, reconnectAfterMs: number): { sn: string; at: number }[] {
    const dropped: { sn: string; at: number }[] = [];
    for (const agent of this.agents) {
      if (dropped.length >= count) break;
      if (agent.state !== 'online') continue;
      const at = performance.timeOrigin + performance.now();
      if (agent.drop(reconnectAfterMs)) dropped.push({ sn: agent.sn, at });
    }
    return dropped;
  }

  snapshot(): FleetSnapshot {
    return {
      ...this.counters,
      devices: this.agents.length,
      queued: this.queue.length - this.queueHead,
    };
  }

  requestConnect(agent: DeviceAgent): void {
    if (this.running) this.queue.push(agent);
  }

  connected(agent: DeviceAgent, latencyMs: number): void {
    this.hooks.connected?.(agent, latencyMs);
  }

  refused(agent: DeviceAgent, returnCode: number): void {
    this.hooks.refused?.(agent, returnCode);
  }

  /** Token bucket: `connectRate` per second, at most a tenth of a second's worth at once. */
  private pump(): void {
    if (!this.running) return;
    const now = performance.now();
    const rate = this.options.connectRate;
    this.allowance = Math.min(
      Math.max(1, rate / 10),
      this.allowance + ((now - this.lastPump) / 1000) * rate,
    );
    this.lastPump = now;
    while (
      this.allowance >= 1 &&
      this.queueHead < this.queue.length &&
      this.counters.connecting < this.maxPending
    ) {
      const agent = this.queue[this.queueHead++];
      this.allowance -= 1;
      agent?.connect();
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    this.wheel.schedule(PUMP_MS, () => this.pump());
  }
}
