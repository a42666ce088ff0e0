/**
 * OTA download throughput (issue 5, "Measure"): 1,000 concurrent ranged downloads of a 16 MiB
 * firmware from the built server's signed download link, against Debian's nginx serving the same
 * file from a temporary config on a free loopback port, in the same run.
 *
 * Each simulated device downloads the whole file in two ranged requests, as a device whose
 * download broke off would: `Range: bytes=0-{k-1}`, then, on a new connection, the resume
 * `Range: bytes={k}-`, with `k` drawn at random per device (the same draws for both servers).
 * Every response must be a 206 with the right Content-Range and length; every 50th device also
 * hashes what it received and compares it with the firmware's sha256.
 *
 * Reported per server: throughput (bytes of file delivered / wall time from the first connect to
 * the last byte), p50 / p99 / max time per device (both requests), the server's resident memory
 * (VmRSS, nginx: master + workers) sampled every 100 ms before, during and after, the CPU time the
 * server and the load generator spent per GiB delivered (unlike the wall time, these hardly depend
 * on what else the machine runs), and the SYNs the kernel dropped on full listen queues. A warm-up
 * of 50 devices per server comes first (page cache, JIT); then the servers take turns for
 * BENCH_ROUNDS rounds (default 2), and the table shows every round.
 *
 *   npm run bench:ota                                     # builds, then: tsx bench/ota-download.ts
 *   BENCH_DEVICES=200 BENCH_ROUNDS=1 npm run bench:ota    # smaller run
 *
 * BENCH_FILE_MIB (16) sets the firmware size, BENCH_NGINX_WORKERS (auto, as Debian's nginx.conf)
 * nginx's worker processes. Needs /usr/sbin/nginx: `apt-get install -y nginx` (it is run with a
 * config of its own, not as a service).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServer, type RunningServer } from '../web/e2e/support/server.js';

const NGINX = '/usr/sbin/nginx';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const FILE_BYTES = Number(process.env.BENCH_FILE_MIB ?? 16) * 1024 * 1024;
const NGINX_WORKERS = process.env.BENCH_NGINX_WORKERS ?? 'auto';
const WARM_UP_DEVICES = 50;
const HASH_EVERY = 50;
const ROUND_DEADLINE_MS = 10 * 60 * 1000;
const SAMPLE_MS = 100;
const TARGET_RATIO = 0.8;
const MIB = 1024 * 1024;

/** One receive buffer for every socket: data is consumed inside the read callback. */
const RECEIVE_BUFFER = Buffer.allocUnsafe(1024 * 1024);
const HEADER_END = Buffer.from('\r\n\r\n');
/** Connections in flight, closed all at once when a round runs past its deadline. */
const openSockets = new Set<net.Socket>();
let aborted = false;

interface Target {
  name: string;
  host: string;
  port: number;
  /** Path and query of the file. */
  path: string;
  /** Processes whose memory and CPU count as the server's. */
  pids: () => number[];
}

interface Part {
  bytes: number;
}

/**
 * One ranged GET on a new connection (HTTP/1.1, Connection: close): checks the status, the
 * Content-Range and the length, and feeds the body to `hash` when given. Reads into the shared
 * buffer, so receiving costs the load generator as little as Node allows.
 */
