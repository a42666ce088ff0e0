import {
  CONFIG_DEFAULTS,
  MQTT_PAYLOAD_MAX_BYTES,
  TOPIC_ROOT,
  ZConfigDownPayload,
  ZOtaDownPayload,
  changedPaths,
  configAfter,
  configProblem,
  deviceAddress,
  downFilter,
  parseTopic,
  upTopic,
  type TConfigReportedPayload,
  type TDeviceConfigObject,
  type TDownKind,
  type TOtaReportPayload,
  type TStatusPayload,
  type TTelemetryPayload,
  type TUpKind,
} from '@blrms/contracts';
import type { DeviceModel, Random } from './device-models.js';
import type { DeviceFaults } from './faults.js';
import { applyProfile, type DeviceProfile } from './telemetry-profile.js';
import { FirmwareDownload, type DownloadSettings } from './firmware-download.js';
import { MqttConnection, type MqttEndpoint } from './mqtt-connection.js';
import type { TimerWheel, WheelTimer } from './timer-wheel.js';

/**
 * One simulated device speaking protocol v1 (docs/device-protocol.md): it logs in with
 * clientId = username = its address `{tokenCode}:{sn}` and the token key as password, leaves a retained `{"online":false}`
 * last will on `up/status`, subscribes to `down/#` and once the broker has confirmed that,
 * announces itself with a retained status (the platform sends pending work when the status
 * arrives) and reports the configuration it runs, reports telemetry every interval (with the events its model raises), and does what
 * the platform sends down: applies or refuses configuration, answers commands, and upgrades its
 * firmware (download with resume, sha256 check, reboot, reconnect with the new version).
 */

export interface AgentSettings {
  /**
   * The brokers: a device starts on one of them and moves to the next when its broker goes away
   * (the connection fails, is lost, or the broker says it is unavailable).
   */
  endpoints: readonly MqttEndpoint[];
  /** The token key (MQTT password). */
  token: string;
  /** The token's public code: a device's address is `{tokenCode}:{sn}`. */
  tokenCode: string;
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
  /** A rebooted device (command or upgrade) reconnects this much later. */
  rebootDelayMs: number;
  downloads: DownloadSettings;
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
  configsApplied: number;
  configsRefused: number;
  /** Restarts: reboot commands and upgrades. */
  reboots: number;
  /** Upgrade jobs taken on (a download started). */
  upgradeJobs: number;
  /** Downloads running now. */
  downloadsActive: number;
  /** Downloads that received the whole announced size. */
  downloads: number;
  /** Firmware bytes received, all downloads together. */
  downloadBytes: number;
  /** Interrupted downloads resumed with a Range request. */
  downloadResumes: number;
  /** Devices that rebooted into a new firmware version. */
  upgrades: number;
  /** Upgrade jobs that ended in `failed` (refused, HTTP error, sha256 mismatch, ...). */
  upgradesFailed: number;
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
/** CONNACK "server unavailable": this broker cannot take the device now, another may. */
const SERVER_UNAVAILABLE = 3;
const BACKOFF_FIRST_MS = 2_000;
const BACKOFF_MAX_MS = 300_000;

/** Down kinds a device handles. */
type DownHandler = (agent: DeviceAgent, id: string | undefined, payload: Buffer) => void;
const DOWN_HANDLERS: Record<TDownKind, DownHandler> = {
  config: (agent, _id, payload) => agent.applyConfig(payload),
  rpc: (agent, id, payload) => agent.answerRpc(id, payload),
  ota: (agent, id, payload) => agent.upgrade(id, payload),
};

/** RPC methods a device answers; the others get `{ok:false, error:'unknown method'}`. */
const RPC_METHODS: Record<string, (agent: DeviceAgent) => unknown> = {
  ping: () => 'pong',
  get_config: (agent) => agent.currentConfig(),
  reboot: (agent) => {
    // The answer goes out first; the restart follows on the next tick.
    agent.host.wheel.schedule(0, () => agent.reboot());
    return 'rebooting';
  },
};

/** Progress of a download is reported in steps of this many percent, not per chunk. */
const PROGRESS_STEP = 10;

/** An upgrade job the device is working on. */
interface UpgradeJob {
  id: string;
  version: string;
  sha256: string;
  download: FirmwareDownload;
  /** Last progress step reported. */
  progress: number;
  /** The last report, sent again when the platform repeats the job. */
  lastReport: TOtaReportPayload;
}

export const BAD_PAYLOAD_KINDS = ['malformed-json', 'oversized', 'schema-invalid'] as const;
const OVERSIZED_PAYLOAD = Buffer.from(
  JSON.stringify({ values: { signal: -70 }, padding: 'x'.repeat(MQTT_PAYLOAD_MAX_BYTES) }),
);

export class DeviceAgent {
  state: AgentState = 'idle';
  /** The online status went out on the current connection (after the `down/#` SUBACK). */
  announced = false;
  /** The configuration the device runs: its series' factory settings until one is applied. */
  config: TDeviceConfigObject;
  configVersion = 0;
  private connection: MqttConnection | undefined;
  /** Bumped whenever a connection ends: timers and callbacks of an older one do nothing. */
  private generation = 0;
  private failures = 0;
  private telemetryTimer: WheelTimer | undefined;
  private job: UpgradeJob | undefined;
  /** An upgrade report made while offline: the latest one is sent after the next status. */
  private unsentReport: { id: string; report: TOtaReportPayload } | undefined;
  /** `{tokenCode}:{sn}`: its client id, username and the level of its topics. */
  readonly address: string;
  /** Curves its telemetry follows instead of the model's values; a test may set or clear it. */
  profile: DeviceProfile | undefined;

