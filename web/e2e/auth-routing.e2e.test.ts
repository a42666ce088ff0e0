/**
 * Login, the auth guard's redirects, the 404 page and logout (spec sections 2 and 4).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newConsolePage } from './support/browser.js';
import {
  adminSession,
  chooseDepartAfterLogin,
  loginForm,
  pathOf,
  seen,
  settledPath,
  sideMenu,
  storedToken,
  submitLogin,
} from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('without a session', () => {
  it('sends a protected path to the login page with a redirect, and lands there after login', async () => {
    const { context, page } = await newConsolePage(browser, server.url);
    try {
      await page.goto('/system/log?tab=1');
      expect(await settledPath(page, '/user/login?redirect=%2Fsystem%2Flog%3Ftab%3D1')).toBe(
        '/user/login?redirect=%2Fsystem%2Flog%3Ftab%3D1',
      );
      await seen(loginForm(page).username);

      await submitLogin(page, 'admin', server.adminPassword);
      expect(await settledPath(page, '/system/log?tab=1')).toBe('/system/log?tab=1');
      await chooseDepartAfterLogin(page);
      await seen(page.getByTestId('log-page'));
    } finally {
      await context.close();
    }
  });

  it('redirects /user to /user/login and an unknown /user/ path to /404', async () => {
    const { context, page } = await newConsolePage(browser, server.url);
    try {
      await page.goto('/user');
      expect(await settledPath(page, '/user/login')).toBe('/user/login');
      await seen(page.getByRole('heading', { name: 'BLRMS' }));

      await page.goto('/user/nothing-here');
      expect(await settledPath(page, '/404')).toBe('/404');
      await seen(page.getByText('抱歉，您访问的页面不存在。'));
    } finally {
      await context.close();
    }
  });

  it('keeps the user on the login page with a message when the password is wrong', async () => {
    const { context, page } = await newConsolePage(browser, server.url);
    try {
      await page.goto('/user/login');
      await submitLogin(page, 'admin', 'not-the-password');
      await seen(page.getByTestId('login-error'));
      expect(pathOf(page)).toBe('/user/login');
      // The server runs with CAPTCHA=off: the form asks for none.
      expect(await loginForm(page).captchaRow.count()).toBe(0);
      expect(await storedToken(page)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('asks for every field of the login form', async () => {
    const { context, page } = await newConsolePage(browser, server.url);
    try {
      await page.goto('/user/login');
      await loginForm(page).submit.click();
      await seen(page.getByText('请输入用户名'));
      await seen(page.getByText('请输入密码'));
      expect(pathOf(page)).toBe('/user/login');
    } finally {
      await context.close();
    }
  });
});

describe('with the captcha on (the default outside tests)', () => {
  let guarded: RunningServer;
  beforeAll(async () => {
    guarded = await startServer({ CAPTCHA: 'on' });
  });
  afterAll(() => guarded?.stop());

  it('asks for the captcha too, and spends it on a failed try', async () => {
    const { context, page } = await newConsolePage(browser, guarded.url);
    try {
      await page.goto('/user/login');
      const image = page.getByTestId('login-captcha-image').locator('img');
      await seen(image);
      const first = await image.getAttribute('src');
      await loginForm(page).submit.click();
      await seen(page.getByText('请输入验证码'));

      const form = loginForm(page);
      await form.username.fill('admin');
      await form.password.fill('not-the-password');
      await page.getByTestId('login-captcha').fill('xxxx');
      await form.submit.click();
      await seen(page.getByTestId('login-error'));
      // A captcha is single use: the field is emptied and a new image shown for the next try.
      expect(await page.getByTestId('login-captcha').inputValue()).toBe('');
      await expect.poll(() => image.getAttribute('src')).not.toBe(first);
    } finally {
      await context.close();
    }
  });
});

describe('with a session', () => {
  it('sends /user/login to the dashboard and an unknown path to /404 with a way home', async () => {
    const { context, page } = await adminSession(browser, server);
    try {
      await page.goto('/user/login');
      expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
      await seen(page.getByTestId('dashboard-greeting'));

      await page.goto('/');
      expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');

      await page.goto('/no/such/page');
      expect(await settledPath(page, '/404')).toBe('/404');
      await seen(page.getByText('404', { exact: true }));
      await seen(page.getByText('抱歉，您访问的页面不存在。'));

      await page.getByRole('button', { name: '返回首页' }).click();
      expect(await settledPath(page, '/dashboard/analysis')).toBe('/dashboard/analysis');
      await seen(page.getByTestId('dashboard-greeting'));
    } finally {
      await context.close();
    }
  });

  it('logs out only after confirmation; then the token is gone and protected paths need login', async () => {
    const { context, page } = await adminSession(browser, server);
    try {
      const token = await storedToken(page);
      expect(token).toMatch(/\S{20,}/);

      // Cancel keeps the session.
      await page.getByRole('button', { name: '退出登录' }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: '真的要注销登录吗？' });
      await seen(confirm);
      await confirm.getByRole('button', { name: '取 消' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect(pathOf(page)).toBe('/dashboard/analysis');
      await seen(sideMenu(page));

      // OK logs out.
      await page.getByRole('button', { name: '退出登录' }).click();
      await seen(confirm);
      await confirm.getByRole('button', { name: '确 定' }).click();
      await page.waitForURL('**/user/login**');
      await seen(loginForm(page).username);
      expect(await storedToken(page)).toBeNull();

      // The old token no longer works on the server either.
      const res = await fetch(`${server.url}/api/sys/permission/getUserPermissionByToken`, {
        headers: { 'X-Access-Token': token ?? '' },
      });
      expect(res.status).toBe(401);

      await page.goto('/dashboard/analysis');
      expect(await settledPath(page, '/user/login?redirect=%2Fdashboard%2Fanalysis')).toBe(
        '/user/login?redirect=%2Fdashboard%2Fanalysis',
      );
    } finally {
      await context.close();
    }
  });
});
