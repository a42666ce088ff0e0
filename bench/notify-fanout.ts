/**
 * Announcement fan-out: 10,000 console websockets connected to one server node; an administrator
 * publishes an announcement to everyone; each socket records when its `topic` message arrives.
 * Target: p99 delivery ≤ 1 s, measured from the moment the publish request is sent. Also reports
 * the server's resident memory per open socket (RSS after connecting minus RSS before, divided by
 * the number of sockets).
 *
 *   npm run bench:notify                       # 10,000 sockets, 3 publishes
 *   BENCH_SOCKETS=2000 npm run bench:notify    # smaller run
 */
import { readFileSync } from 'node:fs';
import { WS_TOKEN_PROTOCOL } from '@blrms/contracts';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../web/e2e/support/server.js';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 3);
/** Connections opened at once; the rest wait, so the server's accept queue does not overflow. */
const CONNECT_BATCH = 500;

interface Login {
  token: string;
  userId: string;
}

async function login(server: RunningServer): Promise<Login> {
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
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { success: boolean; message: string; result: T };
  if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
  return json.result;
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const server = await startServer({ LOG_LEVEL: 'error' });
const sockets: WebSocket[] = [];
try {
  const { token, userId } = await login(server);
  const url = `${server.url.replace('http', 'ws')}/api/websocket/${userId}`;
  // Let the server settle (first requests, JIT) before the baseline.
  await new Promise((r) => setTimeout(r, 1000));
  global.gc?.();
  const before = rssKb(server.pid);

  const arrivals = new Map<string, number[]>();
  for (let i = 0; i < SOCKETS; i += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, SOCKETS - i) }, () => {
      const ws = new WebSocket(url, [WS_TOKEN_PROTOCOL, token]);
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { type: string; msgId?: string };
        if (message.type !== 'topic' || !message.msgId) return;
        const list = arrivals.get(message.msgId) ?? [];
        list.push(performance.now());
        arrivals.set(message.msgId, list);
      });
      sockets.push(ws);
      return new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
    });
    await Promise.all(batch);
  }
  await new Promise((r) => setTimeout(r, 2000));
  const after = rssKb(server.pid);
  const perSocketKb = (after - before) / SOCKETS;

  const rows: string[] = [];
  for (let run = 0; run < PUBLISHES; run++) {
    const draft = await api<{ id: string }>(server, token, 'POST', '/sys/annountCement/add', {
      titile: `Fan-out ${run + 1}`,
      msgContent: '<p>bench</p>',
      priority: 'H',
      msgType: 'all',
    });
    const start = performance.now();
    await api(server, token, 'GET', `/sys/annountCement/doReleaseData?id=${draft.id}`);
    const deadline = Date.now() + 30_000;
    while ((arrivals.get(draft.id)?.length ?? 0) < SOCKETS && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const times = (arrivals.get(draft.id) ?? []).map((t) => t - start).sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    rows.push(
      `| ${run + 1} | ${times.length} / ${SOCKETS} | ${p50.toFixed(0)} ms | ${p99.toFixed(0)} ms | ${(times.at(-1) ?? NaN).toFixed(0)} ms | ${times.length === SOCKETS && p99 <= 1000 ? 'met' : 'MISSED'} |`,
    );
  }

  console.log(
    `${SOCKETS} sockets on one node; server RSS ${(before / 1024).toFixed(0)} MB → ${(after / 1024).toFixed(0)} MB: ${perSocketKb.toFixed(1)} KB per socket`,
  );
  console.log('| publish | delivered | p50 | p99 | max | target p99 ≤ 1 s |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  for (const ws of sockets) ws.terminate();
  await server.stop();
}
