import type { TMonitorSnapshot } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlatformOnly } from '../../db/seed/menu.js';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { QueryStats } from '../../platform/db/query-stats.js';
import { ADMIN_PASSWORD, authHeaders, createTestApp, type TestContext } from '../../test/app.js';
import { createRole } from '../../test/devices.js';
import { monitorMenu } from './monitor.menu.js';

const ENDPOINTS = ['nodes', 'database', 'redis', 'trace'].map((p) => `/api/sys/monitor/${p}`);

describe('system monitor', () => {
  let t: TestContext;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  const get = (url: string, token = admin) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: authHeaders(token, { 'accept-language': 'en-US' }),
    });

  it('answers platform administrators only, whoever else holds the permission code', async () => {
    // A platform-company user granted the monitor page through a role is still no platform admin.
    const roleId = await createRole(t, PLATFORM_COMPANY_ID, ['system', 'system-monitor']);
    await t.createUser({ username: 'watcher', password: 'Watcher-Pass-1', roleIds: [roleId] });
    const watcher = await t.login('watcher', 'Watcher-Pass-1');
    // A customer company's administrator never gets the page (PLATFORM_ONLY_PERMS).
    const companyId = await t.createCompany('mon-c');
    await t.createUser({ username: 'custadm', password: 'Cust-Pass-1', companyId, roleIds: [] });
    const customer = await t.login('custadm', 'Cust-Pass-1');
    for (const url of ENDPOINTS) {
      expect((await get(url)).statusCode, url).toBe(200);
      const refused = await get(url, watcher);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message).toMatch(/platform administrators/i);
      expect((await get(url, customer)).statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('keeps its pages and buttons from customer administrators', () => {
    const codes = monitorMenu.map((row) => row.perms);
    expect(codes).toEqual([
      'system:monitor:view',
      'system:online:list',
      'system:online:forceLogout',
    ]);
    expect(codes.every((code) => isPlatformOnly(code))).toBe(true);
  });

  it('lists this node with its process, disk and pool figures, and keeps a history', async () => {
    const first = (await get('/api/sys/monitor/nodes')).json().result;
    expect(first.nodes).toHaveLength(1);
    const node = first.nodes[0];
    expect(node.snapshot.nodeId).toBe(first.answeredBy);
    expect(node.snapshot).toMatchObject({ nodeVersion: process.version, pid: process.pid });
    expect(node.snapshot.rssBytes).toBeGreaterThan(0);
    expect(node.snapshot.heapUsedBytes).toBeGreaterThan(0);
    expect(node.snapshot.disk.totalBytes).toBeGreaterThan(0);
    expect(node.snapshot.disk.freeBytes).toBeGreaterThan(0);
    expect(node.snapshot.mqtt).toMatchObject({ broker: 'none', connected: null });
    if (t.dialect === 'sqlite') expect(node.snapshot.dbPool).toBeNull();
    else expect(node.snapshot.dbPool.max).toBe(10);

    await t.app.scheduler.runNow('monitor.node-snapshot');
    await t.app.scheduler.runNow('monitor.node-snapshot');
    const later = (await get('/api/sys/monitor/nodes')).json().result;
    expect(later.nodes[0].history.length).toBe(node.history.length + 2);
  });

  it('shows every node heard on the bus and forgets one silent for 30 s', async () => {
    const own = (await get('/api/sys/monitor/nodes')).json().result.nodes[0]
      .snapshot as TMonitorSnapshot;
    await t.bus.publish('monitor.node', { ...own, nodeId: 'other-host:1883', cpuPercent: 42 });
    const both = (await get('/api/sys/monitor/nodes')).json().result;
    expect(both.nodes.map((n: { snapshot: TMonitorSnapshot }) => n.snapshot.nodeId)).toEqual(
      [own.nodeId, 'other-host:1883'].sort(),
    );
    const database = (await get('/api/sys/monitor/database')).json().result;
    expect(database.nodes).toHaveLength(2);

    t.clock.advance(31_000);
    const after = (await get('/api/sys/monitor/nodes')).json().result;
    // This node measures itself again; the silent one is gone.
    expect(after.nodes.map((n: { snapshot: TMonitorSnapshot }) => n.snapshot.nodeId)).toEqual([
      own.nodeId,
    ]);
  });

  it('reports the database size and its slowest statements without parameter values', async () => {
    // A statement with a value that must never be shown.
    await t.loginResponse('no-such-user-Secret42', 'Wrong-Pass-Secret42');
    const result = (await get('/api/sys/monitor/database')).json().result;
    expect(result.dialect).toBe(t.dialect);
    expect(result.sizeBytes).toBeGreaterThan(10_000);
    expect(result.sizeError).toBeNull();
    const slow = result.nodes[0].slowQueries as { sql: string; durationMs: number }[];
    expect(slow.length).toBeGreaterThan(0);
    expect(slow.length).toBeLessThanOrEqual(10);
    expect(JSON.stringify(slow)).not.toContain('Secret42');
    const durations = slow.map((q) => q.durationMs);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
  });

  it('says Redis is not configured when REDIS_URL is unset', async () => {
    const result = (await get('/api/sys/monitor/redis')).json().result;
    expect(result).toMatchObject({ configured: false, ok: false, error: null });
  });

  it('traces requests without query strings, bodies or tokens', async () => {
    await get('/api/sys/monitor/nodes?_t=SecretQuery99');
    await t.app.inject({
      method: 'GET',
      url: '/api/sys/user/queryById?id=0123456789abcdef0123456789abcdef',
      headers: authHeaders(admin),
    });
    await t.loginResponse('admin', 'Wrong-Password-77');
    const result = (await get('/api/sys/monitor/trace')).json().result;
    const requests = result.requests as {
      method: string;
      path: string;
      status: number;
      user: string | null;
      durationMs: number;
    }[];
    expect(JSON.stringify(requests)).not.toMatch(/SecretQuery99|Wrong-Password-77|\?/);
    expect(JSON.stringify(requests)).not.toContain(admin);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/sys/login', user: null });
    expect(requests).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        path: '/api/sys/monitor/nodes',
        status: 200,
        user: 'admin',
      }),
    );
    expect(requests.every((r) => r.durationMs >= 0)).toBe(true);
  });
});

