/**
 * Language and layout settings (spec sections 2, 3 and 9): English renames the login page and the
 * menu, the theme colour and menu style apply at once and survive a reload, as do layout and tabs.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newConsolePage, type StorageState } from './support/browser.js';
import {
  adminStorage,
  computedStyle,
  gone,
  loginForm,
  opened,
  seen,
  sideMenu,
  signedInPage,
  toast,
} from './support/console.js';
import { useConsoleHarness } from './support/harness.js';

const harness = useConsoleHarness();
let storage: StorageState;
/** The built language catalogs by URL path: `zh-CN` is the shell's, `system-log/zh-CN` a feature's. */
let catalogChunks: Map<string, string>;

beforeAll(async () => {
  storage = await adminStorage(harness.browser, harness.server);
  const manifest = JSON.parse(
    readFileSync(new URL('../dist/.vite/manifest.json', import.meta.url), 'utf8'),
  ) as Record<string, { file: string }>;
  catalogChunks = new Map(
    Object.entries(manifest).flatMap(([source, chunk]) => {
      const catalog = /^src\/(?:app\/i18n\/|features\/([\w-]+\/)messages\/)(zh-CN|en-US)\.ts$/;
      const [, feature = '', language] = catalog.exec(source) ?? [];
      return language ? [[`/${chunk.file}`, `${feature}${language}`] as const] : [];
    }),
  );
});

/** The language catalogs the page downloads from now on, in the order it asks for them. */
function catalogsFetched(page: Page): string[] {
  const catalogs: string[] = [];
  page.on('request', (request) => {
    const catalog = catalogChunks.get(new URL(request.url()).pathname);
    if (catalog) catalogs.push(catalog);
  });
  return catalogs;
}

/** The shell's catalogs among them (features' catalogs are named `feature/language`). */
const shellCatalogs = (catalogs: string[]) => catalogs.filter((c) => !c.includes('/'));

/** A page of the console, signed in as admin, in a context of its own. */
async function signedIn(): Promise<Page> {
  return harness.track(await signedInPage(harness.browser, harness.server, storage));
}

/** The sign-in page's own notice (it shows no antd message: antd loads after sign-in). */
const signInNotice = (page: Page, text: string) =>
  page.getByTestId('signin-notice').filter({ hasText: text });

/** Opens the 中文 / English switch (a hover menu) and picks a language. */
async function switchLanguage(page: Page, scope: Locator, language: '中文' | 'English') {
  await scope.getByTestId('lang-switch').hover();
  const item = page.getByRole('menuitem', { name: language, exact: true });
  await seen(item);
  await item.click();
}

/** Opens the settings drawer from the user menu (系统设置 / Settings). */
async function openSettings(page: Page, label = '系统设置'): Promise<Locator> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: label }).click();
  const drawer = page.getByRole('dialog', { name: label });
  // The drawer slides in for a few frames after it shows: a switch clicked then can be missed.
  await opened(drawer);
  return drawer;
}

/** A settings switch by the label of its row. */
function settingSwitch(drawer: Locator, label: string): Locator {
  return drawer.getByRole('listitem').filter({ hasText: label }).getByRole('switch');
}

async function closeSettings(page: Page, drawer: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await gone(drawer);
}

/** Top-level side menu entries as the user reads them. */
async function menuLabels(page: Page): Promise<string[]> {
  const items = sideMenu(page).locator(':scope > li');
  return (await items.allInnerTexts()).map((t) => t.trim()).filter((t) => t !== '');
}

/** The 系统管理 group as the platform administrator sees it in English. */
const SYSTEM_MENU_EN = [
  'System management',
  'Backend logs',
  'Companies',
  'Announcements',
  'Check rules',
  'Dictionaries',
  'Scheduled jobs',
  'Message templates',
  'Sent messages',
  'Webhooks',
  'File storage',
  'System monitor',
  'Online users',
].join('\n');

