/**
 * Organisational structure and companies (issue 6): an administrator builds a sub-department, adds
 * a member, hands the department part of the menu and a department role a part of that, and the
 * member sees exactly that extra menu; a platform administrator creates a company whose first
 * administrator signs in and sees only their own company.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newConsolePage } from './support/browser.js';
import { gone, loginAsAdmin, seen, sideMenu, submitLogin } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();

const MEMBER = { username: 'deptmember', realname: '成员甲', password: 'Member-Pass-77' };

/** Calls the API as admin, the way the console does (setup only: the flows use the console). */
async function adminApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const login = await fetch(`${harness.server.url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: harness.server.adminPassword }),
  });
  const token = ((await login.json()) as { result: { token: string } }).result.token;
  const res = await fetch(`${harness.server.url}/api${path}`, {
    method,
    headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { success: boolean; message: string; result: T };
  if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
  return json.result;
}

async function adminPage(): Promise<Page> {
  const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
  await loginAsAdmin(page, harness.server);
  return page;
}

/** Logs a user in through the form; users with one department land without the dialog. */
async function userPage(username: string, password: string): Promise<Page> {
  const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
  await page.goto('/user/login');
  await submitLogin(page, username, password);
  await page.waitForURL('**/dashboard/analysis');
  return page;
}

async function openMenu(page: Page, group: string, item: string): Promise<void> {
  await sideMenu(page).getByText(group, { exact: true }).click();
  await sideMenu(page).getByText(item, { exact: true }).click();
}

/** Ticks the checkbox of the tree row titled `title` inside `scope`. */
async function tick(scope: Locator, title: string): Promise<void> {
  await scope
    .locator('.ant-tree-treenode')
    .filter({ has: scope.page().locator('.ant-tree-title', { hasText: new RegExp(`^${title}$`) }) })
    .locator('.ant-tree-checkbox')
    .click();
}

/** A multiple select stays open after a pick; clicking the dialog's title closes it. */
async function closeDropdown(dialog: Locator): Promise<void> {
  await dialog.locator('.ant-modal-title').click();
  await gone(dialog.page().locator('.ant-select-dropdown:visible'));
}

async function confirm(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: /^(确 定|OK)$/ }).click();
  await gone(dialog);
}

/** The texts of the side menu's entries, top level and opened groups alike. */
async function menuTexts(page: Page): Promise<string[]> {
  const texts = await sideMenu(page).getByRole('menuitem').allInnerTexts();
  return texts.map((t) => t.trim());
}

describe('organisational structure', () => {
  beforeAll(async () => {
    const roles = await adminApi<{ id: string; roleCode: string }[]>('GET', '/sys/role/queryall');
    const operator = roles.find((r) => r.roleCode === 'operator');
    await adminApi('POST', '/sys/user/add', {
      ...MEMBER,
      roleIds: operator ? [operator.id] : [],
    });
  });

  it('gives a member of a department role exactly the menu of that role', async () => {
    const page = await adminPage();
    await openMenu(page, '账户权限', '组织机构');
    const departPage = page.getByTestId('depart-page');
    await seen(departPage.getByTestId('depart-node-A01A01'));

    // A sub-department under 研发部.
    await departPage.getByTestId('depart-node-A01A01').click();
    await departPage.getByTestId('depart-add-child').click();
    const form = page.getByRole('dialog', { name: '添加下级' });
    await form.getByLabel('部门名称').fill('测试组');
    await confirm(form);
    await seen(departPage.getByTestId('depart-node-A01A01A01'));
    await seen(departPage.getByText('测试组 · A01A01A01'));

    // The member.
    await departPage.getByTestId('depart-tab-members').click();
    await departPage.getByTestId('depart-add-member').click();
    const add = page.getByRole('dialog', { name: '添加已有用户' });
    await add.getByTestId('depart-member-picker').click();
    await page.keyboard.type('deptmember');
    await page
      .locator('.ant-select-dropdown:visible')
      .getByTitle('成员甲 (deptmember)', { exact: true })
      .click();
    await closeDropdown(add);
    await confirm(add);
    await seen(departPage.getByTestId('depart-members').getByRole('cell', { name: 'deptmember' }));

    // The department may hand out backend logs and positions...
    await departPage.getByTestId('depart-tab-permission').click();
    const ceiling = departPage.getByTestId('depart-permission-tree');
    await seen(ceiling.locator('.ant-tree-title', { hasText: '后台日志' }));
    await tick(ceiling, '后台日志');
    await tick(ceiling, '职务维护');
    await ceiling.getByTestId('depart-permission-tree-save').click();
    await seen(page.locator('.ant-message-notice').filter({ hasText: '保存成功' }));

    // ...and its role gets the logs only.
    await departPage.getByTestId('depart-tab-roles').click();
    await departPage.getByTestId('depart-role-add').click();
    const roleForm = page.getByRole('dialog', { name: '添加部门角色' });
    await roleForm.getByLabel('角色名称').fill('日志查看');
    await roleForm.getByLabel('角色编码').fill('log_viewer');
    await confirm(roleForm);
    await seen(departPage.getByTestId('depart-roles').getByRole('cell', { name: 'log_viewer' }));

    await departPage.getByTestId('depart-role-authorize').click();
    const grant = page.getByRole('dialog', { name: '角色授权：日志查看' });
    const roleTree = grant.getByTestId('depart-role-permission-tree');
    await seen(roleTree.locator('.ant-tree-title', { hasText: '职务维护' }));
    // Only what the department holds is offered.
    expect(await roleTree.locator('.ant-tree-title', { hasText: '组织机构' }).count()).toBe(0);
    await tick(roleTree, '后台日志');
    await roleTree.getByTestId('depart-role-permission-tree-save').click();
    await gone(grant);

    await departPage.getByTestId('depart-role-users').click();
    const users = page.getByRole('dialog', { name: '分配用户：日志查看' });
    await users.getByTestId('depart-role-user-picker').click();
    await page
      .locator('.ant-select-dropdown:visible')
      .getByTitle('成员甲 (deptmember)', { exact: true })
      .click();
    await closeDropdown(users);
    await confirm(users);

    const member = await userPage(MEMBER.username, MEMBER.password);
    await seen(sideMenu(member).getByText('系统管理', { exact: true }));
    await sideMenu(member).getByText('系统管理', { exact: true }).click();
    await seen(sideMenu(member).getByText('后台日志', { exact: true }));
    // The Operator role's device, alarm and map pages, and the log page of the department role.
    expect(await menuTexts(member)).toEqual([
      '首页',
      '设备管理',
      '警告管理',
      '基础数据',
      '系统管理',
      '后台日志',
    ]);
    await sideMenu(member).getByText('后台日志', { exact: true }).click();
    await seen(member.getByTestId('log-page'));
  });

  it('refuses to delete a department that still has members, saying why', async () => {
    const page = await adminPage();
    await page.goto('/account/depart');
    const departPage = page.getByTestId('depart-page');
    await departPage.getByTestId('depart-node-A01A01A01').click();
    await departPage.getByTestId('depart-delete').click();
    await page
      .getByRole('button', { name: /^(确 定|OK)$/ })
      .last()
      .click();
    await seen(page.getByText('该部门下还有 1 名成员，请先移除成员'));
    await seen(departPage.getByTestId('depart-node-A01A01A01'));
  });
});

describe('companies', () => {
  it('creates a company whose administrator signs in and sees only their company', async () => {
    const page = await adminPage();
    await openMenu(page, '系统管理', '客户管理');
    const companyPage = page.getByTestId('company-page');
    await companyPage.getByTestId('company-add').click();
    const form = page.getByRole('dialog', { name: '新增客户' });
    await form.getByLabel('客户名称').fill('伽马科技');
    await form.getByLabel('客户编码').fill('gamma');
    await form.getByLabel('用户名').fill('gammaadmin');
    await form.getByLabel('姓名').fill('伽马管理员');
    await form.getByLabel('初始密码').fill('password123');
    await form.getByRole('button', { name: /^(确 定|OK)$/ }).click();
    await seen(form.getByTestId('company-form-error').getByText('密码：过于常见，请换一个'));
    await form.getByLabel('初始密码').fill('Gamma-Admin-77');
    await confirm(form);
    const row = companyPage.locator('.ant-table-row').filter({ hasText: 'gamma' });
    await seen(row.getByText('伽马科技'));
    await row.getByTestId('company-admins-open').click();
    await seen(page.getByTestId('company-admins').getByRole('cell', { name: 'gammaadmin' }));

    const gamma = await userPage('gammaadmin', 'Gamma-Admin-77');
    await sideMenu(gamma).getByText('系统管理', { exact: true }).click();
    await seen(sideMenu(gamma).getByText('后台日志', { exact: true }));
    expect(await menuTexts(gamma)).not.toContain('客户管理');
    await gamma.goto('/account/depart');
    const tree = gamma.getByTestId('depart-tree');
    await seen(tree.getByText('伽马科技'));
    expect(await tree.locator('.ant-tree-treenode').count()).toBe(1);
    await gamma.goto('/system/company');
    await seen(gamma.getByText(/404|抱歉/).first());
    expect(await gamma.getByTestId('company-page').count()).toBe(0);
  });
});
