/**
 * 系统监控 and 在线用户 (issue 18): a platform administrator reads the live figures of the server
 * node, its database, MQTT, Redis, disk and request trace, then forces another user's session out
 * (its token stops working at once); the monitor in English at phone width.
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminStorage, loginAsAdmin, seen, sideMenu, toast } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';
import { addUser } from './support/users.js';

const harness = useConsoleHarness();

const OTHER = { username: 'nightshift', password: 'Night-Shift-2026' };

async function loginToken(username: string, password: string): Promise<string> {
  const res = await fetch(`${harness.server.url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await res.json()) as { result: { token: string } }).result.token;
}

/** The lines a chart draws (ECharts' SVG renderer strokes its series 2 px wide). */
const lineCount = (chart: Locator) => chart.locator('svg path[stroke-width="2"]').count();

const statusWith = async (token: string) =>
  (
    await fetch(`${harness.server.url}/api/sys/user/getCurrentUserDeparts`, {
      headers: { 'x-access-token': token },
    })
  ).status;

describe('system monitor and online users in the console', () => {
  it('shows every part of the monitor live, and forces a session out', async () => {
    const page = harness.track(await pageIn(harness.browser, harness.server, 'zh-CN'));
    await loginAsAdmin(page, harness.server);
    await sideMenu(page).getByText('系统管理', { exact: true }).click();
    await sideMenu(page).getByText('系统监控', { exact: true }).click();

    const monitor = page.getByTestId('monitor-page');
    await seen(monitor.getByText('每 5 秒自动刷新，页面隐藏时暂停'));
    const node = monitor.getByTestId('monitor-node');
    await seen(node.getByText(/^v\d+\.\d+\.\d+$/));
    await expect.poll(() => node.getByTestId('monitor-rss').textContent()).toMatch(/\d+(\.\d)? MB/);
    // The charts draw (ECharts' SVG renderer) once two snapshots exist.
    await expect.poll(() => lineCount(monitor.getByTestId('monitor-chart-cpu'))).toBeGreaterThan(0);
    const firstReport = await node.getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/).textContent();
    // Auto-refresh: the next snapshot arrives without a reload.
    await expect
      .poll(() => node.getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/).textContent(), {
        timeout: 12_000,
      })
      .not.toBe(firstReport);

    await monitor.getByTestId('monitor-tab-database').click();
    const database = monitor.getByTestId('monitor-database');
    await seen(database.getByText('SQLite', { exact: true }));
    await expect
      .poll(() => database.getByTestId('monitor-db-size').textContent())
      .toMatch(/\d+(\.\d)? (KB|MB)/);
    await seen(database.getByText('不适用（SQLite 单连接）'));
    await seen(database.getByTestId('monitor-slow-queries').locator('code').first());

    await monitor.getByTestId('monitor-tab-mqtt').click();
    await seen(monitor.getByTestId('monitor-mqtt').getByText('未运行'));

    await monitor.getByTestId('monitor-tab-redis').click();
    await seen(
      monitor.getByText('未配置 Redis（REDIS_URL 未设置）：单节点运行，事件在进程内传递。'),
    );

    await monitor.getByTestId('monitor-tab-disk').click();
    await expect
      .poll(() => monitor.getByTestId('monitor-disk-free').textContent())
      .toMatch(/\d+(\.\d)? (MB|GB)/);
    await seen(monitor.getByText(harness.server.dataDir));

    await monitor.getByTestId('monitor-tab-trace').click();
    const trace = monitor.getByTestId('monitor-trace-table');
    await seen(trace.getByText('/api/sys/monitor/nodes').first());
    await seen(trace.getByRole('cell', { name: 'admin', exact: true }).first());
    // Never a query string (the console sends `_t` with every GET).
    expect(await trace.getByText(/\?/).count()).toBe(0);

    // Another user signs in elsewhere; the administrator ends that session.
    await addUser(harness.server, { ...OTHER, role: 'operator', orgCodes: [] });
    const otherToken = await loginToken(OTHER.username, OTHER.password);
    expect(await statusWith(otherToken)).toBe(200);
    await sideMenu(page).getByText('在线用户', { exact: true }).click();
    const online = page.getByTestId('online-user-page');
    await seen(online.getByRole('cell', { name: /^admin\s*当前会话$/ }));
    await online.getByTestId(`force-logout-${OTHER.username}`).click();
    await page.getByRole('button', { name: /确\s?定/ }).click();
    await seen(toast(page, '已强制退出'));
    await expect.poll(() => online.getByTestId(`force-logout-${OTHER.username}`).count()).toBe(0);
    expect(await statusWith(otherToken)).toBe(401);
  });

  it('reads in English at phone width', async () => {
    const storage = await adminStorage(harness.browser, harness.server);
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'en-US',
        { width: 390, height: 844, storageState: storage },
        '/system/monitor',
      ),
    );
    const monitor = page.getByTestId('monitor-page');
    await seen(monitor.getByText('Refreshes every 5 s; paused while the page is hidden'));
    await seen(monitor.getByTestId('monitor-node').getByText('Event-loop lag p99'));
    // RSS and heap of the one node, named in the legend.
    const memory = monitor.getByTestId('monitor-chart-memory');
    await expect.poll(() => lineCount(memory)).toBeGreaterThan(0);
    await seen(memory.locator('svg text').filter({ hasText: / RSS$/ }));
    await seen(memory.locator('svg text').filter({ hasText: / heap$/ }));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.goto('/system/online-user');
    await seen(page.getByTestId('online-user-page').getByText('This session'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
