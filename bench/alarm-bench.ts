import {
  WS_TOKEN_PROTOCOL,
  deviceAddress,
  upTopic,
  type TAlarm,
  type TAlarmRuleFormInput,
  type TDeviceSeries,
  type TServerMessage,
  type TTelemetryPayload,
} from '@blrms/contracts';
import { MqttConnection, type TelemetryProfile } from '@blrms/device-sim';
import WebSocket from 'ws';

/**
 * The alarm part of `bench/fleet.ts` (issue 19): the rules it creates, the telemetry profile that
 * makes a few of them fire, and the probe devices that time how long an alarm takes to reach the
 * console once its duration has passed.
 */

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Key, threshold and duration of the rule the probes cross: no model sends ain2 above 10. */
export const PROBE_RULE = { key: 'ain2', threshold: 50, durationSec: 2 } as const;
const PROBE_LOW = 5;
const PROBE_HIGH = 60;
/** Probes publish this often, so the message that crosses the duration follows it closely. */
const PROBE_PERIOD_MS = 100;
/** Below the threshold this long before each crossing, and the wait for the clear after it. */
const PROBE_LOW_MS = 1000;
const PROBE_CLEAR_WAIT_MS = 5000;
/** A crossing whose alarm has not come this long after its duration counts as missed. */
const PROBE_GIVE_UP_MS = 10_000;

/**
 * The share of the fleet whose `ain1` follows a square wave across the firing rules' thresholds:
 * 10 for 10 s, then 25 for 10 s, each follower at its own phase (S27X devices send ain1 between
 * 4 and 20; the others get the key from the profile).
 */
export const FIRING_SHARE = 0.01;
export const FIRING_PROFILE: TelemetryProfile = {
  curves: [{ key: 'ain1', shape: 'square', from: 10, to: 25, periodMs: 20_000, decimals: 0 }],
  devices: FIRING_SHARE,
  phase: 'spread',
};

const SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
const DURATIONS_SEC = [0, 10, 60, 300];
type Scope = TAlarmRuleFormInput['scope'];
const ALL: Scope = { kind: 'all' };
const series = (name: TDeviceSeries): Scope => ({ kind: 'series', series: name });

/** Conditions the models never meet (their values stay well inside these bounds). */
const QUIET: { scope: Scope; condition: TAlarmRuleFormInput['condition'] }[] = [
  {
    scope: ALL,
    condition: { type: 'telemetry', key: 'signal', operator: 'below', threshold: -130 },
  },
  {
    scope: ALL,
    condition: { type: 'telemetry', key: 'signal', operator: 'above', threshold: -20 },
  },
  {
    scope: ALL,
    condition: { type: 'telemetry', key: 'signal', operator: 'outside', low: -140, high: 0 },
  },
  {
    scope: series('R40'),
    condition: { type: 'telemetry', key: 'rsrp', operator: 'below', threshold: -145 },
  },
  {
    scope: series('R40'),
    condition: { type: 'telemetry', key: 'sinr', operator: 'above', threshold: 35 },
  },
  {
    scope: series('R40'),
    condition: { type: 'telemetry', key: 'wan_up', operator: 'below', threshold: 0 },
  },
  {
    scope: series('R40'),
    condition: { type: 'telemetry', key: 'tx_bytes', operator: 'above', threshold: 1e15 },
  },
  {
    scope: series('BL10X'),
    condition: { type: 'telemetry', key: 'modbus_fail', operator: 'above', threshold: 1e9 },
  },
  {
    scope: series('BL10X'),
    condition: { type: 'telemetry', key: 'reg_40001', operator: 'above', threshold: 60 },
  },
  {
    scope: series('BL10X'),
    condition: { type: 'telemetry', key: 'reg_40002', operator: 'outside', low: 0.5, high: 1.5 },
  },
  {
    scope: series('S27X'),
    condition: { type: 'telemetry', key: 'ain1', operator: 'above', threshold: 30 },
  },
  {
    scope: series('S27X'),
    condition: { type: 'telemetry', key: 'ain2', operator: 'below', threshold: -1 },
  },
  {
    scope: series('S27X'),
    condition: { type: 'telemetry', key: 'di1', operator: 'above', threshold: 1 },
  },
  { scope: ALL, condition: { type: 'telemetry', key: 'do1', operator: 'below', threshold: 0 } },
  { scope: ALL, condition: { type: 'telemetry', key: 'sinr', operator: 'below', threshold: -30 } },
];

/**
 * `n` rules (at most 500, a company's limit), always in this order: the probes' rule; two that fire
 * for the devices following `FIRING_PROFILE`; two event rules that do not fire (the models' events
 * come many times a second per device in a storm, so one that matched them would put a large
 * share of the fleet in alarm instead of a few devices); two offline rules; then telemetry rules
 * that never fire, over every key the models send, with durations of 0 s to 5 min and scopes all
 * or one series.
 */