describe('language', () => {
  it('switches the login page to English and keeps it after a reload', async () => {
    const page = harness.track(await newConsolePage(harness.browser, harness.server.url));
    // A visitor downloads the catalogs of the language they read, the other one on a switch. The
    // only feature's catalog the login route may fetch is the home page's, which it preloads.
    const catalogs = catalogsFetched(page);
    await page.goto('/user/login');
    await seen(page.getByText('物联网设备远程管理平台'));
    await seen(page.getByRole('tab', { name: '账号密码登录' }));
    expect(shellCatalogs(catalogs)).toEqual(['zh-CN']);
    expect(catalogs.filter((c) => c !== 'zh-CN' && c !== 'dashboard/zh-CN')).toEqual([]);

    await switchLanguage(page, page.getByTestId('login-page'), 'English');
    await seen(signInNotice(page, 'switch language success'));
    await seen(page.getByText('Remote management platform for IoT devices'));
    await seen(page.getByRole('tab', { name: 'Account login' }));
    await seen(page.getByPlaceholder('Username', { exact: true }));
    await seen(page.getByPlaceholder('Password', { exact: true }));
    await seen(page.getByRole('button', { name: 'Log in' }));
    await seen(page.getByText('Remember username'));
    expect(await page.getByText('物联网设备远程管理平台').count()).toBe(0);

    await loginForm(page).submit.click();
    await seen(page.getByText('Please enter your username'));

    expect(shellCatalogs(catalogs)).toEqual(['zh-CN', 'en-US']);

    const beforeReload = catalogs.length;
    await page.reload();
    await seen(page.getByRole('button', { name: 'Log in' }));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect(shellCatalogs(catalogs)).toEqual(['zh-CN', 'en-US', 'en-US']);
    expect(catalogs.slice(beforeReload).filter((c) => !c.endsWith('en-US'))).toEqual([]);

    await switchLanguage(page, page.getByTestId('login-page'), '中文');
    await seen(signInNotice(page, '中文切换成功'));
    await seen(page.getByRole('button', { name: '登 录' }));
  });

  it('renames the menu, tabs and breadcrumb in English, also after a reload', async () => {
    const page = await signedIn();
    await seen(page.getByTestId('dashboard-greeting'));
    // A page brings its feature's texts in the reader's language; a switch fetches those of the
    // pages opened so far in the new language, and a reload only the reader's language.
    const catalogs = catalogsFetched(page);
    await sideMenu(page).getByText('系统管理', { exact: true }).click();
    await sideMenu(page).getByText('后台日志', { exact: true }).click();
    await seen(page.getByTestId('log-page'));
    expect(catalogs).toEqual(['system-log/zh-CN']);
    expect(await menuLabels(page)).toEqual([
      '首页',
      '设备管理',
      '警告管理',
      '基础数据',
      '在线表单',
      '账户权限',
      [
        '系统管理',
        '后台日志',
        '客户管理',
        '通告管理',
        '编码校验规则',
        '数据字典',
        '定时任务',
        '消息模板',
        '消息记录',
        'Webhook',
        '文件管理',
        '系统监控',
        '在线用户',
      ].join('\n'),
    ]);

    await switchLanguage(page, page.getByTestId('header'), 'English');
    await seen(toast(page, 'switch language success'));
    await seen(sideMenu(page).getByText('Home', { exact: true }));
    expect(await menuLabels(page)).toEqual([
      'Home',
      'Device Management',
      'Alarms',
      'Base data',
      'Online forms',
      'Account permissions',
      SYSTEM_MENU_EN,
    ]);
    // The page titles follow: tabs, breadcrumb, the log page's own tabs and the header.
    const tabBar = page.getByTestId('tab-bar');
    await seen(tabBar.getByRole('tab', { name: 'Backend logs', exact: true }));
    await seen(tabBar.getByRole('tab', { name: 'Home', exact: true }));
    await seen(page.getByTestId('breadcrumb').getByText('System management'));
    await seen(page.getByTestId('log-page').getByRole('tab', { name: 'Login log' }));
    await seen(page.getByRole('button', { name: 'Log out' }));
    expect(await page.getByText('后台日志').count()).toBe(0);
    // The home page shows the alarm feature's card, so it brings that feature's texts too.
    expect(catalogs.slice(1).sort()).toEqual([
      'alarm/en-US',
      'dashboard/en-US',
      'en-US',
      'system-log/en-US',
    ]);

    const beforeReload = catalogs.length;
    await page.reload();
    await seen(page.getByTestId('log-page').getByRole('tab', { name: 'Login log' }));
    expect(catalogs.slice(beforeReload)).toEqual(
      expect.arrayContaining(['en-US', 'system-log/en-US']),
    );
    expect(catalogs.slice(beforeReload).filter((c) => !c.endsWith('en-US'))).toEqual([]);
    expect(await menuLabels(page)).toEqual([
      'Home',
      'Device Management',
      'Alarms',
      'Base data',
      'Online forms',
      'Account permissions',
      SYSTEM_MENU_EN,
    ]);

    await page.goto('/dashboard/analysis');
    await seen(page.getByText('My account'));
    await seen(page.getByText("Today's visits"));

    await switchLanguage(page, page.getByTestId('header'), '中文');
    await seen(toast(page, '中文切换成功'));
    await seen(sideMenu(page).getByText('首页', { exact: true }));
    await seen(page.getByText('我的账号'));
  });

  it('shows every English menu title whole or with an ellipsis, never under its arrow', async () => {
    const page = await signedIn();
    await page.evaluate(() => localStorage.setItem('language', 'en-US'));
    await page.reload();
    await seen(sideMenu(page).getByText('System management'));
    for (const group of await sideMenu(page).locator('.ant-menu-submenu-title').all()) {
      const title = group.getByText(/\S/).last();
      const text = await title.innerText();
      const arrow = await group.locator('.ant-menu-submenu-arrow').boundingBox();
      const label = await title.boundingBox();
      const overlap = (label?.x ?? 0) + (label?.width ?? 0) - (arrow?.x ?? 0);
      expect(
        overlap,
        `"${text}" runs ${overlap.toFixed(0)} px under its arrow`,
      ).toBeLessThanOrEqual(0);
    }
  });
});