describe('system monitor with Redis down', () => {
  it('answers with the error instead of failing', async () => {
    // Port 1: nothing listens; the app keeps its in-process bus (tests pass one).
    const t = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const admin = await t.login('admin', ADMIN_PASSWORD);
      const started = Date.now();
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/sys/monitor/redis',
        headers: authHeaders(admin),
      });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({
        configured: true,
        ok: false,
        usedMemoryBytes: null,
      });
      expect(res.json().result.error).toMatch(/ECONNREFUSED|connect|closed/i);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)('system monitor with Redis', () => {
  it('shows its memory, clients and pub/sub channels', async () => {
    const t = await createTestApp({ env: { REDIS_URL: process.env.REDIS_URL ?? '' } });
    try {
      const admin = await t.login('admin', ADMIN_PASSWORD);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/sys/monitor/redis',
        headers: authHeaders(admin),
      });
      const result = res.json().result;
      expect(result).toMatchObject({ configured: true, ok: true, error: null });
      expect(result.usedMemoryBytes).toBeGreaterThan(0);
      // This monitor's own connection at least.
      expect(result.connectedClients).toBeGreaterThanOrEqual(1);
      expect(result.pubsubChannels).toBeGreaterThanOrEqual(0);
      expect(result.version).toMatch(/^\d+\./);
    } finally {
      await t.close();
    }
  });
});

describe('slowest statements', () => {
  it('keeps the slowest distinct texts, bounded, and forgets old ones', () => {
    let now = 0;
    const stats = new QueryStats({ keep: 3, windowMs: 1000, now: () => now });
    stats.record('select 1', 5);
    stats.record('select 2', 50);
    stats.record('select 1', 9);
    stats.record('select 3', 20);
    stats.record('select 4', 1);
    stats.record('select 5', 30);
    expect(stats.slowest().map((q) => [q.sql, q.durationMs, q.count])).toEqual([
      ['select 2', 50, 1],
      ['select 5', 30, 1],
      ['select 3', 20, 1],
    ]);
    now = 1500;
    stats.record('select 6', 2);
    expect(stats.slowest().map((q) => q.sql)).toEqual(['select 6']);
    stats.record(`select '${'x'.repeat(600)}'`, 3);
    expect(stats.slowest()[0]!.sql.length).toBeLessThanOrEqual(501);
  });
});