  constructor(
    readonly sn: string,
    readonly model: DeviceModel,
    /** The WAN address the device reports in its status. */
    readonly wanIp: string,
    readonly host: AgentHost,
    private readonly localAddress: string | undefined,
    /** The firmware version it runs, reported in `up/status`; an upgrade changes it. */
    public firmware: string = model.firmware,
    /** Its own object: a test may switch one device's fault on without touching the others. */
    readonly faults: DeviceFaults = {},
    /** Index into the settings' endpoints of the broker it connects to first. */
    private broker = 0,
  ) {
    this.config = CONFIG_DEFAULTS[model.series];
    this.address = deviceAddress(host.settings.tokenCode, sn);
  }

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
      { ...this.endpoint, ...(this.localAddress ? { localAddress: this.localAddress } : {}) },
      {
        clientId: this.address,
        username: this.address,
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
        subscribed: () => {
          if (generation === this.generation && this.state === 'online') this.announce();
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

  /** The broker it connects to, or is connected to. */
  get endpoint(): MqttEndpoint {
    const { endpoints } = this.host.settings;
    const endpoint = endpoints[this.broker % endpoints.length];
    if (!endpoint) throw new Error('no broker to connect to');
    return endpoint;
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
    this.abandonUpgrade();
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

  /**
   * Restarts the way a device does after a reboot command or an upgrade: a retained offline
   * status and a DISCONNECT when online, whatever was in progress forgotten, and back after the
   * reboot delay.
   */
  reboot(): void {
    if (this.state === 'stopped') return;
    this.host.counters.reboots += 1;
    this.abandonUpgrade();
    if (this.state === 'online') {
      if (this.announced) this.publish(this.topic('status'), '{"online":false}', 1, true);
      this.leave();
      this.connection?.disconnect();
    } else {
      if (this.state === 'connecting') this.host.counters.connecting -= 1;
      this.state = 'idle';
      this.generation += 1;
      this.connection?.destroy();
    }
    this.reconnectAfter(this.host.settings.rebootDelayMs);
  }

  currentConfig(): { version: number; config: TDeviceConfigObject } {
    return { version: this.configVersion, config: this.config };
  }

  answerRpc(id: string | undefined, payload: Buffer): void {
    if (id === undefined) return;
    let reply: { ok: boolean; result?: unknown; error?: string };
    const request = parseJson(payload) as { method?: unknown } | undefined;
    if (typeof request !== 'object' || request === null) {
      reply = { ok: false, error: 'request is not a JSON object' };
    } else {
      const name = typeof request.method === 'string' ? request.method : '';
      const { ignoreRpc } = this.faults;
      if (ignoreRpc === true || (typeof ignoreRpc === 'object' && ignoreRpc.includes(name))) return;
      const method = Object.hasOwn(RPC_METHODS, name) ? RPC_METHODS[name] : undefined;
      reply = method ? { ok: true, result: method(this) } : { ok: false, error: 'unknown method' };
    }
    if (this.publish(this.topic('rpc', id), JSON.stringify(reply), 1, false))
      this.host.counters.rpcAnswered += 1;
  }

  /**
   * `down/config`: takes the whole configuration, or merges the patch into what it runs, and
   * checks the result as the device's firmware would (its series' schema, then what this device
   * will not take); either runs it or keeps what it had. Either way it reports what it runs now
   * (a refusal with the version it kept).
   */
  applyConfig(payload: Buffer): void {
    const down = ZConfigDownPayload.safeParse(parseJson(payload));
    const config = down.success ? configAfter(this.config, down.data) : this.config;
    const problem = down.success
      ? (configProblem(this.model.series, config) ?? this.refusal(config))
      : `(payload): ${down.error.issues[0]?.message ?? 'invalid'}`;
    if (problem !== null || !down.success) {
      this.host.counters.configsRefused += 1;
      this.reportConfig('error', problem ?? 'invalid');
    } else {
      this.host.counters.configsApplied += 1;
      this.config = config;
      this.configVersion = down.data.version;
      this.reportConfig('ok');
    }
  }

  /** `up/config/reported`: the configuration it runs, and how it took the last one sent. */
  private reportConfig(result: 'ok' | 'error', error?: string): void {
    const report: TConfigReportedPayload = {
      version: this.configVersion,
      config: this.config,
      result,
      ...(error === undefined ? {} : { error }),
    };
    this.publish(this.topic('config/reported'), JSON.stringify(report), 1, false);
  }

  /** `down/ota/{jobId}`: downloads, checks and installs a firmware image, then reboots. */
  upgrade(id: string | undefined, payload: Buffer): void {
    if (id === undefined) return;
    const { counters } = this.host;
    if (this.job) {
      // The platform repeats a job after a reconnect: say where it stands; a second job waits.
      if (this.job.id === id) this.reportUpgrade(id, this.job.lastReport);
      else this.reportUpgrade(id, { state: 'failed', error: 'another upgrade is in progress' });
      return;
    }
    const down = ZOtaDownPayload.safeParse(parseJson(payload));
    const url = down.success ? new URL(down.data.url) : undefined;
    if (!down.success || (url?.protocol !== 'http:' && url?.protocol !== 'https:')) {
      counters.upgradesFailed += 1;
      const issue = down.error?.issues[0];
      this.reportUpgrade(id, {
        state: 'failed',
        error: issue
          ? `invalid request: ${issue.path.join('.') || '(payload)'}: ${issue.message}`
          : 'invalid request: url: must be http or https',
      });
      return;
    }
    if (this.faults.refuseUpgrade) {
      counters.upgradesFailed += 1;
      this.reportUpgrade(id, { state: 'failed', error: 'upgrade refused by device' });
      return;
    }
    const { version, size, sha256 } = down.data;
    counters.upgradeJobs += 1;
    counters.downloadsActive += 1;
    const job: UpgradeJob = {
      id,
      version,
      sha256,
      progress: 0,
      lastReport: { state: 'downloading', progress: 0 },
      download: new FirmwareDownload(
        url,
        size,
        this.host.settings.downloads,
        {
          dropAtHalf: this.faults.dropMidDownload === true,
          corrupt: this.faults.corruptDownload === true,
        },
        this.host.wheel,
        this.localAddress,
        {
          received: (bytes, received) => {
            counters.downloadBytes += bytes;
            const step = Math.floor((received * 100) / size / PROGRESS_STEP) * PROGRESS_STEP;
            if (step > job.progress && step < 100) {
              job.progress = step;
              this.reportUpgrade(id, { state: 'downloading', progress: step });
            }
          },
          resuming: () => {
            counters.downloadResumes += 1;
          },
          completed: (computed) => this.downloaded(job, computed),
          failed: (error) => this.upgradeFailed(job, { state: 'failed', error }),
        },
      ),
    };
    this.job = job;
    this.reportUpgrade(id, job.lastReport);
    job.download.start();
  }

  private connackReceived(code: number, startedAt: number): void {
    const { counters } = this.host;
    counters.connecting -= 1;
    if (code !== 0) {
      counters.refused += 1;
      this.host.refused(this, code);
      if (code === SERVER_UNAVAILABLE) this.nextBroker();
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
    connection.subscribe(this.rooted(downFilter(this.address)), 1);
    this.scheduleKeepalive(this.generation);
  }

  /**
   * The online status, once `down/#` is subscribed: what the platform sends in answer to it
   * (pending configuration, an upgrade whose turn came) cannot be missed.
   */
  private announce(): void {
    if (this.announced) return;
    this.announced = true;
    const status: TStatusPayload = {
      online: true,
      series: this.model.series,
      model: this.model.model,
      fw: this.firmware,
      ip: this.wanIp,
      signal: this.model.signal(),
    };
    this.publish(this.topic('status'), JSON.stringify(status), 1, true);
    // What it runs, so that the platform knows it before it changes any of it.
    this.reportConfig('ok');
    const unsent = this.unsentReport;
    this.unsentReport = undefined;
    if (unsent) this.reportUpgrade(unsent.id, unsent.report);
    this.scheduleTelemetry(this.host.settings.random() * this.host.settings.intervalMs);
  }

  /** A configuration that passed the schema but that this device will not take, as `path: why`. */
  private refusal(config: TDeviceConfigObject): string | null {
    const { rejectConfig } = this.faults;
    if (rejectConfig === true) return '(config): refused by device';
    if (typeof rejectConfig !== 'object') return null;
    for (const changed of changedPaths(this.config, config)) {
      const field = rejectConfig.find(
        (f) => f === changed || changed.startsWith(`${f}.`) || f.startsWith(`${changed}.`),
      );
      if (field !== undefined)
        return `${field.length > changed.length ? field : changed}: not supported by this device`;
    }
    return null;
  }

  private downloaded(job: UpgradeJob, computed: string): void {
    const { counters } = this.host;
    counters.downloadsActive -= 1;
    counters.downloads += 1;
    this.reportUpgrade(job.id, { state: 'downloaded', sha256: computed });
    if (computed !== job.sha256) {
      this.upgradeFailed(
        job,
        { state: 'failed', error: 'sha256 mismatch', sha256: computed },
        false,
      );
      return;
    }
    this.reportUpgrade(job.id, { state: 'verified', sha256: computed });
    this.reportUpgrade(job.id, { state: 'updating' });
    this.job = undefined;
    counters.upgrades += 1;
    this.reboot();
    // The new image is what boots.
    this.firmware = job.version;
  }

  private upgradeFailed(job: UpgradeJob, report: TOtaReportPayload, downloading = true): void {
    if (this.job !== job) return;
    this.job = undefined;
    if (downloading) this.host.counters.downloadsActive -= 1;
    this.host.counters.upgradesFailed += 1;
    this.reportUpgrade(job.id, report);
  }

  /** A rebooting or stopped device forgets the upgrade it was busy with. */
  private abandonUpgrade(): void {
    this.unsentReport = undefined;
    const job = this.job;
    if (!job) return;
    this.job = undefined;
    job.download.cancel();
    this.host.counters.downloadsActive -= 1;
  }

  /** Upgrade reports go out when online; the latest one made offline waits for the next status. */
  private reportUpgrade(id: string, report: TOtaReportPayload): void {
    if (this.job?.id === id) this.job.lastReport = report;
    const sent =
      this.state === 'online' &&
      this.announced &&
      this.publish(this.topic('ota', id), JSON.stringify(report), 1, false);
    if (!sent) this.unsentReport = { id, report };
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
    // The broker went away (or never answered): the next one is tried.
    this.nextBroker();
    this.state = 'idle';
    this.generation += 1;
    this.reconnectAfter(this.backoff());
  }

  private nextBroker(): void {
    this.broker = (this.broker + 1) % this.host.settings.endpoints.length;
  }

  private received(topic: string, payload: Buffer): void {
    const parsed = parseTopic(this.canonical(topic));
    if (!parsed || parsed.direction !== 'down' || parsed.address !== this.address) return;
    this.host.counters.downlinks += 1;
    DOWN_HANDLERS[parsed.kind]?.(this, parsed.id, payload);
  }

  /** Online → idle bookkeeping shared by drops, stops and lost connections. */
  private leave(): void {
    this.host.counters.online -= 1;
    this.announced = false;
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
    if (this.profile) applyProfile(values, this.profile, ts);
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
    return this.rooted(upTopic(this.address, kind, id));
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

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString());
  } catch {
    return undefined;
  }
}
