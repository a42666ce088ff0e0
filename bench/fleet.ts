/**
 * Device fleet on one server node (issue 4, "Measure"): simulated devices (device-sim, in a child
 * process) connect to the built server's embedded broker, on SQLite or a fresh PostgreSQL
 * database, and the same fleet connects to the machine's Mosquitto for comparison.
 *
 *   1. connect storm: every device connects at once (auto-registration of new SNs): connects/s,
 *      and how long until the API shows them all online;
 *   2. hold: the fleet stays connected (telemetry every 60 s, MQTT keepalive pings) while the API's
 *      online count is sampled; server memory per connected device (VmRSS after − before) / N;
 *   3. telemetry storm: every device publishes at a rate that offers `--msg-rate` messages/s;
 *      ingest is what the server stored (rows of `device_telemetry`) per second;
 *   4. disconnect-to-console: a console websocket subscribed to `devices`; `--kill` devices have
 *      their sockets destroyed, and each waits for its `device-status` offline entry (with the
 *      stage `storm-disconnect`, not run by default, the same again during the telemetry storm,
 *      5 s after it begins: what an operator sees of a device leaving while the fleet sends);
 *   5. reconnect storm: the fleet disconnects, then every (now known) device connects again;
 *   6. Mosquitto (127.0.0.1:1883, anonymous): connect storm and telemetry storm of the same fleet,
 *      under a topic root of its own (`blrms-bench/v1`) whose retained messages are cleared after.
 *
 * With `--rules n` (issue 19, alarms) the telemetry storm runs twice: without alarm rules, then
 * with n rules created through the API (`alarm-bench.ts`: a realistic mix, a few firing for 1 % of
 * the fleet), and reports both ingest rates and their ratio; during both storms a few probe devices
 * cross a rule with a 2 s duration, and with the rules each alarm is timed from the message that
 * crossed its duration to its `alarm` message on a console websocket.
 *
 *   npm run bench:fleet                                   # 50,000 devices, 5 min hold, SQLite
 *   npm run bench:fleet -- --devices 2000 --hold 10s      # smoke run
 *   npm run bench:fleet -- --db pg                        # PostgreSQL (a fresh database)
 *   npm run bench:fleet -- --devices 19000 --hold 10s --rules 100 --stages storm   # alarm cost
 *
 * Other flags: --storm 30s (telemetry storm), --msg-rate 40000 (offered messages/s), --kill 1000,
 * --connect-rate 20000 and --pending 500 (the simulator's pace), --source-ips
 * 127.0.0.2-127.0.0.251, --no-mosquitto, --pg-url (where to create the fresh database), --stages
 * (which of hold, storm, storm-disconnect, disconnect, reconnect, mosquitto run after the connect
 * storm; default all but storm-disconnect),
 * --cpu-prof <dir> (a V8 CPU profile of the server during each connect storm and each telemetry
 * storm, written there in the order they run: connect, telemetry…, reconnect), --server-log
 * <file> (the server's log at warn level, written there when the run ends: why a CONNACK was
 * refused, what the telemetry writer shed).
 *
 * Each device holds one socket in the server and one in the simulator: `ulimit -n` must exceed
 * the device count in both (checked below).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WS_TOKEN_PROTOCOL, type TServerMessage } from '@blrms/contracts';
import {
  MqttConnection,
  parseBrokerUrl,
  parseDuration,
  parseSourceIps,
  snOf,
} from '@blrms/device-sim';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { createDatabase, type DatabaseHandle } from '../server/src/platform/db/database.js';
import { createPgDatabase } from './pg-database.js';
import { freePort, startServer, type RunningServer } from '../web/e2e/support/server.js';
import {
  AlarmProbes,
  AlarmSocket,
  FIRING_PROFILE,
  FIRING_SHARE,
  PROBE_RULE,
  benchRules,
  type ProbeLatency,
} from './alarm-bench.js';
import { SimProcess, type ConnectStorm, type SimFleetOptions } from './fleet-sim.js';

const { values: flags } = parseArgs({
  options: {
    devices: { type: 'string', default: '50000' },
    hold: { type: 'string', default: '300s' },
    db: { type: 'string', default: 'sqlite' },
    storm: { type: 'string', default: '30s' },
    'msg-rate': { type: 'string', default: '40000' },
    kill: { type: 'string', default: '1000' },
    'connect-rate': { type: 'string', default: '20000' },
    pending: { type: 'string', default: '500' },
    'source-ips': { type: 'string', default: '127.0.0.2-127.0.0.251' },
    'no-mosquitto': { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    rules: { type: 'string', default: '0' },
    'cpu-prof': { type: 'string' },
    'server-log': { type: 'string' },
    stages: { type: 'string', default: 'hold,storm,disconnect,reconnect,mosquitto' },
  },
});

const DEVICES = Number(flags.devices);
const HOLD_MS = parseDuration('--hold', flags.hold, 0);
const STORM_MS = parseDuration('--storm', flags.storm, 1000);
const MSG_RATE = Number(flags['msg-rate']);
const KILL = Math.min(Number(flags.kill), Math.floor(DEVICES / 2));
const CONNECT_RATE = Number(flags['connect-rate']);
/**
 * Connections awaiting their CONNACK at once. Mosquitto listens with a backlog of 100 and Node
 * with 511: thousands of SYNs at once overflow the accept queue, and the dropped ones retry after
 * a second, which would measure the kernel's retransmission timer rather than the broker.
 */
