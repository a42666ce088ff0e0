/**
 * A phone-sized window (375 px, below the 768 px breakpoint of spec section 9): no side bar, the
 * menu opens as a drawer, navigation works and the pages fit the width.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newConsolePage } from './support/browser.js';
import {
  chooseDepartAfterLogin,
  gone,
  loginForm,
  seen,
  settledPath,
  submitLogin,
} from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const WIDTH = 375;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ context, page } = await newConsolePage(browser, server.url, { width: WIDTH, height: 812 }));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** Whether the page scrolls sideways (content wider than the window). */
function overflowsSideways(): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

describe('at 375 px', () => {
  it('logs in on a login page that fits the screen', async () => {
    await page.goto('/user/login');
    await seen(loginForm(page).username);
    const box = await loginForm(page).submit.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= WIDTH).toBe(true);
    expect(await overflowsSideways()).toBe(false);

    await submitLogin(page, 'admin', server.adminPassword);
    await page.waitForURL('**/dashboard/analysis');
    await chooseDepartAfterLogin(page);
    await seen(page.getByTestId('dashboard-greeting'));
  });

  it('hides the side bar, shows the dashboard in one column and fits the width', async () => {
    expect(await page.getByTestId('sider').count()).toBe(0);
    await seen(page.getByTestId('menu-toggle'));
    await seen(page.getByTestId('dashboard-account'));
    // The three visit statistics stack: each card spans the content's width.
    const cards = page.locator('[data-testid^="stat-"]');
    expect(await cards.count()).toBe(3);
    const first = await cards.nth(0).boundingBox();
    const second = await cards.nth(1).boundingBox();
    expect(second && first && second.y > first.y).toBe(true);
    // The four device figures go two by two.
    const figures = page.locator('[data-testid^="device-stat-"]');
    expect(await figures.count()).toBe(4);
    const [total, online, offline] = await Promise.all(
      [0, 1, 2].map((i) => figures.nth(i).boundingBox()),
    );
    expect(total?.y).toBe(online?.y);
    expect((offline?.y ?? 0) > (total?.y ?? 0)).toBe(true);
    expect(await overflowsSideways()).toBe(false);
  });

  it('opens the menu as a drawer, navigates, and the drawer closes', async () => {
    const toggle = page.getByRole('button', { name: '展开/收起菜单' });
    await toggle.click();
    const drawer = page.getByTestId('menu-drawer');
    await seen(drawer);
    await seen(drawer.getByRole('menuitem', { name: '首页' }));

    await drawer.getByText('系统管理', { exact: true }).click();
    await drawer.getByText('后台日志', { exact: true }).click();
    await gone(drawer);
    expect(await settledPath(page, '/system/log')).toBe('/system/log');
    await seen(page.getByTestId('log-page').getByRole('tab', { name: '登录日志' }));
    await seen(page.getByTestId('log-page').getByRole('cell', { name: 'admin' }));

    // Back home through the drawer; a tap outside it also closes it.
    await toggle.click();
    await seen(drawer);
    await page.mouse.click(WIDTH - 20, 400);
    await gone(drawer);
    await toggle.click();
    await drawer.getByRole('menuitem', { name: '首页' }).click();
    await gone(drawer);
    expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
    await seen(page.getByTestId('dashboard-greeting'));
  });

  it('keeps the user menu and logout reachable in the header', async () => {
    await page.getByTestId('user-menu').click();
    await seen(page.getByRole('menuitem', { name: '修改密码' }));
    await seen(page.getByRole('menuitem', { name: '切换部门' }));
    await page.keyboard.press('Escape');
    const logout = page.getByRole('button', { name: '退出登录' });
    const box = await logout.boundingBox();
    expect(box && box.x + box.width <= WIDTH).toBe(true);
  });
});