describe('settings drawer', () => {
  it('changes the theme colour at once and keeps it after a reload', async () => {
    const page = await signedIn();
    // The selected menu item is painted in the primary colour.
    const selected = sideMenu(page).getByRole('menuitem', { name: '首页' });
    await seen(selected);
    expect(await computedStyle(selected, 'background-color')).toBe('rgb(24, 144, 255)');

    const drawer = await openSettings(page);
    const dust = drawer.getByRole('button', { name: '薄暮' });
    expect(await dust.getAttribute('aria-pressed')).toBe('false');
    await dust.click();
    expect(await dust.getAttribute('aria-pressed')).toBe('true');
    await closeSettings(page, drawer);
    await expect.poll(() => computedStyle(selected, 'background-color')).toBe('rgb(245, 34, 45)');

    await page.reload();
    await seen(page.getByTestId('dashboard-greeting'));
    expect(await computedStyle(selected, 'background-color')).toBe('rgb(245, 34, 45)');
    const drawerAgain = await openSettings(page);
    expect(
      await drawerAgain.getByRole('button', { name: '薄暮' }).getAttribute('aria-pressed'),
    ).toBe('true');

    // Reset brings the default back.
    await drawerAgain.getByRole('button', { name: '恢复默认' }).click();
    await closeSettings(page, drawerAgain);
    await expect.poll(() => computedStyle(selected, 'background-color')).toBe('rgb(24, 144, 255)');
  });

  it('switches between a dark and a light menu, and keeps the choice after a reload', async () => {
    const page = await signedIn();
    const sider = page.getByTestId('sider');
    await seen(sider);
    const darkBackground = await computedStyle(sider, 'background-color');
    expect(darkBackground).toBe('rgb(0, 21, 41)');

    const drawer = await openSettings(page);
    await drawer.getByText('亮色菜单').click();
    await closeSettings(page, drawer);
    await expect.poll(() => computedStyle(sider, 'background-color')).toBe('rgb(255, 255, 255)');
    const homeItem = sideMenu(page).getByRole('menuitem', { name: '首页' });
    // Light menu: the selected item is a light tint with the text in the primary colour.
    expect(await computedStyle(homeItem, 'color')).toBe('rgb(24, 144, 255)');

    await page.reload();
    await seen(page.getByTestId('dashboard-greeting'));
    expect(await computedStyle(sider, 'background-color')).toBe('rgb(255, 255, 255)');

    const again = await openSettings(page);
    await again.getByText('暗色菜单').click();
    await closeSettings(page, again);
    await expect.poll(() => computedStyle(sider, 'background-color')).toBe(darkBackground);
  });

  it('switches to the top menu and hides the tab bar, both kept after a reload', async () => {
    const page = await signedIn();
    await seen(page.getByTestId('sider'));
    await seen(page.getByTestId('tab-bar'));

    const drawer = await openSettings(page);
    await drawer.getByText('顶部栏导航').click();
    await drawer
      .getByRole('listitem')
      .filter({ hasText: '多页签模式' })
      .getByRole('switch')
      .click();
    await closeSettings(page, drawer);

    const header = page.getByTestId('header');
    await seen(header.getByRole('menuitem', { name: '首页' }));
    await gone(page.getByTestId('sider'));
    await gone(page.getByTestId('tab-bar'));

    await page.reload();
    await seen(page.getByTestId('dashboard-greeting'));
    await seen(header.getByRole('menuitem', { name: '首页' }));
    expect(await page.getByTestId('sider').count()).toBe(0);
    expect(await page.getByTestId('tab-bar').count()).toBe(0);

    // The top menu navigates like the side menu. The content is fixed-width, so its fifth group
    // (系统管理) is folded into the menu's overflow (…) beside the search box. Each popup is
    // hovered into once it has stopped moving, as a user's pointer would be.
    const popupOf = (item: Locator) =>
      page.locator('.ant-menu-submenu-popup').filter({ has: item }).last();
    const systemGroup = page.getByRole('menuitem', { name: '系统管理' });
    const logItem = page.getByRole('menuitem', { name: '后台日志' });
    await header.locator('.ant-menu-overflow-item-rest').hover();
    await opened(popupOf(systemGroup));
    await systemGroup.hover();
    await opened(popupOf(logItem));
    await logItem.click();
    await seen(page.getByTestId('log-page'));
    expect(new URL(page.url()).pathname).toBe('/system/log');

    const again = await openSettings(page);
    await again.getByRole('button', { name: '恢复默认' }).click();
    await closeSettings(page, again);
    await seen(page.getByTestId('sider'));
    await seen(page.getByTestId('tab-bar'));
  });

  it('turns colour-weak mode on for the whole page and keeps it after a reload', async () => {
    const page = await signedIn();
    await seen(page.getByTestId('dashboard-greeting'));
    const pageFilter = () => page.evaluate(() => getComputedStyle(document.documentElement).filter);
    expect(await pageFilter()).toBe('none');

    const drawer = await openSettings(page);
    await settingSwitch(drawer, '色弱模式').click();
    await closeSettings(page, drawer);
    await expect.poll(pageFilter).toBe('invert(0.8)');

    await page.reload();
    await seen(page.getByTestId('dashboard-greeting'));
    expect(await pageFilter()).toBe('invert(0.8)');

    const again = await openSettings(page);
    await again.getByRole('button', { name: '恢复默认' }).click();
    await closeSettings(page, again);
    await expect.poll(pageFilter).toBe('none');
  });

  it('keeps a fixed header in view while the page scrolls, and hides it on request', async () => {
    const page = await signedIn();
    await seen(page.getByTestId('last-logins'));
    const header = page.getByTestId('header');
    const headerTop = async () => (await header.boundingBox())?.y ?? NaN;
    const scrollTo = (y: number) => page.evaluate((top) => window.scrollTo(0, top), y);

    // Not fixed (the default): the header scrolls away with the page.
    await scrollTo(150);
    await expect.poll(headerTop).toBeLessThan(0);
    await scrollTo(0);

    const drawer = await openSettings(page);
    await settingSwitch(drawer, '固定 Header').click();
    await closeSettings(page, drawer);
    await scrollTo(150);
    await expect.poll(headerTop).toBe(0);

    // Auto-hide: after scrolling down more than 100 px the fixed header slides away.
    await scrollTo(0);
    const again = await openSettings(page);
    await settingSwitch(again, '下滑时隐藏 Header').click();
    await closeSettings(page, again);
    await scrollTo(150);
    await expect.poll(headerTop).toBeLessThan(0);
    await scrollTo(0);
    await expect.poll(headerTop).toBe(0);

    const reset = await openSettings(page);
    await reset.getByRole('button', { name: '恢复默认' }).click();
    await closeSettings(page, reset);
  });
});

describe('menu search', () => {
  it('finds a page by part of its title and opens it', async () => {
    const page = await signedIn();
    const search = page.getByTestId('header').getByRole('combobox', { name: '搜索菜单' });
    await search.click();
    await search.fill('日志');
    // antd keeps a hidden twin of the list for screen readers; the user sees and clicks this one.
    const shown = page.locator('.ant-select-dropdown .ant-select-item-option');
    const option = shown.filter({ hasText: '后台日志' });
    await seen(option);
    expect(await shown.allInnerTexts()).toEqual(['设备日志', '后台日志']);
    await option.click();
    await seen(page.getByTestId('log-page'));
    expect(new URL(page.url()).pathname).toBe('/system/log');
    await seen(page.getByTestId('tab-bar').getByRole('tab', { name: '后台日志', exact: true }));
  });
});