const PENDING = Number(flags.pending);
const SOURCE_IPS = parseSourceIps(flags['source-ips']);
if (flags.db !== 'sqlite' && flags.db !== 'pg') throw new Error('--db: sqlite or pg');
if (!Number.isInteger(DEVICES) || DEVICES < 10) throw new Error('--devices: at least 10');
const RULES = Number(flags.rules);
if (!Number.isInteger(RULES) || RULES < 0 || RULES > 500)
  throw new Error('--rules: 0 to 500 (a company keeps at most 500 alarm rules)');
const STAGE_NAMES = [
  'hold',
  'storm',
  'storm-disconnect',
  'disconnect',
  'reconnect',
  'mosquitto',
] as const;
type Stage = (typeof STAGE_NAMES)[number];
const STAGES = new Set(flags.stages.split(',').map((s) => s.trim()));
for (const stage of STAGES)
  if (!(STAGE_NAMES as readonly string[]).includes(stage))
    throw new Error(`--stages: "${stage}" is not one of ${STAGE_NAMES.join(', ')}`);
if (flags['no-mosquitto']) STAGES.delete('mosquitto');
const runs = (stage: Stage) => STAGES.has(stage);
if (RULES > 0 && !runs('storm')) throw new Error('--rules: needs the storm stage');
if (runs('storm-disconnect') && (!runs('storm') || RULES > 0))
  throw new Error('--stages: storm-disconnect needs the storm stage, without --rules');
// It begins 5 s into the storm and takes up to 21 s more (1 s to subscribe, 10 batches a second
// apart, 10 s for the last to be seen): a shorter storm would end while it measures.
if (runs('storm-disconnect') && STORM_MS < 30_000)
  throw new Error('--stages: storm-disconnect needs a storm of at least 30 s (--storm)');
/** Probe devices that time alarms (`alarm-bench.ts`). */
const ALARM_PROBES = 10;

/** Telemetry period while connecting and holding: a realistic background load. */
const HOLD_INTERVAL_MS = 60_000;
const KEEPALIVE_SEC = 60;
const KILL_BATCHES = 10;
/** Sockets besides the devices' (database, listeners, logs, the console socket). */
const FD_MARGIN = 512;

const TARGETS = {
  devices: 50_000,
  holdMs: 300_000,
  connectsPerSecond: 2000,
  kbPerDevice: 20,
  messagesPerSecond: 20_000,
  disconnectP99Ms: 1000,
  alarmLatencyMs: 1000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.timeOrigin + performance.now();
const log = (line: string) => process.stdout.write(`[fleet] ${line}\n`);

function openFilesLimit(pid: number | 'self'): number {
  const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
  return Number(/Max open files\s+(\d+)/.exec(limits)?.[1] ?? 0);
}

function mosquittoPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'mosquitto') return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** CPU time (user + system, all threads) a process has used, in ms; /proc counts in 1/100 s. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A connect storm with the CPU the broker's process used during it (NaN when not readable), and
 * for ours the database statements it ran.
 */
type BrokerStorm = ConnectStorm & { brokerCpuMs: number; statements: number };

/** Statements the server has run since it started (`blrms_db_queries_total`). */
async function statementsRun(server: RunningServer): Promise<number> {
  return Number(/^blrms_db_queries_total (\d+)/m.exec(await metricsText(server))?.[1] ?? NaN);
}