function rangedGet(
  target: Target,
  start: number,
  end: number | null,
  hash?: ReturnType<typeof createHash>,
): Promise<Part> {
  const range = `bytes=${start}-${end ?? ''}`;
  const expectedEnd = end ?? FILE_BYTES - 1;
  const expectedLength = expectedEnd - start + 1;
  if (aborted) return Promise.reject(new Error(`${target.name}: round deadline passed`));
  return new Promise((resolve, reject) => {
    let header: Buffer | null = Buffer.alloc(0);
    let remaining = -1;
    let received = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(error);
    };
    const body = (chunk: Buffer) => {
      const take = chunk.subarray(0, remaining);
      received += take.length;
      remaining -= take.length;
      hash?.update(take);
      if (remaining === 0 && !settled) {
        settled = true;
        socket.destroy();
        resolve({ bytes: received });
      }
    };
    const socket = net.connect({
      host: target.host,
      port: target.port,
      onread: {
        buffer: RECEIVE_BUFFER,
        callback(size) {
          const chunk = RECEIVE_BUFFER.subarray(0, size);
          if (header === null) {
            body(chunk);
            return true;
          }
          header = Buffer.concat([header, chunk]);
          const at = header.indexOf(HEADER_END);
          if (at < 0) return true;
          const lines = header.subarray(0, at).toString('latin1').split('\r\n');
          const rest = header.subarray(at + 4);
          header = null;
          const status = Number(lines[0]?.split(' ')[1]);
          const fields = new Map(
            lines.slice(1).map((l) => {
              const colon = l.indexOf(':');
              return [l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim()];
            }),
          );
          const contentRange = `bytes ${start}-${expectedEnd}/${FILE_BYTES}`;
          if (status !== 206 || fields.get('content-range') !== contentRange) {
            fail(
              new Error(
                `${target.name} ${range}: ${lines[0]} content-range ${fields.get('content-range')}`,
              ),
            );
            return false;
          }
          remaining = Number(fields.get('content-length'));
          if (remaining !== expectedLength) {
            fail(new Error(`${target.name} ${range}: content-length ${remaining}`));
            return false;
          }
          if (rest.length > 0) body(Buffer.from(rest));
          return true;
        },
      },
    });
    socket.on('connect', () => {
      socket.write(
        `GET ${target.path} HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\nRange: ${range}\r\nConnection: close\r\n\r\n`,
      );
    });
    openSockets.add(socket);
    socket.on('error', fail);
    socket.on('close', () => {
      openSockets.delete(socket);
      fail(new Error(`${target.name} ${range}: closed after ${received} bytes`));
    });
  });
}

/** A device's whole download: the first part, then the resume from `split`. */
async function download(target: Target, split: number, sha256: string | null): Promise<number> {
  const started = performance.now();
  const hash = sha256 ? createHash('sha256') : undefined;
  const first = await rangedGet(target, 0, split - 1, hash);
  const rest = await rangedGet(target, split, null, hash);
  if (first.bytes + rest.bytes !== FILE_BYTES) throw new Error(`${target.name}: short download`);
  if (hash && hash.digest('hex') !== sha256) throw new Error(`${target.name}: sha256 mismatch`);
  return performance.now() - started;
}

// ---------------------------------------------------------------- process figures

const CLOCK_TICKS = 100;

function rssBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * TCP trouble on the machine (all processes), from TcpExt in /proc/net/netstat:
 * `ListenOverflows`, connections refused because a listen queue was full (1,000 connects at once
 * overflow a backlog of 511, and those devices resend their SYN after 1 s, 3 s, ...), and
 * `TCPTimeouts`, retransmission timeouts (segments dropped on the loopback's receive backlog are
 * resent after a backing-off timeout, so one unlucky download can stall for many seconds).
 * Either shows in the max column.
 */
function tcpCounters(): { listenOverflows: number; timeouts: number } {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('TcpExt:'));
  const names = lines[at]?.split(/\s+/) ?? [];
  const values = lines[at + 1]?.split(/\s+/) ?? [];
  const counter = (name: string) => Number(values[names.indexOf(name)] ?? 0);
  return { listenOverflows: counter('ListenOverflows'), timeouts: counter('TCPTimeouts') };
}

const totalRss = (pids: number[]) => pids.reduce((sum, pid) => sum + rssBytes(pid), 0);
const totalCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);

// ---------------------------------------------------------------- one round

