/**
 * The multi-tab bar (spec section 2): pages open as tabs, survive a reload, close, and the
 * right-click menu refreshes or closes left, right and others; the home tab never closes.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { adminSession, gone, seen, settledPath, sideMenu, toast } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  // One signed-in window for the file (its cache keeps the tests quick)...
  ({ context, page } = await adminSession(browser, server));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

beforeEach(async () => {
  // ...and every test starts with only the home tab open: open tabs live in sessionStorage.
  await page.evaluate(() => sessionStorage.clear());
  await page.goto('/dashboard/analysis');
  await seen(page.getByTestId('dashboard-greeting'));
});

const HOME = '首页';
const LOGS = '后台日志';

function tabBar(): Locator {
  return page.getByTestId('tab-bar');
}

/** The tab headers' texts, left to right. */
async function tabTitles(): Promise<string[]> {
  // Each tab is a "tab" with the page title plus a ✕ that antd also gives the role, named 关闭标签页.
  const names = await tabBar().getByRole('tab').allInnerTexts();
  return names.map((t) => t.trim()).filter((t) => t !== '');
}

function tab(title: string): Locator {
  return tabBar().getByRole('tab', { name: title, exact: true });
}

/** The ✕ of a tab. */
function closeButton(title: string): Locator {
  return tabBar()
    .locator('.ant-tabs-tab')
    .filter({ has: page.getByRole('tab', { name: title, exact: true }) })
    .getByRole('tab', { name: '关闭标签页' });
}

/** Right-clicks a tab and picks an entry of its context menu. */
async function contextAction(title: string, action: string): Promise<void> {
  await tab(title).click({ button: 'right' });
  const item = page.getByRole('menuitem', { name: action, exact: true });
  await seen(item);
  await item.click();
  await gone(item);
}

async function openLogsFromMenu(): Promise<void> {
  await sideMenu(page).getByText('系统管理', { exact: true }).click();
  await sideMenu(page).getByText(LOGS, { exact: true }).click();
  await seen(page.getByTestId('log-page'));
}

describe('tabs', () => {
  it('opens each visited page as a tab, switches between them and keeps them on reload', async () => {
    expect(await tabTitles()).toEqual([HOME]);

    await openLogsFromMenu();
    expect(await settledPath(page, '/system/log')).toBe('/system/log');
    expect(await tabTitles()).toEqual([HOME, LOGS]);
    expect(await tab(LOGS).getAttribute('aria-selected')).toBe('true');

    await tab(HOME).click();
    expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
    await seen(page.getByTestId('dashboard-greeting'));
    expect(await tab(HOME).getAttribute('aria-selected')).toBe('true');

    await tab(LOGS).click();
    expect(await settledPath(page, '/system/log')).toBe('/system/log');
    await seen(page.getByTestId('log-page'));

    await page.reload();
    await seen(page.getByTestId('log-page'));
    expect(await tabTitles()).toEqual([HOME, LOGS]);
    expect(await tab(LOGS).getAttribute('aria-selected')).toBe('true');
  });

  it('refuses to close the home tab, closes another and moves to its neighbour', async () => {
    await openLogsFromMenu();
    await closeButton(HOME).click();
    await seen(toast(page, '首页不能关闭'));
    expect(await tabTitles()).toEqual([HOME, LOGS]);
    expect(await settledPath(page, '/system/log')).toBe('/system/log');

    await closeButton(LOGS).click();
    expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
    await seen(page.getByTestId('dashboard-greeting'));
    expect(await tabTitles()).toEqual([HOME]);

    // Home is now also the last tab: closing it is refused (with either rule's message) and the
    // page stays.
    await closeButton(HOME).click();
    await seen(toast(page, /^(首页不能关闭|这是最后一页，不能再关闭了啦)$/));
    expect(await tabTitles()).toEqual([HOME]);
    await seen(page.getByTestId('dashboard-greeting'));
  });

  it('closes the others from the context menu, and the choice survives a reload', async () => {
    await openLogsFromMenu();
    expect(await tabTitles()).toEqual([HOME, LOGS]);

    await contextAction(HOME, '关闭其他');
    expect(await tabTitles()).toEqual([HOME]);
    // The current page was closed, so the console shows the tab that was kept.
    expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
    await seen(page.getByTestId('dashboard-greeting'));

    await page.reload();
    await seen(page.getByTestId('dashboard-greeting'));
    expect(await tabTitles()).toEqual([HOME]);
  });

  it('closes left and right from the context menu; the home tab stays', async () => {
    await openLogsFromMenu();

    // Left of "Backend logs" is only home, which is not closable: nothing changes.
    await contextAction(LOGS, '关闭左侧');
    expect(await tabTitles()).toEqual([HOME, LOGS]);
    expect(await settledPath(page, '/system/log')).toBe('/system/log');

    // "Close others" on the logs tab keeps it and home.
    await contextAction(LOGS, '关闭其他');
    expect(await tabTitles()).toEqual([HOME, LOGS]);

    // Right of home is the current page: it closes and home is shown.
    await contextAction(HOME, '关闭右侧');
    expect(await tabTitles()).toEqual([HOME]);
    expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
    await seen(page.getByTestId('dashboard-greeting'));
  });

  it('refreshes a page from the context menu: its state starts over', async () => {
    await openLogsFromMenu();
    await page.getByTestId('log-page').getByRole('tab', { name: '操作日志' }).click();
    await seen(page.getByRole('columnheader', { name: '操作类型' }));
    await page.getByPlaceholder('日志内容、操作人或请求路径').fill('typed before refresh');

    await contextAction(LOGS, '刷新');
    await seen(page.getByTestId('log-page'));
    // Back on the first log tab with an empty filter: the page was mounted anew.
    expect(
      await page
        .getByTestId('log-page')
        .getByRole('tab', { name: '登录日志' })
        .getAttribute('aria-selected'),
    ).toBe('true');
    expect(await page.getByPlaceholder('日志内容、操作人或请求路径').inputValue()).toBe('');
    expect(await tabTitles()).toEqual([HOME, LOGS]);

    // Refreshing another tab from the context menu also shows it.
    await contextAction(HOME, '刷新');
    expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
    await seen(page.getByTestId('dashboard-greeting'));
  });
});
