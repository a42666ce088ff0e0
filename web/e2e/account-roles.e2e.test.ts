/**
 * Roles and login accounts (issue 6): an administrator creates a role holding part of the menu and
 * part of its buttons, gives it to a new login account, and that user sees exactly that menu and
 * those buttons; granting the role more reaches the signed-in user's menu without logging out.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newConsolePage } from './support/browser.js';
import {
  gone,
  loginAsAdmin,
  opened,
  seen,
  selectOption,
  sideMenu,
  submitLogin,
} from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();

const USER = { username: 'roleuser', realname: '角色用户', password: 'Role-User-Pass-7' };

/**
 * Opens a page of a menu group as a user does: the group is clicked open only when the page is not
 * showing (clicking an open group folds it; whether it is still open depends on what the console
 * re-rendered since).
 */
async function openMenu(page: Page, group: string, item: string): Promise<void> {
  const entry = sideMenu(page).getByText(item, { exact: true });
  if (!(await entry.isVisible())) await sideMenu(page).getByText(group, { exact: true }).click();
  await entry.click();
}

/** Ticks the checkbox of the tree row titled `title` inside `scope`. */
async function tick(scope: Locator, title: string): Promise<void> {
  await scope
    .locator('.ant-tree-treenode')
    .filter({
      has: scope.page().locator('.ant-tree-title span', { hasText: new RegExp(`^${title}$`) }),
    })
    .locator('.ant-tree-checkbox')
    .first()
    .click();
}

async function confirm(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: /^(确 定|OK)$/ }).click();
  await gone(dialog);
}

/** The labels of the side menu's entries: items, groups and the pages of opened groups. */
async function menuTexts(page: Page): Promise<string[]> {
  const texts = await sideMenu(page).locator('.nav-menu-label').allInnerTexts();
  return texts.map((t) => t.trim());
}

/** Opens the role's authorisation drawer, ticks the titles, saves and closes it. */
async function authorize(page: Page, roleName: string, titles: string[]): Promise<void> {
  const row = page.getByTestId('role-page').locator('.ant-table-row').filter({ hasText: roleName });
  await row.getByTestId('role-authorize-open').click();
  const drawer = page.getByTestId('role-authorize');
  // Ticked once the drawer has stopped sliding in: a click aimed while it moves can miss a box.
  await opened(drawer);
  await seen(drawer.locator('.ant-tree-title', { hasText: '登录账户' }));
  for (const title of titles) await tick(drawer, title);
  await drawer.getByTestId('role-authorize-save').click();
  await seen(page.locator('.ant-message-notice').filter({ hasText: '保存成功' }));
  await drawer.getByRole('button', { name: /^(取 消|Cancel)$/ }).click();
  await gone(drawer);
}

describe('roles and login accounts', () => {
  it('gives a user of a new role exactly its menu and buttons, and refreshes it live', async () => {
    const admin = harness.track(await newConsolePage(harness.browser, harness.server.url));
    await loginAsAdmin(admin, harness.server);

    // A role with the home page, the login-account page and only its "add" button (ticking a button
    // ticks the pages above it, not its siblings).
    await openMenu(admin, '账户权限', '角色管理');
    await admin.getByTestId('role-add').click();
    const roleForm = admin.getByRole('dialog', { name: '新建角色' });
    await opened(roleForm);
    await roleForm.locator('#role-code').fill('viewer');
    await roleForm.locator('#role-name').fill('查看员');
    await confirm(roleForm);
    await seen(admin.getByTestId('role-page').getByRole('cell', { name: 'viewer' }));
    await authorize(admin, '查看员', ['首页', '添加用户']);

    // A login account holding it.
    await sideMenu(admin).getByText('登录账户', { exact: true }).click();
    await admin.getByTestId('user-add').click();
    const userForm = admin.getByRole('dialog', { name: '添加用户' });
    await opened(userForm);
    await userForm.locator('#user-username').fill(USER.username);
    await userForm.locator('#user-password').fill(USER.password);
    await userForm.locator('#user-realname').fill(USER.realname);
    await selectOption(
      admin,
      userForm.locator('.ant-select').filter({ has: admin.locator('#user-roles') }),
      '查看员',
    );
    await confirm(userForm);
    await seen(admin.getByTestId('user-page').getByRole('cell', { name: USER.username }));

    // The user sees that menu and that button, nothing more.
    const member = harness.track(await newConsolePage(harness.browser, harness.server.url));
    await member.goto('/user/login');
    await submitLogin(member, USER.username, USER.password);
    await member.waitForURL('**/dashboard/analysis');
    await openMenu(member, '账户权限', '登录账户');
    await seen(member.getByTestId('user-page'));
    expect(await menuTexts(member)).toEqual(['首页', '账户权限', '登录账户']);
    await seen(member.getByTestId('user-add'));
    expect(await member.getByTestId('user-import').count()).toBe(0);
    expect(await member.getByTestId('user-export').count()).toBe(0);
    expect(await member.getByTestId('user-edit').count()).toBe(0);

    // Granting the role management page (with its edit button only) reaches the signed-in user on
    // their next request.
    await openMenu(admin, '账户权限', '角色管理');
    await authorize(admin, '查看员', ['编辑角色']);
    await member.getByTestId('user-page').getByLabel('reload').click();
    await seen(sideMenu(member).getByText('角色管理', { exact: true }));
    expect(await menuTexts(member)).toEqual(['首页', '账户权限', '角色管理', '登录账户']);
    await sideMenu(member).getByText('角色管理', { exact: true }).click();
    await seen(member.getByTestId('role-page'));
    expect(await member.getByTestId('role-add').count()).toBe(0);
  });
});
