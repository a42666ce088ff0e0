/**
 * Upgrade campaign over a simulated fleet (issue 5, "Measure"): the built server with its
 * embedded broker (SQLite, or a fresh PostgreSQL database with --db pg), and device-sim devices in
 * a child process that connect, receive `down/ota`, download the firmware over HTTP from the
 * server's signed URL (Range resume after a cut), check its sha256, "reboot" and reconnect with the
 * new version. A few devices are faulty: a corrupt download, an upgrade refused, a download cut
 * off half way (which resumes and succeeds).
 *
 *   npm run bench:campaign                              # 10,000 devices, SQLite
 *   npm run bench:campaign -- --devices 1000            # smoke run
 *   npm run bench:campaign -- --db pg                   # PostgreSQL (a fresh database)
 *
 * Other flags: --max-concurrent 500, --waves 1,10,100, --firmware-kb 256, --faults 10 (devices of
 * each fault kind), --reboot-ms 2000, --connect-rate 2000, --pending 500, --pg-url.
 *
 * It records the time from creating the campaign to its end (`completed-with-failures` with
 * faults, `completed` without), the server's CPU and memory (sampled every second from /proc),
 * how long the campaign's detail (its counts) takes to answer meanwhile, and checks that every
 * device ended in its right state.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  CAMPAIGN_ACTIVE_STATES,
  type TCampaign,
  type TCampaignDevice,
  type TFirmware,
} from '@blrms/contracts';
import { assignFaults, snOf, type DeviceFaults } from '@blrms/device-sim';
import { createPgDatabase } from './pg-database.js';
import { startServer, type RunningServer } from '../web/e2e/support/server.js';
import { SimProcess } from './fleet-sim.js';

const { values: flags } = parseArgs({
  options: {
    devices: { type: 'string', default: '10000' },
    db: { type: 'string', default: 'sqlite' },
    'max-concurrent': { type: 'string', default: '500' },
    waves: { type: 'string', default: '1,10,100' },
    'firmware-kb': { type: 'string', default: '256' },
    faults: { type: 'string', default: '10' },
    'reboot-ms': { type: 'string', default: '2000' },
    'connect-rate': { type: 'string', default: '2000' },
    pending: { type: 'string', default: '500' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});

const DEVICES = Number(flags.devices);
const MAX_CONCURRENT = Number(flags['max-concurrent']);
const WAVES = flags.waves.split(',').map(Number);
const FIRMWARE_BYTES = Number(flags['firmware-kb']) * 1024;
const FAULTS = Number(flags.faults);
const REBOOT_MS = Number(flags['reboot-ms']);
if (flags.db !== 'sqlite' && flags.db !== 'pg') throw new Error('--db: sqlite or pg');
if (!Number.isInteger(DEVICES) || DEVICES < 10) throw new Error('--devices: at least 10');
if (FAULTS * 3 > DEVICES / 10) throw new Error('--faults: at most a thirtieth of the devices each');

const PREFIX = 'CAMP';
const FROM_VERSION = '1.0.0';
const TO_VERSION = '2.0.0';
/** Sockets besides the devices' (database, downloads, listeners, logs). */
const FD_MARGIN = 512 + MAX_CONCURRENT;
const CLOCK_TICKS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stdout.write(`[campaign] ${line}\n`);
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';

function openFilesLimit(): number {
  const limits = readFileSync('/proc/self/limits', 'utf8');
  return Number(/Max open files\s+(\d+)/.exec(limits)?.[1] ?? 0);
}

/** CPU seconds (user + system) the process has used. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

// ------------------------------------------------------------------ preflight

if (DEVICES + FD_MARGIN > openFilesLimit()) {
  process.stderr.write(
    `ulimit -n is ${openFilesLimit()}: the server and the simulator each hold one socket per ` +
      `device (and one per download), so ${fmt(DEVICES)} devices need ulimit -n ≥ ${fmt(DEVICES + FD_MARGIN)}.\n`,
  );
  process.exit(2);
}

// ------------------------------------------------------------------ API

interface Session {
  token: string;
}

async function call<T>(
  server: RunningServer,
  session: Session | null,
  method: string,
  url: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = session ? { 'x-access-token': session.token } : {};
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${server.url}/api${url}`, { method, headers, body: payload });
  const json = (await res.json()) as { success: boolean; message: string; result: T };
  if (!json.success) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.result;
}

// ------------------------------------------------------------------ the run

interface Sample {
  at: number;
  serverCpu: number;
  simCpu: number;
  rssMb: number;
  counts: TCampaign['counts'];
  currentWave: number;
  detailMs: number;
}

const expectedFaults = new Map<string, DeviceFaults>(
  [
    ...assignFaults(DEVICES, {
      corruptDownload: FAULTS,
      refuseUpgrade: FAULTS,
      dropMidDownload: FAULTS,
    }),
  ].map(([index, faults]) => [snOf(PREFIX, index + 1), faults]),
);

/** The end state and reason each device must have. */
/** Corrupt downloads and refused upgrades fail; a fleet without them completes clean. */
const EXPECTED_END = FAULTS > 0 ? 'completed-with-failures' : 'completed';

