/**
 * What a new user trips over (issue 16): a user whose roles grant no page gets a page that says
 * whom to ask instead of a failed login; deleting a role says how many users hold it; ticking a
 * menu group in the role tree grants its pages.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import type { StorageState } from './support/browser.js';
import { adminStorage, seen, signedInPage, submitLogin, toast } from './support/console.js';
import { pageIn } from './support/language.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();
const PASSWORD = 'First-Run-Pass-42';
let storage: StorageState;
let admin: ApiSession;

beforeAll(async () => {
  storage = await adminStorage(harness.browser, harness.server);
  admin = apiSession(storage, harness.server);
});

async function addUser(username: string, roleIds: string[] = []): Promise<void> {
  await api(harness.server, admin, 'POST', '/sys/user/add', {
    username,
    password: PASSWORD,
    realname: `${username} 实名`,
    roleIds,
  });
}

async function addRole(roleCode: string, roleName: string): Promise<string> {
  const role = await api<{ id: string }>(harness.server, admin, 'POST', '/sys/role/add', {
    roleCode,
    roleName,
    roleNameEn: `${roleName} en`,
  });
  return role.id;
}

async function loginAs(username: string, locale: string, width = 1440): Promise<Page> {
  const page = harness.track(
    await pageIn(harness.browser, harness.server, locale, { width }, '/user/login'),
  );
  await submitLogin(page, username, PASSWORD);
  return page;
}

describe('a user whose roles grant no page', () => {
  it.each([
    ['zh-CN', '您的账号还没有可以使用的页面', '请联系贵公司的管理员为您分配角色'],
    [
      'en-US',
      'Your account has no pages yet',
      "Ask your company's administrator to give you a role",
    ],
  ])('stays signed in on a page that says whom to ask (%s)', async (locale, heading, ask) => {
    const username = `norole${locale.slice(0, 2)}`;
    await addUser(username);
    const page = await loginAs(username, locale);
    const noConsole = page.getByTestId('no-console-page');
    await seen(noConsole.getByText(heading));
    await seen(noConsole.getByText(ask));
    expect(await page.getByTestId('no-console-user').innerText()).toContain(username);
    expect(await page.getByText('permissions must be a non-null array').count()).toBe(0);
    await seen(noConsole.getByTestId('lang-switch'));

    await page.getByTestId('no-console-logout').click();
    await page.waitForURL('**/user/login**');
    await seen(page.getByPlaceholder(/^(用户名|Username)$/));
  });

  it('is shown at 375 px without a horizontal scrollbar', async () => {
    await addUser('norolenarrow');
    const page = await loginAs('norolenarrow', 'zh-CN', 375);
    await seen(page.getByTestId('no-console-logout'));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
  });
});

describe('role administration', () => {
  it.each([
    ['zh-CN', '有 1 个用户拥有该角色'],
    ['en-US', '1 user(s) hold it'],
  ])('the delete confirmation says how many users hold the role (%s)', async (locale, warning) => {
    const code = `held${locale.slice(0, 2)}`;
    const roleId = await addRole(code, `持有${locale.slice(0, 2)}`);
    await addUser(`holder${locale.slice(0, 2)}`, [roleId]);
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        locale,
        { storageState: storage },
        '/account/role',
      ),
    );
    const row = page.getByTestId('role-page').locator('.ant-table-row').filter({ hasText: code });
    await seen(row);
    await row.getByTestId('role-delete').click();
    await seen(page.locator('.ant-popconfirm').getByText(warning));
  });

  it('ticking a menu group grants its pages', async () => {
    await addRole('grouptick', '分组勾选');
    const page = harness.track(
      await signedInPage(harness.browser, harness.server, storage, {}, '/account/role'),
    );
    const row = page
      .getByTestId('role-page')
      .locator('.ant-table-row')
      .filter({ hasText: 'grouptick' });
    await row.getByTestId('role-authorize-open').click();
    const drawer = page.getByTestId('role-authorize');
    const node = (title: string) =>
      drawer.locator('.ant-tree-treenode').filter({
        has: page.locator('.ant-tree-title span', { hasText: new RegExp(`^${title}$`) }),
      });
    await seen(node('设备管理'));
    await node('设备管理').locator('.ant-tree-checkbox').first().click();
    for (const title of ['设备管理', '设备列表', 'Token密钥', '设备分组']) {
      await expect
        .poll(() => node(title).first().locator('.ant-tree-checkbox').first().getAttribute('class'))
        .toContain('ant-tree-checkbox-checked');
    }
    await drawer.getByTestId('role-authorize-save').click();
    await seen(toast(page, '保存成功'));
  });
});

describe('a frozen user', () => {
  it.each([
    ['zh-CN', '该用户已冻结'],
    ['en-US', 'This account is frozen'],
  ])('is told on the login page that the account is frozen (%s)', async (locale, frozen) => {
    const username = `frozen${locale.slice(0, 2)}`;
    const roles = await api<{ id: string; roleCode: string }[]>(
      harness.server,
      admin,
      'GET',
      '/sys/role/queryall',
    );
    await addUser(
      username,
      roles.filter((r) => r.roleCode === 'operator').map((r) => r.id),
    );
    const page = await loginAs(username, locale);
    await page.waitForURL('**/dashboard/analysis');
    const users = await api<{ records: { id: string }[] }>(
      harness.server,
      admin,
      'GET',
      '/sys/user/list',
      { username },
    );
    await api(harness.server, admin, 'PUT', '/sys/user/frozenBatch', {
      ids: users.records[0]?.id,
      status: '2',
    });
    await page.reload();
    await page.waitForURL('**/user/login**');
    await seen(page.getByTestId('login-error').getByText(frozen), 15_000);
  });
});