async function measuredStorm(
  sim: SimProcess,
  brokerPid: number | undefined,
  server?: RunningServer,
): Promise<BrokerStorm> {
  const statements = server ? await statementsRun(server) : NaN;
  const before = brokerPid === undefined ? NaN : cpuMsOf(brokerPid);
  const storm = await sim.send('storm', { count: DEVICES, timeoutMs: 600_000 });
  const after = brokerPid === undefined ? NaN : cpuMsOf(brokerPid);
  return {
    ...storm,
    brokerCpuMs: after - before,
    statements: server ? (await statementsRun(server)) - statements : NaN,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

// ------------------------------------------------------------------ preflight

const limit = openFilesLimit('self');
if (DEVICES + FD_MARGIN > limit) {
  process.stderr.write(
    `ulimit -n is ${limit}: the server and the simulator each hold one socket per device, so ` +
      `${DEVICES.toLocaleString('en')} devices need ulimit -n ≥ ${(DEVICES + FD_MARGIN).toLocaleString('en')}.\n` +
      `Raise it (ulimit -n ${DEVICES + FD_MARGIN}; the hard limit too, which needs root with ` +
      `CAP_SYS_RESOURCE, or LimitNOFILE in a systemd unit), or run fewer: --devices ${Math.max(10, limit - FD_MARGIN)}.\n`,
  );
  process.exit(2);
}

// ------------------------------------------------------------------ the server under test

interface Session {
  token: string;
  userId: string;
}

async function login(server: RunningServer): Promise<Session> {
  const res = await fetch(`${server.url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
  });
  const body = (await res.json()) as { result: { token: string; userInfo: { id: string } } };
  return { token: body.result.token, userId: body.result.userInfo.id };
}

async function api<T>(
  server: RunningServer,
  session: Session,
  method: string,
  url: string,
  body?: unknown,
) {
  const res = await fetch(`${server.url}/api${url}`, {
    method,
    headers: {
      'x-access-token': session.token,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { success: boolean; message: string; result: T };
  if (!json.success) throw new Error(`${method} ${url}: ${json.message}`);
  return json.result;
}

const onlineInApi = async (server: RunningServer, session: Session) =>
  (
    await api<{ total: number }>(
      server,
      session,
      'GET',
      '/device/device/list?status=online&pageSize=1',
    )
  ).total;

async function waitForOnline(
  server: RunningServer,
  session: Session,
  expected: number,
  timeoutMs: number,
): Promise<{ online: number; ms: number }> {
  const start = performance.now();
  let online = -1;
  while (performance.now() - start < timeoutMs) {
    online = await onlineInApi(server, session);
    if (online === expected) break;
    await sleep(250);
  }
  return { online, ms: performance.now() - start };
}

const METRICS_TOKEN = 'fleet-bench-metrics-token';

/** The telemetry writer's lines of the server's `/metrics`: rows stored, dropped, batches. */
async function metricsText(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return res.text();
}

async function deviceDataMetrics(server: RunningServer): Promise<string> {
  const text = await metricsText(server);
  return text
    .split('\n')
    .filter((line) => line.startsWith('blrms_device_data_'))
    .join('; ');
}

/**
 * Rows stored: telemetry samples, or device events (messages of a storm too, and counted in
 * Mosquitto's figure).
 */
async function rowsOf(
  database: DatabaseHandle,
  table: 'device_telemetry' | 'device_event',
): Promise<number> {
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(table)}`.execute(database.db);
  return Number(rows[0]?.n ?? 0);
}

const telemetryRows = (database: DatabaseHandle) => rowsOf(database, 'device_telemetry');

function fleetOptions(
  url: string,
  token: { code: string; tokenKey: string },
  extra: Partial<SimFleetOptions>,
): SimFleetOptions {
  return {
    url,
    token: token.tokenKey,
    tokenCode: token.code,
    count: DEVICES,
    series: ['R40', 'BL10X', 'S27X'],
    prefix: 'FLEET',
    intervalMs: HOLD_INTERVAL_MS,
    keepaliveSec: KEEPALIVE_SEC,
    churn: 0,
    badPayloadRate: 0,
    sourceIps: SOURCE_IPS,
    connectRate: CONNECT_RATE,
    maxPendingConnects: PENDING,
    // The same curves in every storm, so that the runs without and with rules carry the same load.
    ...(RULES > 0 ? { telemetryProfile: FIRING_PROFILE } : {}),
    ...extra,
  };
}

/** Telemetry period that makes the whole fleet offer `MSG_RATE` messages per second. */
const stormIntervalMs = () => Math.max(10, Math.round((DEVICES / MSG_RATE) * 1000));

interface TelemetryStorm {
  offeredPerSecond: number;
  storedPerSecond: number;
  /** Device events (QoS 1) the fleet sent and the server stored over the same windows. */
  eventsOfferedPerSecond: number;
  eventsStoredPerSecond: number;
  /** Rows stored during the storm and until the backlog drained, per second of that time. */
  drainedPerSecond: number;
  drainMs: number;
  sendBufferFull: number;
}

let serverPid = 0;
/** With `--cpu-prof`: starts the server's CPU profile, or writes it (`cpu-profile.mjs`). */
function profileServer(): void {
  if (flags['cpu-prof'] && serverPid) process.kill(serverPid, 'SIGUSR2');
}

/**
 * `count`: rows in the table; `otherSent`: telemetry messages sent by others than the fleet (the
 * alarm probes), so that the backlog is judged on what was sent in all.
 */
async function telemetryStorm(
  sim: SimProcess,
  database: DatabaseHandle,
  otherSent: () => number = () => 0,
): Promise<TelemetryStorm> {
  const count = () => telemetryRows(database);
  const before = await sim.send('snapshot', {});
  const offeredFrom = performance.now();
  profileServer();
  await sim.send('interval', { ms: stormIntervalMs() });
  // The fleet reaches full rate within one period: the rate stored is taken from there, over the
  // same part of the storm as Mosquitto's figure it is compared with (`runMosquitto`).
  await sleep(stormIntervalMs());
  const rows0 = await count();
  const events0 = await rowsOf(database, 'device_event');
  const t0 = performance.now();
  await sleep(STORM_MS);
  const rows1 = await count();
  const events1 = await rowsOf(database, 'device_event');
  const t1 = performance.now();
  profileServer();
  const after = await sim.send('snapshot', {});
  await sim.send('interval', { ms: HOLD_INTERVAL_MS });
  // The server may still be writing what it received. The database is fresh and this fleet its
  // only writer, so it has caught up when the rows reach what was sent; if it dropped some, when
  // the rows stop growing faster than the background telemetry of the hold.
  const background = DEVICES / (HOLD_INTERVAL_MS / 1000);
  let rows = rows1;
  let drainedAt = t1;
  let quietSeconds = 0;
  while (quietSeconds < 2 && performance.now() - t1 < 300_000) {
    await sleep(1000);
    const next = await count();
    const sent = (await sim.send('snapshot', {})).telemetry + otherSent();
    if (next - rows > 2 * background + 10) {
      drainedAt = performance.now();
      quietSeconds = 0;
    } else {
      quietSeconds += 1;
    }
    rows = next;
    if (sent - rows <= 2 * background + 10) break;
  }
  const seconds = (t1 - t0) / 1000;
  return {
    offeredPerSecond: (after.telemetry - before.telemetry) / ((t1 - offeredFrom) / 1000),
    eventsOfferedPerSecond: (after.events - before.events) / ((t1 - offeredFrom) / 1000),
    eventsStoredPerSecond: (events1 - events0) / seconds,
    storedPerSecond: (rows1 - rows0) / seconds,
    drainedPerSecond: (rows - rows0) / ((drainedAt - t0) / 1000),
    drainMs: drainedAt - t1,
    sendBufferFull: after.sendBufferFull - before.sendBufferFull,
  };
}

interface DisconnectResult {
  killed: number;
  seen: number;
  p50: number;
  p99: number;
  max: number;
}

/** Kills `KILL` devices' sockets in batches and times each one's offline entry on the console. */
async function disconnectToConsole(
  server: RunningServer,
  session: Session,
  sim: SimProcess,
): Promise<DisconnectResult> {
  const socket = new WebSocket(
    `${server.url.replace('http', 'ws')}/api/websocket/${session.userId}`,
    [WS_TOKEN_PROTOCOL, session.token],
  );
  const killedAt = new Map<string, number>();
  const latencies: number[] = [];
  socket.on('message', (data) => {
    const arrived = now();
    const message = JSON.parse(data.toString()) as TServerMessage;
    if (message.type !== 'device-status') return;
    for (const device of message.devices) {
      const at = killedAt.get(device.sn);
      if (at === undefined || device.status !== 'offline') continue;
      latencies.push(arrived - at);
      killedAt.delete(device.sn);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe', channel: 'devices' }));
  await sleep(1000);
  let killed = 0;
  for (let batch = 0; batch < KILL_BATCHES; batch++) {
    const dropped = await sim.send('drop', {
      count: Math.ceil(KILL / KILL_BATCHES),
      // Back well after the measurement, so the reconnect does not mix with it.
      reconnectAfterMs: 120_000,
    });
    for (const { sn, at } of dropped) killedAt.set(sn, at);
    killed += dropped.length;
    await sleep(1000);
  }
  const deadline = performance.now() + 10_000;
  while (killedAt.size > 0 && performance.now() < deadline) await sleep(50);
  socket.terminate();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    killed,
    seen: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
  };
}

interface AlarmRun {
  rules: number;
  /** The same storm once the rules exist. */
  telemetry: TelemetryStorm;
  latency: ProbeLatency;
  /** Alarm changes the console socket received during the storm with rules, by state. */
  changes: { active: number; acknowledged: number; cleared: number };
  /** Open alarms after it (`/alarm/counts`), all severities together. */
  open: number;
  ruleCreateMs: number;
}

interface OurRun {
  database: string;
  storm: BrokerStorm;
  apiOnlineMs: number;
  apiOnline: number;
  rssBeforeKb: number;
  rssAfterKb: number;
  hold?: { minApi: number; minSim: number; ms: number };
  /** Without alarm rules. */
  telemetry?: TelemetryStorm;
  alarms?: AlarmRun;
  disconnect?: DisconnectResult;
  /** Devices disconnected during the telemetry storm. */
  stormDisconnect?: DisconnectResult;
  reconnect?: BrokerStorm;
  rows: number;
}

/**
 * The storm with the probes crossing their rule alongside; without `probeRuleId` (no rules yet)
 * they cross all the same, so both storms carry the same traffic.
 */
async function stormWithProbes(
  sim: SimProcess,
  database: DatabaseHandle,
  probes: AlarmProbes,
  socket: AlarmSocket,
  probeRuleId: string | undefined,
): Promise<{ telemetry: TelemetryStorm; latency: ProbeLatency }> {
  const [telemetry, latency] = await Promise.all([
    telemetryStorm(sim, database, () => probes.sent),
    probes.run(STORM_MS, socket, probeRuleId),
  ]);
  return { telemetry, latency };
}

/** Creates the rules through the API; returns the probes' rule id and how long it took. */
async function createRules(
  server: RunningServer,
  session: Session,
): Promise<{ probeRuleId: string; ms: number }> {
  const started = performance.now();
  const rules = benchRules(RULES);
  for (const rule of rules) await api(server, session, 'POST', '/alarm/rule/add', rule);
  const ms = performance.now() - started;
  const probeRuleName = rules[0]?.name ?? '';
  const page = await api<{ records: { id: string; name: string }[] }>(
    server,
    session,
    'GET',
    `/alarm/rule/list?pageSize=10&name=${encodeURIComponent(probeRuleName)}`,
  );
  const probeRuleId = page.records.find((r) => r.name === probeRuleName)?.id;
  if (!probeRuleId) throw new Error(`rule "${probeRuleName}" not found after creating it`);
  return { probeRuleId, ms };
}

async function openAlarms(server: RunningServer, session: Session): Promise<number> {
  const counts = await api<{ open: Record<string, number> }>(
    server,
    session,
    'GET',
    '/alarm/counts',
  );
  return Object.values(counts.open).reduce((sum, n) => sum + n, 0);
}

async function runOurs(): Promise<OurRun> {
  const pg = flags.db === 'pg' ? await createPgDatabase(flags['pg-url'], 'fleet') : undefined;
  const mqttPort = await freePort();
  const server = await startServer({
    MQTT_PORT: String(mqttPort),
    LOG_LEVEL: 'warn',
    METRICS_TOKEN,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    ...(flags['cpu-prof']
      ? {
          // node refuses --cpu-prof in NODE_OPTIONS: a preload profiles on SIGUSR2 instead.
          NODE_OPTIONS: `--import=${fileURLToPath(new URL('./cpu-profile.mjs', import.meta.url))}`,
          BENCH_CPU_PROF_DIR: path.resolve(flags['cpu-prof']),
        }
      : {}),
  });
  serverPid = server.pid;
  const database = pg
    ? createDatabase({ dialect: 'postgres', url: pg.url })
    : createDatabase({ dialect: 'sqlite', file: path.join(server.dataDir, 'blrms.db') });
  let sim = new SimProcess();
  let probes: AlarmProbes | undefined;
  let socket: AlarmSocket | undefined;
  try {
    const session = await login(server);
    const token = await api<{ code: string; tokenKey: string }>(
      server,
      session,
      'POST',
      '/device/token/add',
      {
        name: 'fleet bench',
        autoRegister: true,
      },
    );
    await sleep(1000);
    const rssBeforeKb = rssKb(server.pid);
    const url = `mqtt://127.0.0.1:${mqttPort}`;

    log(`connect storm: ${DEVICES} new devices → ${url}`);
    await sim.send('start', { options: fleetOptions(url, token, {}) });
    profileServer();
    const storm = await measuredStorm(sim, server.pid, server);
    profileServer();
    log(`${storm.online} online in ${fmt(storm.durationMs)} ms; waiting for the API`);
    const api1 = await waitForOnline(server, session, DEVICES, 120_000);
    await sleep(5000);
    const rssAfterKb = rssKb(server.pid);

    let hold: OurRun['hold'];
    if (runs('hold')) {
      log(`hold ${HOLD_MS / 1000} s`);
      hold = { minApi: api1.online, minSim: storm.online, ms: 0 };
      const holdStart = performance.now();
      while (performance.now() - holdStart < HOLD_MS) {
        await sleep(Math.min(10_000, HOLD_MS));
        hold.minApi = Math.min(hold.minApi, await onlineInApi(server, session));
        hold.minSim = Math.min(hold.minSim, (await sim.send('snapshot', {})).online);
      }
      hold.ms = performance.now() - holdStart;
    }

    let telemetry: TelemetryStorm | undefined;
    let alarms: AlarmRun | undefined;
    if (runs('storm')) log(`before the storms: ${await deviceDataMetrics(server)}`);
    let stormDisconnect: DisconnectResult | undefined;
    if (runs('storm') && RULES === 0) {
      log(`telemetry storm: ${fmt(MSG_RATE)} messages/s offered for ${STORM_MS / 1000} s`);
      const storming = telemetryStorm(sim, database);
      if (runs('storm-disconnect')) {
        await sleep(5000);
        log(`disconnect-to-console during the storm: ${KILL} devices in ${KILL_BATCHES} batches`);
        stormDisconnect = await disconnectToConsole(server, session, sim);
      }
      telemetry = await storming;
    } else if (runs('storm')) {
      socket = new AlarmSocket(server.url, session.userId, session.token);
      await socket.open();
      probes = new AlarmProbes(parseBrokerUrl(url), token, ALARM_PROBES);
      await probes.start();
      await waitForOnline(server, session, DEVICES + ALARM_PROBES, 30_000);
      log(
        `telemetry storm without alarm rules: ${fmt(MSG_RATE)} messages/s offered for ${STORM_MS / 1000} s`,
      );
      telemetry = (await stormWithProbes(sim, database, probes, socket, undefined)).telemetry;
      log(`creating ${RULES} alarm rules`);
      const created = await createRules(server, session);
      await sleep(1000);
      socket.resetCounts();
      log(`telemetry storm with ${RULES} alarm rules`);
      const withRules = await stormWithProbes(sim, database, probes, socket, created.probeRuleId);
      alarms = {
        rules: RULES,
        telemetry: withRules.telemetry,
        latency: withRules.latency,
        changes: { ...socket.changes },
        open: await openAlarms(server, session),
        ruleCreateMs: created.ms,
      };
      probes.stop();
      probes = undefined;
      socket.close();
      socket = undefined;
    }
    if (runs('storm')) log(`after the storms: ${await deviceDataMetrics(server)}`);

    let disconnect: DisconnectResult | undefined;
    if (runs('disconnect')) {
      log(`disconnect-to-console: ${KILL} devices in ${KILL_BATCHES} batches`);
      disconnect = await disconnectToConsole(server, session, sim);
    }

    let reconnect: BrokerStorm | undefined;
    if (runs('reconnect')) {
      log('reconnect storm: the fleet disconnects, then reconnects as known devices');
      await sim.close();
      await waitForOnline(server, session, 0, 120_000);
      sim = new SimProcess();
      await sim.send('start', { options: fleetOptions(url, token, {}) });
      profileServer();
      reconnect = await measuredStorm(sim, server.pid, server);
      profileServer();
    }
    const rows = await telemetryRows(database);
    return {
      database: pg ? 'PostgreSQL' : 'SQLite',
      storm,
      apiOnlineMs: api1.ms,
      apiOnline: api1.online,
      rssBeforeKb,
      rssAfterKb,
      ...(hold ? { hold } : {}),
      ...(telemetry ? { telemetry } : {}),
      ...(alarms ? { alarms } : {}),
      ...(disconnect ? { disconnect } : {}),
      ...(stormDisconnect ? { stormDisconnect } : {}),
      ...(reconnect ? { reconnect } : {}),
      rows,
    };
  } finally {
    probes?.stop();
    socket?.close();
    await sim.close();
    await database.db.destroy();
    if (flags['server-log']) writeFileSync(flags['server-log'], server.output());
    await server.stop();
    await pg?.drop();
  }
}

// ------------------------------------------------------------------ Mosquitto

interface MosquittoRun {
  storm: BrokerStorm;
  offeredPerSecond: number;
  eventsOfferedPerSecond: number;
  receivedPerSecond: number;
}

const BENCH_ROOT = 'blrms-bench/v1';
const MOSQUITTO_URL = 'mqtt://127.0.0.1:1883';

/**
 * A plain client of the bench's own: reads Mosquitto's `$SYS` counters, clears retained topics.
 * Keepalive 0: it sends nothing for minutes, and the broker must not drop it for that.
 */
function benchClient(role: string, onMessage: (topic: string, payload: Buffer) => void = () => {}) {
  let ready: () => void = () => {};
  let gone: () => void = () => {};
  const connected = new Promise<void>((resolve) => (ready = resolve));
  const closed = new Promise<void>((resolve) => (gone = resolve));
  const connection = new MqttConnection(
    { host: '127.0.0.1', port: 1883 },
    {
      clientId: `blrms-bench-${role}-${process.pid}`,
      username: 'bench',
      password: '',
      keepaliveSec: 0,
    },
    {
      connack: (code) =>
        code === 0 ? ready() : log(`Mosquitto refused the bench client (${code})`),
      message: onMessage,
      closed: () => gone(),
    },
  );
  return { connection, connected, closed };
}

/** Mosquitto keeps retained messages (on disk too): takes the bench's statuses away again. */
async function clearRetainedStatuses(prefix: string): Promise<void> {
  const client = benchClient('cleanup');
  await client.connected;
  for (let n = 1; n <= DEVICES;) {
    if (client.connection.publish(`${BENCH_ROOT}/${snOf(prefix, n)}/up/status`, '', 0, true))
      n += 1;
    else await sleep(20);
  }
  client.connection.disconnect();
  await client.closed;
}

async function runMosquitto(): Promise<MosquittoRun> {
  const prefix = `MQ${process.pid}-`;
  const received: { at: number; value: number }[] = [];
  const sys = benchClient('sys', (topic, payload) => {
    if (topic === '$SYS/broker/publish/messages/received')
      received.push({ at: performance.now(), value: Number(payload.toString()) });
  });
  await sys.connected;
  sys.connection.subscribe('$SYS/broker/publish/messages/received', 0);
  const sim = new SimProcess();
  try {
    log(`Mosquitto connect storm: ${DEVICES} devices → ${MOSQUITTO_URL}`);
    await sim.send('start', {
      options: fleetOptions(
        MOSQUITTO_URL,
        { code: 'BENCH', tokenKey: 'anonymous' },
        { prefix, topicRoot: BENCH_ROOT },
      ),
    });
    const storm = await measuredStorm(sim, mosquittoPid());

    log(`Mosquitto telemetry storm (its $SYS counters refresh every 10 s)`);
    const before = await sim.send('snapshot', {});
    const t0 = performance.now();
    await sim.send('interval', { ms: stormIntervalMs() });
    // The fleet reaches full rate within one period; $SYS needs two refreshes inside the storm.
    const stormMs = Math.max(STORM_MS, 25_000);
    await sleep(stormMs);
    const t1 = performance.now();
    const after = await sim.send('snapshot', {});
    await sim.send('interval', { ms: HOLD_INTERVAL_MS });
    const inside = received.filter((r) => r.at > t0 + stormIntervalMs() && r.at <= t1);
    const first = inside[0];
    const last = inside.at(-1);
    const receivedPerSecond =
      first && last && last.at > first.at
        ? (last.value - first.value) / ((last.at - first.at) / 1000)
        : NaN;
    return {
      storm,
      offeredPerSecond: (after.telemetry - before.telemetry) / ((t1 - t0) / 1000),
      eventsOfferedPerSecond: (after.events - before.events) / ((t1 - t0) / 1000),
      receivedPerSecond,
    };
  } finally {
    await sim.close();
    // The devices' offline statuses and wills are in before the clean-up's empty ones.
    await sleep(1000);
    await clearRetainedStatuses(prefix);
    sys.connection.disconnect();
  }
}

// ------------------------------------------------------------------ report

function report(ours: OurRun, mosquitto: MosquittoRun | string) {
  const perDeviceKb = (ours.rssAfterKb - ours.rssBeforeKb) / DEVICES;
  const rate = (storm: ConnectStorm) => (storm.online / storm.durationMs) * 1000;
  const stormLine = (storm: BrokerStorm) =>
    `${fmt(rate(storm))}/s (${fmt(storm.online)} in ${fmt(storm.durationMs / 1000, 1)} s; peak ${fmt(storm.peakPerSecond)} in 1 s; CONNACK p50 ${fmt(storm.latencyP50Ms)} ms, p99 ${fmt(storm.latencyP99Ms)} ms; refused ${storm.refused}, failed ${storm.connectFailures}; broker CPU ${fmt((storm.brokerCpuMs * 1000) / storm.online)} µs a connect${Number.isNaN(storm.statements) ? '' : `, ${fmt(storm.statements / storm.online, 2)} database statements`})`;
  const ingestLine = (t: TelemetryStorm) =>
    `${fmt(t.storedPerSecond)}/s during the storm (offered ${fmt(t.offeredPerSecond)}/s; ${fmt(t.drainedPerSecond)}/s counting ${fmt(t.drainMs)} ms of backlog after it; ${fmt(t.sendBufferFull)} not sent, socket full); events ${fmt(t.eventsStoredPerSecond)}/s stored (offered ${fmt(t.eventsOfferedPerSecond)}/s)`;
  const skipped = (stage: string) => `| ${stage} | skipped (--stages) | | |`;
  const lines = [
    '',
    `${fmt(DEVICES)} devices (R40, BL10X, S27X in turn) from ${SOURCE_IPS.length} source addresses; ${os.cpus().length} cores shared by server, simulator and bench; ${ours.database}; Node ${process.version}.`,
    '',
    `| measure | ${ours.database} | target | |`,
    '|---|---|---|---|',
    `| connect storm, new devices (auto-registration) | ${stormLine(ours.storm)} | ≥ ${fmt(TARGETS.connectsPerSecond)}/s | ${verdict(rate(ours.storm) >= TARGETS.connectsPerSecond && ours.storm.online === DEVICES)} |`,
    `| all online in the API after the storm | ${fmt(ours.apiOnline)} after ${fmt(ours.apiOnlineMs)} ms | | |`,
  ];
  const { hold, telemetry, alarms, disconnect, stormDisconnect, reconnect } = ours;
  if (hold) {
    const held = hold.minApi === DEVICES && hold.minSim === DEVICES;
    lines.push(
      `| held with presence persisted | ${fmt(DEVICES)} for ${fmt(hold.ms / 1000)} s; lowest online count: API ${fmt(hold.minApi)}, simulator ${fmt(hold.minSim)} | ${fmt(TARGETS.devices)} for ${TARGETS.holdMs / 60_000} min | ${verdict(held && DEVICES >= TARGETS.devices && hold.ms >= TARGETS.holdMs)} |`,
    );
  } else {
    lines.push(skipped('held with presence persisted'));
  }
  lines.push(
    `| server memory per connected device | ${fmt(perDeviceKb, 1)} KB (RSS ${fmt(ours.rssBeforeKb / 1024)} → ${fmt(ours.rssAfterKb / 1024)} MB) | ≤ ${TARGETS.kbPerDevice} KB | ${verdict(perDeviceKb <= TARGETS.kbPerDevice)} |`,
  );
  if (telemetry) {
    lines.push(
      `| uplink ingest (telemetry rows stored)${alarms ? ', no alarm rules' : ''} | ${ingestLine(telemetry)} | ≥ ${fmt(TARGETS.messagesPerSecond)}/s | ${verdict(telemetry.storedPerSecond >= TARGETS.messagesPerSecond)} |`,
    );
  } else {
    lines.push(skipped('uplink ingest (telemetry rows stored)'));
  }
  if (alarms && telemetry) {
    const { latency } = alarms;
    const sorted = [...latency.samples].sort((a, b) => a - b);
    const max = sorted.at(-1) ?? NaN;
    const ratio = alarms.telemetry.storedPerSecond / telemetry.storedPerSecond;
    lines.push(
      `| uplink ingest with ${alarms.rules} alarm rules | ${ingestLine(alarms.telemetry)}; with/without ${fmt(ratio, 2)} | ≥ ${fmt(TARGETS.messagesPerSecond)}/s | ${verdict(alarms.telemetry.storedPerSecond >= TARGETS.messagesPerSecond)} |`,
      `| alarm latency (message crossing a ${PROBE_RULE.durationSec} s duration → \`alarm\` on the console socket) | ${sorted.length} / ${latency.crossings} crossings of ${ALARM_PROBES} probes; p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms, max ${fmt(max)} ms; ${latency.missed} missed | every one ≤ ${TARGETS.alarmLatencyMs} ms | ${verdict(latency.missed === 0 && sorted.length > 0 && max <= TARGETS.alarmLatencyMs)} |`,
      `| alarm changes during the storm with rules | raised or repeated ${fmt(alarms.changes.active)}, cleared ${fmt(alarms.changes.cleared)} (console socket); ${fmt(alarms.open)} open after it; ${Math.ceil(FIRING_SHARE * DEVICES)} devices follow the firing profile; rules created in ${fmt(alarms.ruleCreateMs)} ms | | |`,
    );
  }
  const disconnectLine = (label: string, d: DisconnectResult) =>
    `| ${label} | ${d.seen} / ${d.killed} seen; p50 ${fmt(d.p50)} ms, p99 ${fmt(d.p99)} ms, max ${fmt(d.max)} ms | p99 ≤ ${TARGETS.disconnectP99Ms} ms | ${verdict(d.seen === d.killed && d.p99 <= TARGETS.disconnectP99Ms)} |`;
  if (stormDisconnect) {
    lines.push(disconnectLine('disconnect-to-console during the telemetry storm', stormDisconnect));
  }
  if (disconnect) {
    lines.push(disconnectLine('disconnect-to-console', disconnect));
  } else {
    lines.push(skipped('disconnect-to-console'));
  }
  if (reconnect) {
    lines.push(
      `| reconnect storm, known devices | ${stormLine(reconnect)} | ≥ ${fmt(TARGETS.connectsPerSecond)}/s | ${verdict(rate(reconnect) >= TARGETS.connectsPerSecond && reconnect.online === DEVICES)} |`,
    );
  } else {
    lines.push(skipped('reconnect storm, known devices'));
  }
  if (typeof mosquitto === 'string') {
    lines.push(`| Mosquitto comparison | ${mosquitto} | | |`);
  } else {
    const versus = (storm: ConnectStorm | undefined) =>
      storm ? fmt(rate(storm) / rate(mosquitto.storm), 2) : 'n/a';
    lines.push(
      `| Mosquitto connect storm | ${stormLine(mosquitto.storm)}; ours/Mosquitto: new ${versus(ours.storm)}, known ${versus(reconnect)} | | |`,
      `| Mosquitto messages received | ${fmt(mosquitto.receivedPerSecond)}/s ($SYS; offered ${fmt(mosquitto.offeredPerSecond)}/s telemetry and ${fmt(mosquitto.eventsOfferedPerSecond)}/s events); ours stored (telemetry and events)/Mosquitto received: ${telemetry ? fmt((telemetry.storedPerSecond + telemetry.eventsStoredPerSecond) / mosquitto.receivedPerSecond, 2) : 'n/a'} | | |`,
    );
  }
  lines.push('', `Telemetry rows at the end: ${fmt(ours.rows)}.`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

const ours = await runOurs();
let mosquitto: MosquittoRun | string;
const mqPid = mosquittoPid();
if (!runs('mosquitto'))
  mosquitto = flags['no-mosquitto'] ? 'skipped (--no-mosquitto)' : 'skipped (--stages)';
else if (mqPid === undefined) mosquitto = 'skipped: no mosquitto process on this machine';
else if (openFilesLimit(mqPid) < DEVICES + 64)
  mosquitto = `skipped: Mosquitto's open-file limit (${openFilesLimit(mqPid)}) is below the fleet`;
else mosquitto = await runMosquitto();
report(ours, mosquitto);
process.exit(0);