function expectedOf(sn: string): { state: 'updated' | 'failed'; error: string | null } {
  const faults = expectedFaults.get(sn);
  if (faults?.corruptDownload) return { state: 'failed', error: 'sha256 mismatch' };
  if (faults?.refuseUpgrade) return { state: 'failed', error: 'upgrade refused by device' };
  return { state: 'updated', error: null };
}

async function allDevices(
  server: RunningServer,
  session: Session,
  id: string,
): Promise<TCampaignDevice[]> {
  const devices: TCampaignDevice[] = [];
  for (let pageNo = 1; ; pageNo += 1) {
    const page = await call<{ records: TCampaignDevice[]; pages: number }>(
      server,
      session,
      'GET',
      `/campaign/devices?id=${id}&pageSize=1000&pageNo=${pageNo}&order=asc`,
    );
    devices.push(...page.records);
    if (pageNo >= page.pages) return devices;
  }
}

async function run() {
  const pg = flags.db === 'pg' ? await createPgDatabase(flags['pg-url'], 'campaign') : undefined;
  // PUBLIC_URL is left to its default (http://localhost:PORT): the devices download from there.
  const server = await startServer(pg ? { DATABASE_URL: pg.url } : {}, { broker: true });
  const sim = new SimProcess();
  try {
    const login = await call<{ token: string }>(server, null, 'POST', '/sys/login', {
      username: 'admin',
      password: server.adminPassword,
    });
    const session = { token: login.token };
    const token = await call<{ code: string; tokenKey: string }>(
      server,
      session,
      'POST',
      '/device/token/add',
      { name: 'Campaign bench' },
    );
    const form = new FormData();
    form.set('series', 'R40');
    form.set('version', TO_VERSION);
    const image = Buffer.alloc(FIRMWARE_BYTES);
    for (let i = 0; i < image.length; i += 4) image.writeUInt32LE((i * 2654435761) >>> 0, i);
    form.set('file', new Blob([image]), 'r40-2.0.0.bin');
    const firmware = await call<TFirmware>(server, session, 'POST', '/firmware/upload', form);

    log(`${fmt(DEVICES)} devices connect (R40, firmware ${FROM_VERSION}) → ${server.mqttUrl}`);
    await sim.send('start', {
      options: {
        url: server.mqttUrl!,
        token: token.tokenKey,
        tokenCode: token.code,
        count: DEVICES,
        series: ['R40'],
        prefix: PREFIX,
        firmware: FROM_VERSION,
        intervalMs: 60_000,
        keepaliveSec: 60,
        churn: 0,
        badPayloadRate: 0,
        sourceIps: [],
        connectRate: Number(flags['connect-rate']),
        maxPendingConnects: Number(flags.pending),
        faults: { corruptDownload: FAULTS, refuseUpgrade: FAULTS, dropMidDownload: FAULTS },
        rebootDelayMs: REBOOT_MS,
      },
    });
    const storm = await sim.send('storm', { count: DEVICES, timeoutMs: 600_000 });
    log(`${fmt(storm.online)} online in ${fmt(storm.durationMs / 1000, 1)} s`);
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(500)) {
      const known = await call<{ total: number }>(
        server,
        session,
        'GET',
        `/device/device/list?status=online&version=${FROM_VERSION}&pageSize=1`,
      );
      if (known.total === DEVICES) break;
    }

    const rssBefore = rssMb(server.pid);
    const cpu0 = cpuSeconds(server.pid);
    const simCpu0 = cpuSeconds(sim.pid);
    const t0 = performance.now();
    const campaign = await call<TCampaign>(server, session, 'POST', '/campaign/add', {
      name: `R40 ${TO_VERSION} to ${DEVICES} devices`,
      kind: 'ota',
      firmwareId: firmware.id,
      target: { series: 'R40' },
      waves: WAVES,
      maxConcurrent: MAX_CONCURRENT,
      failureThresholdPercent: 20,
    });
    const createMs = performance.now() - t0;
    log(`campaign created in ${fmt(createMs)} ms over ${fmt(campaign.total)} devices`);

    const samples: Sample[] = [];
    let last = { at: t0, serverCpu: cpu0, simCpu: simCpu0 };
    let detail = campaign;
    let maxActive = 0;
    const waveEnds: number[] = [];
    while (detail.state === 'running' && performance.now() - t0 < 3_600_000) {
      await sleep(1000);
      const asked = performance.now();
      detail = await call<TCampaign>(server, session, 'GET', `/campaign/detail?id=${campaign.id}`);
      const detailMs = performance.now() - asked;
      const at = performance.now();
      const serverCpu = cpuSeconds(server.pid);
      const simCpu = cpuSeconds(sim.pid);
      const seconds = (at - last.at) / 1000;
      samples.push({
        at: (at - t0) / 1000,
        serverCpu: (serverCpu - last.serverCpu) / seconds,
        simCpu: (simCpu - last.simCpu) / seconds,
        rssMb: rssMb(server.pid),
        counts: detail.counts,
        currentWave: detail.currentWave,
        detailMs,
      });
      last = { at, serverCpu, simCpu };
      const active = CAMPAIGN_ACTIVE_STATES.reduce((sum, s) => sum + detail.counts[s], 0);
      maxActive = Math.max(maxActive, active);
      while (waveEnds.length < detail.currentWave) waveEnds.push((at - t0) / 1000);
      const c = detail.counts;
      log(
        `${fmt((at - t0) / 1000)} s wave ${detail.currentWave}: queued ${c.queued}, active ${active} (notified ${c.notified}, downloading ${c.downloading}, downloaded ${c.downloaded}, verified ${c.verified}, updating ${c.updating}), updated ${c.updated}, failed ${c.failed}; server CPU ${fmt(samples.at(-1)!.serverCpu * 100)} %, RSS ${fmt(samples.at(-1)!.rssMb)} MB; detail ${fmt(detailMs)} ms`,
      );
    }
    const totalS = (performance.now() - t0) / 1000;
    const serverCpuS = cpuSeconds(server.pid) - cpu0;
    const simCpuS = cpuSeconds(sim.pid) - simCpu0;
    const list = performance.now();
    await call(server, session, 'GET', '/campaign/list?pageSize=10');
    const listMs = performance.now() - list;
    const snapshot = await sim.send('snapshot', {});

    // Every device in its right final state, with the right reason.
    const devices = await allDevices(server, session, campaign.id);
    const wrong = devices.filter((d) => {
      const expected = expectedOf(d.sn);
      return d.state !== expected.state || d.error !== expected.error;
    });
    const dropped = [...expectedFaults].filter(([, f]) => f.dropMidDownload).map(([sn]) => sn);
    const droppedUpdated = devices.filter(
      (d) => dropped.includes(d.sn) && d.state === 'updated',
    ).length;

    const cpu = samples.map((s) => s.serverCpu * 100);
    const detailTimes = samples.map((s) => s.detailMs);
    const lines = [
      '',
      `${fmt(DEVICES)} R40 devices (device-sim, one child process), firmware ${fmt(FIRMWARE_BYTES / 1024)} KB, waves ${WAVES.join(' → ')} %, max concurrent ${MAX_CONCURRENT}, reboot ${REBOOT_MS} ms; ${FAULTS} corrupt downloads, ${FAULTS} refused upgrades, ${FAULTS} downloads cut half way; ${os.cpus().length} cores shared by server, simulator and bench; ${pg ? 'PostgreSQL' : 'SQLite'}; Node ${process.version}.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| campaign ended ${EXPECTED_END} | ${detail.state === EXPECTED_END ? 'yes' : `NO (${detail.state})`} in ${fmt(totalS, 1)} s (created in ${fmt(createMs)} ms); waves began at ${waveEnds.map((s) => `${fmt(s, 1)} s`).join(', ') || '—'} |`,
      `| final states | updated ${fmt(detail.counts.updated)}, failed ${fmt(detail.counts.failed)}; ${
        wrong.length === 0
          ? 'every device in its right state and reason'
          : `${wrong.length} WRONG, e.g. ${wrong
              .slice(0, 3)
              .map((d) => `${d.sn} ${d.state} ${d.error ?? ''}`)
              .join('; ')}`
      }; cut downloads resumed and updated: ${droppedUpdated}/${dropped.length} (${snapshot.downloadResumes} resumes) |`,
      `| throughput | ${fmt(detail.counts.updated / totalS, 1)} devices upgraded per second; most active at once ${fmt(maxActive)} (limit ${MAX_CONCURRENT}) |`,
      `| server CPU | ${fmt(serverCpuS, 1)} s in all (${fmt((serverCpuS / totalS) * 100)} % of one core on average); per-second samples p50 ${fmt(percentile(cpu, 50))} %, max ${fmt(Math.max(...cpu))} % |`,
      `| server memory (RSS) | ${fmt(rssBefore)} MB before, max ${fmt(Math.max(...samples.map((s) => s.rssMb)))} MB during, ${fmt(samples.at(-1)?.rssMb ?? NaN)} MB at the end |`,
      `| simulator CPU | ${fmt(simCpuS, 1)} s (${fmt((simCpuS / totalS) * 100)} % of one core) |`,
      `| campaign detail (counts) while running | p50 ${fmt(percentile(detailTimes, 50))} ms, max ${fmt(Math.max(...detailTimes))} ms; campaign list after: ${fmt(listMs)} ms |`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (wrong.length > 0 || detail.state !== EXPECTED_END) process.exitCode = 1;
  } finally {
    await sim.close();
    await server.stop();
    await pg?.drop();
  }
}

await run();
process.exit(process.exitCode ?? 0);