export function benchRules(n: number): TAlarmRuleFormInput[] {
  const special: Omit<TAlarmRuleFormInput, 'severity'>[] = [
    {
      name: 'bench probe: ain2 above 50 for 2 s',
      scope: ALL,
      condition: { type: 'telemetry', operator: 'above', ...PROBE_RULE },
    },
    {
      name: 'bench firing: ain1 above 22 for 5 s',
      scope: ALL,
      condition: {
        type: 'telemetry',
        key: 'ain1',
        operator: 'above',
        threshold: 22,
        durationSec: 5,
      },
    },
    {
      name: 'bench firing: ain1 outside 2–22 for 8 s (S27X)',
      scope: series('S27X'),
      condition: {
        type: 'telemetry',
        key: 'ain1',
        operator: 'outside',
        low: 2,
        high: 22,
        durationSec: 8,
      },
    },
    {
      // R40s send signal_weak at level warn: the code is looked up on every event, never matched.
      name: 'bench event: signal_weak at alarm level (R40)',
      scope: series('R40'),
      condition: { type: 'event', code: 'signal_weak', level: 'alarm' },
    },
    {
      name: 'bench event: power failure',
      scope: ALL,
      condition: { type: 'event', code: 'power_fail', level: 'alarm' },
    },
    { name: 'bench offline 5 min', scope: ALL, condition: { type: 'offline', minutes: 5 } },
    {
      name: 'bench offline 1 h (BL10X)',
      scope: series('BL10X'),
      condition: { type: 'offline', minutes: 60 },
    },
  ];
  return Array.from({ length: Math.min(n, 500) }, (_, i) => {
    const severity = SEVERITIES[i % SEVERITIES.length] ?? 'warning';
    const fixed = special[i];
    if (fixed) return { ...fixed, severity };
    const quiet = QUIET[i % QUIET.length];
    const durationSec = DURATIONS_SEC[Math.floor(i / QUIET.length) % DURATIONS_SEC.length] ?? 0;
    const condition =
      quiet?.condition.type === 'telemetry'
        ? { ...quiet.condition, durationSec }
        : quiet?.condition;
    if (!quiet || !condition) throw new Error('no quiet rule');
    return { name: `bench quiet ${i}`, severity, scope: quiet.scope, condition };
  });
}

/** Alarm changes the console socket received, by state, and each one's arrival time. */
export class AlarmSocket {
  readonly changes = { active: 0, acknowledged: 0, cleared: 0 };
  private readonly socket: WebSocket;
  private listeners: ((alarm: TAlarm, at: number) => void)[] = [];

