/**
 * Authenticated `GET /api/sys/permission/getUserPermissionByToken` throughput as a ratio of the
 * unauthenticated `GET /api/health`, on the same server in the same run. Target: ratio >= 0.5.
 *
 *   npm run bench:api-auth                      # SQLite
 *   DATABASE_URL=postgres://... npm run bench:api-auth   # PostgreSQL as well
 */
import autocannon from 'autocannon';
import { startServer } from '../web/e2e/support/server.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function login(url: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const body = (await res.json()) as { result: { token: string } };
  return body.result.token;
}

async function rate(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, headers, duration: DURATION_S, connections: CONNECTIONS });
  const errors = result.non2xx + result.errors;
  if (errors > 0) throw new Error(`${url}: ${errors} failed requests`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function measure(label: string, env: Record<string, string>) {
  const server = await startServer(env);
  try {
    const token = await login(server.url, server.adminPassword);
    // warm up both paths so neither pays for JIT or cache fills
    await autocannon({ url: `${server.url}/api/health`, duration: 2, connections: CONNECTIONS });
    const permissionUrl = `${server.url}/api/sys/permission/getUserPermissionByToken`;
    await autocannon({
      url: permissionUrl,
      headers: { 'X-Access-Token': token },
      duration: 2,
      connections: CONNECTIONS,
    });
    const health = await rate(`${server.url}/api/health`);
    const permission = await rate(permissionUrl, { 'X-Access-Token': token });
    const ratio = permission.rps / health.rps;
    console.log(
      `| ${label} | ${health.rps.toFixed(0)} | ${permission.rps.toFixed(0)} | ${permission.p99} ms | ${ratio.toFixed(2)} | ${ratio >= 0.5 ? 'met' : 'MISSED'} |`,
    );
  } finally {
    await server.stop();
  }
}

console.log(`${DURATION_S} s per endpoint, ${CONNECTIONS} connections`);
console.log(
  '| database | health req/s | getUserPermissionByToken req/s | its p99 | ratio | target ≥ 0.5 |',
);
console.log('|---|---|---|---|---|---|');
await measure('SQLite', {});
if (process.env.DATABASE_URL)
  await measure('PostgreSQL', { DATABASE_URL: process.env.DATABASE_URL });
