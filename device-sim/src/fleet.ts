import http from 'node:http';
import https from 'node:https';
import { TOPIC_ROOT, type TDeviceSeries } from '@blrms/contracts';
import {
  DeviceAgent,
  type AgentHost,
  type AgentSettings,
  type FleetCounters,
} from './device-agent.js';
import { createDeviceModel, type Random } from './device-models.js';
import { assignFaults, type DeviceFaults, type FaultAmounts } from './faults.js';
import { assignProfile, type DeviceProfile, type TelemetryProfile } from './telemetry-profile.js';
import { TimerWheel } from './timer-wheel.js';

/**
 * A fleet of simulated devices in one process, sharing one timer wheel. Connections open at a
 * bounded rate (and with a bounded number awaiting their CONNACK), the way a fleet comes back
 * after a broker restart, and each device binds to one of the given source addresses.
 */

/** A device of the fleet named exactly, e.g. one a test registered with the platform. */
export interface DeviceSpec {
  sn: string;
  series: TDeviceSeries;
  /** The firmware version it starts with (default: its model's). */
  fw?: string;
  faults?: DeviceFaults;
}

export interface FleetOptions {
  /**
   * `mqtt://host:port` (or `tcp://`), or several brokers: the devices are spread over them in
   * turn, and a device whose broker goes away moves to the next one.
   */
  url: string | readonly string[];
  /** The token key the devices log in with. */
  token: string;
  /** The token's public code (Token Key page): each device's address is `{tokenCode}:{sn}`. */
  tokenCode: string;
  /** Numbered devices (SNs from `prefix`); the `devices` listed come on top of them. */
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
  /** Devices named exactly, after the `count` numbered ones. */
  devices?: readonly DeviceSpec[];
  /** The firmware version the numbered devices start with (default: their model's). */
  firmware?: string;
  /** Faults spread over the whole fleet, by kind: a count, or a share between 0 and 1. */
  faults?: FaultAmounts;
  /** Faults of particular devices, by SN, on top of `faults` and each spec's own. */
  faultsBySn?: Readonly<Record<string, DeviceFaults>>;
  /** A rebooted device (command or upgrade) comes back this much later (default 2 s). */
  rebootDelayMs?: number;
  /** Telemetry values that follow curves instead of the models, on some or all devices. */
  telemetryProfile?: TelemetryProfile;
  /** Wait before resuming an interrupted firmware download (default 1 s). */
  downloadRetryMs?: number;
  /**
   * Firmware downloads holding a socket at once, per server and source address (default 1000);
   * more wait their turn. The platform's own limit (a campaign's max concurrent) normally
   * bounds them first.
   */
  maxDownloads?: number;
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
    configsApplied: 0,
    configsRefused: 0,
    reboots: 0,
    upgradeJobs: 0,
    downloadsActive: 0,
    downloads: 0,
    downloadBytes: 0,
    downloadResumes: 0,
    upgrades: 0,
    upgradesFailed: 0,
  };
  readonly agents: DeviceAgent[];
  private readonly bySn = new Map<string, DeviceAgent>();
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
    // Keep-alive off: a device opens one connection per download, and a closed socket is freed
    // at once instead of idling in a pool of thousands.
    const maxSockets = options.maxDownloads ?? 1000;
    this.settings = {
      endpoints: (typeof options.url === 'string' ? [options.url] : options.url).map(
        parseBrokerUrl,
      ),
      token: options.token,
      tokenCode: options.tokenCode,
      keepaliveSec: options.keepaliveSec,
      intervalMs: options.intervalMs,
      churn: options.churn,
      badPayloadRate: options.badPayloadRate,
      dropReconnectMs: options.dropReconnectMs ?? { min: 1_000, max: 30_000 },
      topicRoot: options.topicRoot ?? TOPIC_ROOT,
      random,
      rebootDelayMs: options.rebootDelayMs ?? 2_000,
      downloads: {
        httpAgent: new http.Agent({ keepAlive: false, maxSockets }),
        httpsAgent: new https.Agent({ keepAlive: false, maxSockets }),
        retryMs: options.downloadRetryMs ?? 1_000,
        maxAttempts: 5,
        idleTimeoutMs: 30_000,
      },
    };
    if (this.settings.endpoints.length === 0) throw new Error('no broker URL given');
    this.maxPending = options.maxPendingConnects ?? 2000;
    const first = options.firstNumber ?? 1;
    const specs: DeviceSpec[] = Array.from({ length: options.count }, (_, i) => ({
      sn: snOf(options.prefix, first + i),
      series: options.series[i % options.series.length] ?? 'R40',
      ...(options.firmware ? { fw: options.firmware } : {}),
    }));
    specs.push(...(options.devices ?? []));
    const spread = assignFaults(specs.length, options.faults ?? {});
    const profile = options.telemetryProfile;
    const followers = profile ? assignProfile(specs.length, profile) : new Map<number, number>();
    const startedAt = profile?.startedAt ?? Date.now();
    this.agents = specs.map((spec, i) => {
      const n = first + i;
      const wanIp = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      const sourceIp = options.sourceIps.length
        ? options.sourceIps[i % options.sourceIps.length]
        : undefined;
      const model = createDeviceModel(spec.series, random);
      const faults = { ...spread.get(i), ...spec.faults, ...options.faultsBySn?.[spec.sn] };
      const agent = new DeviceAgent(
        spec.sn,
        model,
        wanIp,
        this,
        sourceIp,
        spec.fw ?? model.firmware,
        Object.keys(faults).length ? faults : undefined,
        i % this.settings.endpoints.length,
      );
      const phase = followers.get(i);
      if (profile && phase !== undefined)
        agent.profile = { curves: profile.curves, startedAt, phase } satisfies DeviceProfile;
      this.bySn.set(spec.sn, agent);
      return agent;
    });
  }

  /** The device with this SN, if the fleet has it. */
  agent(sn: string): DeviceAgent | undefined {
    return this.bySn.get(sn);
  }

  /** The devices that were given faults, with them. */
  faulty(): { sn: string; faults: DeviceFaults }[] {
    return this.agents
      .filter((agent) => Object.keys(agent.faults).length > 0)
      .map((agent) => ({ sn: agent.sn, faults: agent.faults }));
  }

  /** The devices that follow the telemetry profile, in fleet order. */
  profiled(): DeviceAgent[] {
    return this.agents.filter((agent) => agent.profile !== undefined);
  }

  /**
   * Resolves once every device is online and has announced itself (its status went out after its
   * `down/#` subscription was confirmed), so that what is sent down to it from now on arrives.
   */
  async whenOnline(timeoutMs = 30_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!this.agents.every((agent) => agent.announced)) {
      if (performance.now() > deadline)
        throw new Error(
          `devices not online after ${timeoutMs} ms: ${this.agents
            .filter((agent) => !agent.announced)
            .slice(0, 5)
            .map((agent) => agent.sn)
            .join(', ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
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
    this.settings.downloads.httpAgent.destroy();
    this.settings.downloads.httpsAgent.destroy();
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

export type StartFleetOptions = Pick<FleetOptions, 'url' | 'token' | 'tokenCode'> &
  Partial<FleetOptions>;

/**
 * A fleet for tests and scripts: the devices listed (and `count` numbered ones, default none),
 * telemetry every minute, no churn; resolves once every device is online and announced.
 *
 *     const fleet = await startFleet({ url, token, tokenCode, devices: [{ sn: 'D1', series: 'R40' }] });
 */
export async function startFleet(options: StartFleetOptions): Promise<Fleet> {
  const fleet = new Fleet({
    count: 0,
    series: ['R40', 'BL10X', 'S27X'],
    prefix: 'SIM',
    intervalMs: 60_000,
    keepaliveSec: 60,
    churn: 0,
    badPayloadRate: 0,
    sourceIps: [],
    connectRate: 1000,
    ...options,
  });
  fleet.start();
  try {
    await fleet.whenOnline();
  } catch (error) {
    await fleet.stop();
    throw error;
  }
  return fleet;
}
