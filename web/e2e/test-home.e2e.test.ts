/**
 * The spec's /test route (issue 16): /test redirects to /test/home, a diagnostics page for
 * administrators (current user, permissions, the menu the server sent, websocket, server
 * version); other users are not given it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession } from './support/api.js';
import { newConsolePage, type StorageState } from './support/browser.js';
import { adminStorage, seen, settledPath, submitLogin } from './support/console.js';
import { pageIn } from './support/language.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();
let storage: StorageState;

beforeAll(async () => {
  storage = await adminStorage(harness.browser, harness.server);
});

describe('/test', () => {
  it.each([
    ['zh-CN', '控制台诊断', '已连接', '服务端下发的菜单'],
    ['en-US', 'Console diagnostics', 'Connected', 'Menu sent by the server'],
  ])('shows an administrator the diagnostics page (%s)', async (locale, title, open, menu) => {
    const page = harness.track(
      await pageIn(harness.browser, harness.server, locale, { storageState: storage }, '/test'),
    );
    expect(await settledPath(page, '/test/home')).toBe('/test/home');
    const diagnostics = page.getByTestId('test-home');
    await seen(diagnostics.getByText(title, { exact: true }));
    await seen(diagnostics.getByText(menu, { exact: true }));
    expect(await page.getByTestId('test-home-user').innerText()).toContain('admin');
    await expect.poll(() => page.getByTestId('test-home-version').innerText()).toBe('0.1.0');
    await seen(page.getByTestId('test-home-socket').getByText(open, { exact: true }));
    await seen(page.getByTestId('test-home-permissions').getByText('account:role:delete'));
    await seen(page.getByTestId('test-home-menu').getByText('/account/role', { exact: true }));
  });

  it('is not there for an operator', async () => {
    const admin = apiSession(storage, harness.server);
    const roles = await api<{ id: string; roleCode: string }[]>(
      harness.server,
      admin,
      'GET',
      '/sys/role/queryall',
    );
    const operator = roles.find((r) => r.roleCode === 'operator');
    await api(harness.server, admin, 'POST', '/sys/user/add', {
      username: 'testop',
      password: 'Test-Operator-42',
      realname: 'Operator',
      roleIds: [operator?.id],
    });
    const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
    await page.goto('/user/login');
    await submitLogin(page, 'testop', 'Test-Operator-42');
    await page.waitForURL('**/dashboard/analysis');
    await page.goto('/test');
    expect(await settledPath(page, '/404')).toBe('/404');
  });
});
