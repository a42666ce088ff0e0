/**
 * Announcement fan-out: 10,000 users, each with a session and one console websocket, connected to
 * one server node (the users and sessions are written straight into the database: hashing 10,000
 * passwords would only measure argon2). An administrator publishes an urgent announcement
 * (1) to everyone of the company: one `topic` message per socket, and
 * (2) to a department holding all 10,000 users: 10,000 delivery rows written in the publish
 *     transaction, then one `user` message per socket.
 * Each socket records when its message arrives. Target: p99 delivery ≤ 1 s, measured from the
 * moment the publish request is sent. Also reports the server's resident memory per open socket
 * (RSS after connecting minus RSS before, divided by the number of sockets), and the CPU time the
 * server process spent per publish (the publish request and the fan-out), which unlike wall-clock
 * delivery does not depend on what else the machine is running.
 *
 *   npm run bench:notify                       # 10,000 sockets, 2 publishes per audience
 *   BENCH_SOCKETS=2000 npm run bench:notify    # smaller run
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WS_TOKEN_PROTOCOL } from '@blrms/contracts';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../web/e2e/support/server.js';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const PUBLISHES = Number(process.env.BENCH_PUBLISHES ?? 2);
/** Connections opened at once; the rest wait, so the server's accept queue does not overflow. */
const CONNECT_BATCH = 500;

async function login(server: RunningServer): Promise<{ token: string }> {
  const res = await fetch(`${server.url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
  });
  const body = (await res.json()) as { result: { token: string } };
  return { token: body.result.token };
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

const BENCH_DEPART = 'A01A02';

/** Users of the platform company in one department, each with a live session; returns their tokens. */
function seedUsers(server: RunningServer, count: number): { userId: string; token: string }[] {
  const db = new Database(join(server.dataDir, 'blrms.db'));
  try {
    const company = db.prepare("select id from sys_company where code = 'platform'").get() as {
      id: string;
    };
    const depart = db.prepare('select id from sys_depart where org_code = ?').get(BENCH_DEPART) as {
      id: string;
    };
    const now = Date.now();
    const users = Array.from({ length: count }, () => ({
      userId: randomBytes(16).toString('hex'),
      token: randomBytes(32).toString('base64url'),
    }));
    const insertUser = db.prepare(
      `insert into sys_user (id, company_id, username, realname, password_hash, status, del_flag,
         create_time) values (?, ?, ?, ?, 'x', 1, 0, ?)`,
    );
    const insertMember = db.prepare(
      'insert into sys_user_company (user_id, company_id) values (?, ?)',
    );
    const insertDepart = db.prepare(
      'insert into sys_user_depart (user_id, depart_id) values (?, ?)',
    );
    const insertSession = db.prepare(
      `insert into sys_session (id, token_hash, user_id, company_id, create_time, expire_time)
         values (?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      users.forEach(({ userId, token }, i) => {
        insertUser.run(userId, company.id, `bench${i}`, `bench${i}`, now);
        insertMember.run(userId, company.id);
        insertDepart.run(userId, depart.id);
        insertSession.run(
          randomBytes(16).toString('hex'),
          createHash('sha256').update(token).digest('hex'),
          userId,
          company.id,
          now,
          now + 86_400_000,
        );
      });
    })();
    return users;
  } finally {
    db.close();
  }
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** CPU time the process has used (user + system), in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const server = await startServer({ LOG_LEVEL: 'error' });
const sockets: WebSocket[] = [];
try {
  const { token } = await login(server);
  const users = seedUsers(server, SOCKETS);
  const departs = await api<{
    departs: { id: string; orgCode: string; children: { id: string; orgCode: string }[] }[];
  }>(server, token, 'GET', '/sys/annountCement/audienceOptions');
  const departId = departs.departs
    .flatMap((d) => [d, ...d.children])
    .find((d) => d.orgCode === BENCH_DEPART)?.id;
  // Let the server settle (first requests, JIT) before the baseline.
  await new Promise((r) => setTimeout(r, 1000));
  const before = rssKb(server.pid);

  const arrivals = new Map<string, number[]>();
  const base = `${server.url.replace('http', 'ws')}/api/websocket`;
  for (let i = 0; i < SOCKETS; i += CONNECT_BATCH) {
    const batch = users.slice(i, i + CONNECT_BATCH).map((user) => {
      const ws = new WebSocket(`${base}/${user.userId}`, [WS_TOKEN_PROTOCOL, user.token]);
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { msgId?: string; cmd?: string };
        if (message.cmd !== 'publish' || !message.msgId) return;
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
  const audiences = [
    { label: 'everyone (topic)', body: { msgType: 'all' } },
    {
      label: `department of ${SOCKETS} (user)`,
      body: { msgType: 'depart', departIds: [departId] },
    },
  ];
  for (let run = 0; run < PUBLISHES; run++) {
    for (const audience of audiences) {
      const draft = await api<{ id: string }>(server, token, 'POST', '/sys/annountCement/add', {
        titile: `Fan-out ${run + 1}`,
        msgContent: '<p>bench</p>',
        priority: 'H',
        ...audience.body,
      });
      const cpuBefore = cpuMs(server.pid);
      const start = performance.now();
      await api(server, token, 'GET', `/sys/annountCement/doReleaseData?id=${draft.id}`);
      const answered = performance.now() - start;
      const deadline = Date.now() + 30_000;
      while ((arrivals.get(draft.id)?.length ?? 0) < SOCKETS && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
      }
      const serverCpu = cpuMs(server.pid) - cpuBefore;
      const times = (arrivals.get(draft.id) ?? []).map((t) => t - start).sort((a, b) => a - b);
      const p99 = percentile(times, 99);
      rows.push(
        `| ${run + 1} | ${audience.label} | ${answered.toFixed(0)} ms | ${serverCpu} ms | ${times.length} / ${SOCKETS} | ${percentile(times, 50).toFixed(0)} ms | ${p99.toFixed(0)} ms | ${(times.at(-1) ?? NaN).toFixed(0)} ms | ${times.length === SOCKETS && p99 <= 1000 ? 'met' : 'MISSED'} |`,
      );
    }
  }

  console.log(
    `${SOCKETS} sockets (one user and session each) on one node; server RSS ${(before / 1024).toFixed(0)} MB → ${(after / 1024).toFixed(0)} MB: ${perSocketKb.toFixed(1)} KB per socket`,
  );
  console.log(
    '| run | audience | publish call answered | server CPU | delivered | p50 | p99 | max | target p99 ≤ 1 s |',
  );
  console.log('|---|---|---:|---:|---|---:|---:|---:|---|');
  for (const row of rows) console.log(row);
} finally {
  for (const ws of sockets) ws.terminate();
  await server.stop();
}