  constructor(baseUrl: string, userId: string, token: string) {
    this.socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/websocket/${userId}`, [
      WS_TOKEN_PROTOCOL,
      token,
    ]);
    this.socket.on('message', (data) => {
      const at = now();
      const message = JSON.parse(data.toString()) as TServerMessage;
      if (message.type !== 'alarm') return;
      this.changes[message.alarm.state] += 1;
      for (const listener of this.listeners) listener(message.alarm, at);
    });
  }

  async open(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.send(JSON.stringify({ type: 'subscribe', channel: 'alarms' }));
  }

  listen(listener: (alarm: TAlarm, at: number) => void): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }

  resetCounts(): void {
    this.changes.active = 0;
    this.changes.acknowledged = 0;
    this.changes.cleared = 0;
  }

  close(): void {
    this.socket.terminate();
  }
}

interface Probe {
  sn: string;
  connection: MqttConnection;
  topic: string;
  high: boolean;
  /** Send time of the first message above the threshold of the current crossing. */
  firstHighAt: number | undefined;
  /** Send time of the first message at or after `firstHighAt` + the duration. */
  crossedAt: number | undefined;
  /** The alarm its last crossing raised: a change of it is not the next crossing's raise. */
  alarmId: string | undefined;
}

export interface ProbeLatency {
  crossings: number;
  /** Alarms seen, each timed from the message that crossed its duration. */
  samples: number[];
  missed: number;
}

/**
 * A few S27X devices of the bench's own, in this process: each publishes every 100 ms, and in turn
 * stays below the probe rule's threshold for 1 s, then above it until its alarm arrives on the
 * console socket (or 10 s past the duration: missed), then below it again until the alarm clears.
 * An alarm's latency runs from the send time of the first message at or after the first one above
 * the threshold plus the rule's duration (the message that crosses the duration; from the duration
 * itself when the alarm came first) to the alarm's arrival on the socket.
 */
export class AlarmProbes {
  /** Telemetry messages the probes sent. */
  sent = 0;
  private readonly probes: Probe[] = [];
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly mqtt: { host: string; port: number },
    private readonly token: { code: string; tokenKey: string },
    private readonly count: number,
  ) {}

  /** Connects and announces the probes (auto-registration makes them devices of the token). */
  async start(): Promise<string[]> {
    await Promise.all(
      Array.from({ length: this.count }, (_, i) => {
        const sn = `ALARMPROBE${String(i + 1).padStart(3, '0')}`;
        const address = deviceAddress(this.token.code, sn);
        return new Promise<void>((resolve, reject) => {
          const connection = new MqttConnection(
            this.mqtt,
            {
              clientId: address,
              username: address,
              password: this.token.tokenKey,
              keepaliveSec: 60,
            },
            {
              connack: (code) => {
                if (code !== 0) return reject(new Error(`probe ${sn} refused (${code})`));
                connection.publish(
                  upTopic(address, 'status'),
                  JSON.stringify({ online: true, series: 'S27X', model: 'S275', fw: '3.0.2' }),
                  1,
                  true,
                );
                this.probes.push({
                  sn,
                  connection,
                  topic: upTopic(address, 'telemetry'),
                  high: false,
                  firstHighAt: undefined,
                  crossedAt: undefined,
                  alarmId: undefined,
                });
                resolve();
              },
              message: () => {},
              closed: (error) => {
                if (error) reject(error);
              },
            },
          );
        });
      }),
    );
    this.ticker = setInterval(() => this.tick(), PROBE_PERIOD_MS);
    return this.probes.map((p) => p.sn);
  }

  private tick(): void {
    const durationMs = PROBE_RULE.durationSec * 1000;
    for (const probe of this.probes) {
      const ts = now();
      const payload: TTelemetryPayload = {
        ts: Math.round(ts),
        values: { [PROBE_RULE.key]: probe.high ? PROBE_HIGH : PROBE_LOW },
      };
      if (!probe.connection.publish(probe.topic, JSON.stringify(payload), 0, false)) continue;
      this.sent += 1;
      if (!probe.high) continue;
      probe.firstHighAt ??= ts;
      if (probe.crossedAt === undefined && ts >= probe.firstHighAt + durationMs)
        probe.crossedAt = ts;
    }
  }

  /**
   * Runs crossings for `ms`, the probes starting a spread apart; with `ruleId`, waits for each
   * crossing's alarm and times it, without one just crosses (the same traffic, no alarms).
   */
  async run(ms: number, socket: AlarmSocket, ruleId: string | undefined): Promise<ProbeLatency> {
    const result: ProbeLatency = { crossings: 0, samples: [], missed: 0 };
    const end = now() + ms;
    const durationMs = PROBE_RULE.durationSec * 1000;
    const waiters = new Map<string, (alarm: TAlarm, at: number) => void>();
    const stop = socket.listen((alarm, at) => {
      if (alarm.ruleId === ruleId) waiters.get(alarm.sn)?.(alarm, at);
    });
    /** The next change of this probe's alarm that `accept` takes, or undefined at `deadline`. */
    const next = (probe: Probe, deadline: number, accept: (alarm: TAlarm) => boolean) =>
      new Promise<{ alarm: TAlarm; at: number } | undefined>((resolve) => {
        const timer = setTimeout(() => done(undefined), Math.max(0, deadline - now()));
        const done = (value: { alarm: TAlarm; at: number } | undefined) => {
          clearTimeout(timer);
          waiters.delete(probe.sn);
          resolve(value);
        };
        waiters.set(probe.sn, (alarm, at) => {
          if (accept(alarm)) done({ alarm, at });
        });
      });
    const cycle = async (probe: Probe, offsetMs: number) => {
      await sleep(offsetMs);
      while (now() + PROBE_LOW_MS + durationMs < end) {
        await sleep(PROBE_LOW_MS);
        probe.firstHighAt = undefined;
        probe.crossedAt = undefined;
        probe.high = true;
        result.crossings += 1;
        if (ruleId === undefined) {
          await sleep(durationMs + 1000);
          probe.high = false;
          continue;
        }
        const raised = await next(
          probe,
          now() + durationMs + PROBE_GIVE_UP_MS,
          (alarm) => alarm.state === 'active' && alarm.id !== probe.alarmId,
        );
        probe.high = false;
        if (!raised || probe.firstHighAt === undefined) {
          result.missed += 1;
        } else {
          const due = probe.firstHighAt + durationMs;
          const { crossedAt } = probe;
          result.samples.push(
            raised.at - (crossedAt !== undefined && crossedAt <= raised.at ? crossedAt : due),
          );
          probe.alarmId = raised.alarm.id;
          await next(
            probe,
            now() + PROBE_CLEAR_WAIT_MS,
            (alarm) => alarm.id === raised.alarm.id && alarm.state === 'cleared',
          );
        }
      }
    };
    try {
      const spread = (PROBE_LOW_MS + durationMs) / Math.max(1, this.probes.length);
      await Promise.all(this.probes.map((probe, i) => cycle(probe, i * spread)));
    } finally {
      stop();
    }
    return result;
  }

  stop(): void {
    clearInterval(this.ticker);
    for (const probe of this.probes) probe.connection.disconnect();
  }
}