interface RoundResult {
  target: string;
  devices: number;
  failed: number;
  firstError: string | null;
  seconds: number;
  mibPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  cpuSeconds: number;
  /** The load generator's own CPU time (this process). */
  clientCpuSeconds: number;
  listenOverflows: number;
  tcpTimeouts: number;
  load: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function round(target: Target, splits: number[], sha256: string): Promise<RoundResult> {
  const pids = target.pids();
  const loadBefore = load();
  const rssBefore = totalRss(pids);
  const cpuBefore = totalCpu(pids);
  const clientBefore = process.cpuUsage();
  const tcpBefore = tcpCounters();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, totalRss(target.pids()));
  }, SAMPLE_MS);
  const started = performance.now();
  let failed = 0;
  let firstError: string | null = null;
  aborted = false;
  const timer = setTimeout(() => {
    aborted = true;
    for (const socket of openSockets) socket.destroy();
  }, ROUND_DEADLINE_MS);
  const times = await Promise.all(
    splits.map((split, i) =>
      download(target, split, i % HASH_EVERY === 0 ? sha256 : null).catch((error: unknown) => {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
        return null;
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  clearTimeout(timer);
  clearInterval(sampler);
  const ok = times.filter((t): t is number => t !== null).sort((a, b) => a - b);
  await new Promise((r) => setTimeout(r, 1000));
  return {
    target: target.name,
    devices: splits.length,
    failed,
    firstError,
    seconds,
    mibPerSecond: (ok.length * FILE_BYTES) / MIB / seconds,
    p50: percentile(ok, 50),
    p99: percentile(ok, 99),
    max: ok[ok.length - 1] ?? NaN,
    rssBefore,
    rssPeak,
    rssAfter: totalRss(target.pids()),
    cpuSeconds: (totalCpu(target.pids()) - cpuBefore) / 1000,
    clientCpuSeconds: (client.user + client.system) / 1e6,
    listenOverflows: tcpCounters().listenOverflows - tcpBefore.listenOverflows,
    tcpTimeouts: tcpCounters().timeouts - tcpBefore.timeouts,
    load: `${loadBefore} → ${load()}`,
  };
}

// ---------------------------------------------------------------- the two servers

async function startBlrms(file: Buffer): Promise<{ server: RunningServer; target: Target }> {
  const server = await startServer();
  const login = await fetch(`${server.url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
  });
  const token = ((await login.json()) as { result: { token: string } }).result.token;
  const form = new FormData();
  form.append('series', 'R40');
  form.append('version', '9.9.9');
  form.append('releaseNotes', 'bench');
  form.append('file', new Blob([new Uint8Array(file)]), 'bench-16m.bin');
  const uploaded = await fetch(`${server.url}/api/firmware/upload`, {
    method: 'POST',
    headers: { 'x-access-token': token },
    body: form,
  });
  const firmware = (await uploaded.json()) as {
    success: boolean;
    message: string;
    result: { id: string; sha256: string };
  };
  if (!firmware.success) throw new Error(`upload failed: ${firmware.message}`);
  const linkRes = await fetch(`${server.url}/api/firmware/downloadUrl?id=${firmware.result.id}`, {
    headers: { 'x-access-token': token },
  });
  const link = new URL(((await linkRes.json()) as { result: { url: string } }).result.url);
  const { port } = new URL(server.url);
  return {
    server,
    target: {
      name: 'BLRMS',
      host: '127.0.0.1',
      port: Number(port),
      path: `${link.pathname}${link.search}`,
      pids: () => [server.pid],
    },
  };
}

async function startNginx(file: Buffer): Promise<{ stop: () => Promise<void>; target: Target }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'blrms-bench-nginx-'));
  // The workers run as nobody: the folder and the file must be readable by anyone.
  chmodSync(dir, 0o755);
  writeFileSync(path.join(dir, 'firmware.bin'), file, { mode: 0o644 });
  const port = await freePort();
  const temp = (name: string) => `${name} ${path.join(dir, name)};`;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes ${NGINX_WORKERS};
daemon off;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 4096; multi_accept on; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  ${temp('client_body_temp_path')}
  ${temp('proxy_temp_path')}
  ${temp('fastcgi_temp_path')}
  ${temp('uwsgi_temp_path')}
  ${temp('scgi_temp_path')}
  server {
    listen 127.0.0.1:${port};
    root ${dir};
    location / { }
  }
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}`);
    const res = await fetch(`http://127.0.0.1:${port}/firmware.bin`, { method: 'HEAD' }).catch(
      () => null,
    );
    if (res?.ok) break;
    if (Date.now() > deadline) throw new Error('nginx did not start in 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = child.pid ?? 0;
  return {
    target: {
      name: 'nginx',
      host: '127.0.0.1',
      port,
      path: '/firmware.bin',
      pids: () => [pid, ...childrenOf(pid)],
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- report

const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;
const ms = (value: number) => `${Math.round(value)} ms`;

function row(r: RoundResult, label: string): string {
  const gib = ((r.devices - r.failed) * FILE_BYTES) / (1024 * MIB);
  const perGib = (seconds: number) => `${Math.round((seconds * 1000) / gib)} ms`;
  return `| ${label} | ${r.target} | ${r.devices - r.failed}/${r.devices} | ${r.seconds.toFixed(1)} s | ${r.mibPerSecond.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${mib(r.rssBefore)} → ${mib(r.rssPeak)} → ${mib(r.rssAfter)} | ${perGib(r.cpuSeconds)} | ${perGib(r.clientCpuSeconds)} | ${r.listenOverflows} | ${r.tcpTimeouts} | ${r.load} |`;
}

async function main() {
  if (!existsSync(NGINX)) {
    throw new Error(
      `${NGINX} is missing: apt-get install -y nginx (it is not started as a service)`,
    );
  }
  const file = randomBytes(FILE_BYTES);
  const sha256 = createHash('sha256').update(file).digest('hex');
  // The same split points for both servers: each device resumes at a random byte.
  const splits = Array.from(
    { length: DEVICES },
    () => 1 + Math.floor(Math.random() * (FILE_BYTES - 1)),
  );

  console.log(`node ${process.version}, ${os.cpus().length} cores, load ${load()}`);
  const blrms = await startBlrms(file);
  const nginx = await startNginx(file);
  const results: { label: string; result: RoundResult }[] = [];
  try {
    for (const target of [blrms.target, nginx.target]) {
      const warm = await round(target, splits.slice(0, WARM_UP_DEVICES), sha256);
      if (warm.failed > 0) throw new Error(`${target.name} warm-up: ${warm.firstError}`);
    }
    for (let i = 1; i <= ROUNDS; i++) {
      // Take turns, so that a change in the machine's load hits both.
      const order = i % 2 === 1 ? [blrms.target, nginx.target] : [nginx.target, blrms.target];
      for (const target of order) {
        const result = await round(target, splits, sha256);
        results.push({ label: String(i), result });
        console.log(row(result, String(i)));
        if (result.firstError) console.log(`  first error: ${result.firstError}`);
      }
    }
  } finally {
    await nginx.stop();
    await blrms.server.stop();
  }

  console.log(
    `\n${DEVICES} devices, ${mib(FILE_BYTES)} firmware, two ranged requests each; nginx worker_processes ${NGINX_WORKERS}\n`,
  );
  console.log(
    '| round | server | complete | wall | MiB/s | p50 | p99 | max | RSS before → peak → after | server CPU per GiB | client CPU per GiB | SYNs dropped | TCP timeouts | load average |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|');
  for (const { label, result } of results) console.log(row(result, label));
  const best = (name: string) =>
    Math.max(...results.filter((r) => r.result.target === name).map((r) => r.result.mibPerSecond));
  const ratio = best('BLRMS') / best('nginx');
  const perRound = Array.from({ length: ROUNDS }, (_, i) => {
    const of = (name: string) =>
      results.find((r) => r.label === String(i + 1) && r.result.target === name)?.result
        .mibPerSecond ?? NaN;
    return (of('BLRMS') / of('nginx')).toFixed(2);
  });
  console.log(
    `\nbest BLRMS / best nginx throughput: ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'missed'}); per round: ${perRound.join(', ')}`,
  );
  const failed = results.reduce((sum, r) => sum + r.result.failed, 0);
  if (failed > 0) {
    console.log(`${failed} downloads failed`);
    process.exitCode = 1;
  }
}

await main();
