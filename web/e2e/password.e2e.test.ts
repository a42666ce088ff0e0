/**
 * The change password dialog (spec sections 2, 4 and 5): its validation in Chinese and English,
 * a refused old password, then a real change that ends the session: back on the login page after
 * the countdown, the old password fails and the new one works.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import {
  adminSession,
  chooseDepartAfterLogin,
  gone,
  loginForm,
  opened,
  pathOf,
  seen,
  storedToken,
  submitLogin,
  toast,
} from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const NEW_PASSWORD = 'Gateway-R40-new';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ context, page } = await adminSession(browser, server));
});

afterEach(async () => {
  // A test that failed with its dialog open must not block the next one.
  if ((await page.getByRole('dialog').count()) > 0) {
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog'));
  }
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function openDialog(menuLabel: string, title: string): Promise<Locator> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: menuLabel }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await opened(dialog);
  return dialog;
}

/** The form item whose label is exactly `label` (not a longer label that ends with it). */
function formItem(dialog: Locator, label: string): Locator {
  return dialog
    .locator('.ant-form-item')
    .filter({ has: page.locator('label').getByText(label, { exact: true }) });
}

/** A password field by its label, as a user finds it. */
function field(dialog: Locator, label: string): Locator {
  return formItem(dialog, label).getByRole('textbox');
}

/** The error shown under a field. */
function fieldError(dialog: Locator, label: string): Locator {
  return formItem(dialog, label).locator('.ant-form-item-explain-error');
}

describe('change password', () => {
  it('requires every field and a matching confirmation (Chinese)', async () => {
    const dialog = await openDialog('修改密码', '修改密码');
    await dialog.getByRole('button', { name: '确 定' }).click();
    await seen(fieldError(dialog, '旧密码'));
    expect(await fieldError(dialog, '旧密码').innerText()).toBe('请输入旧密码!');
    expect(await fieldError(dialog, '新密码').innerText()).toBe('请输入新密码!');
    expect(await fieldError(dialog, '确认新密码').innerText()).toBe('请输入确认新密码!');

    await field(dialog, '新密码').fill(NEW_PASSWORD);
    await field(dialog, '确认新密码').fill(`${NEW_PASSWORD}x`);
    await seen(dialog.getByText('两次输入的密码不一致'));
    await field(dialog, '确认新密码').fill(NEW_PASSWORD);
    await gone(dialog.getByText('两次输入的密码不一致'));

    await field(dialog, '新密码').fill('short');
    await seen(dialog.getByText('新密码至少 8 位'));

    await dialog.getByRole('button', { name: '取 消' }).click();
    await gone(dialog);
  });

  it('shows the same rules in English', async () => {
    await page.getByTestId('header').getByTestId('lang-switch').hover();
    await page.getByRole('menuitem', { name: 'English', exact: true }).click();
    await seen(toast(page, 'switch language success'));

    const dialog = await openDialog('Change password', 'Change password');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await seen(fieldError(dialog, 'Old password'));
    expect(await fieldError(dialog, 'Old password').innerText()).toBe('Please enter Old password!');
    expect(await fieldError(dialog, 'New password').innerText()).toBe('Please enter New password!');
    expect(await fieldError(dialog, 'Confirm new password').innerText()).toBe(
      'Please enter Confirm new password!',
    );

    await field(dialog, 'New password').fill(NEW_PASSWORD);
    await field(dialog, 'Confirm new password').fill('something else');
    await seen(dialog.getByText('The passwords entered do not match'));

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);

    await page.getByTestId('header').getByTestId('lang-switch').hover();
    await page.getByRole('menuitem', { name: '中文', exact: true }).click();
    await seen(toast(page, '中文切换成功'));
  });

  // Issue 16: the server's refusals showed as a pop-up; they belong under the field they concern.
  it.each([
    [
      'en-US',
      'English',
      'Change password',
      'Old password',
      'New password',
      'Confirm new password',
      'Old password is incorrect',
      'is too common',
    ],
    [
      'zh-CN',
      '中文',
      '修改密码',
      '旧密码',
      '新密码',
      '确认新密码',
      '旧密码输入错误',
      '过于常见，请换一个',
    ],
  ])(
    'puts a wrong old password and a too common new one under their fields (%s), keeping the session',
    async (_lang, language, title, oldLabel, newLabel, confirmLabel, wrongOld, common) => {
      if ((await page.getByTestId('header').getByTestId('lang-switch').innerText()) !== language) {
        await page.getByTestId('header').getByTestId('lang-switch').hover();
        await page.getByRole('menuitem', { name: language, exact: true }).click();
        await seen(page.getByTestId('header').getByTestId('lang-switch').getByText(language));
      }
      const dialog = await openDialog(title, title);
      const ok = dialog.getByRole('button', { name: /^(确 定|OK)$/ });
      await field(dialog, oldLabel).fill('not-my-password');
      await field(dialog, newLabel).fill(NEW_PASSWORD);
      await field(dialog, confirmLabel).fill(NEW_PASSWORD);
      await ok.click();
      await seen(fieldError(dialog, oldLabel).getByText(wrongOld, { exact: true }));

      await field(dialog, oldLabel).fill(server.adminPassword);
      await field(dialog, newLabel).fill('password1');
      await field(dialog, confirmLabel).fill('password1');
      await ok.click();
      await seen(fieldError(dialog, newLabel).getByText(common, { exact: true }));
      // Under the fields only: no pop-up, and the form stays open for another try.
      await page.waitForTimeout(300);
      const popUps = page.locator('.ant-message-notice, .ant-notification-notice');
      expect(await popUps.filter({ hasText: new RegExp(`${wrongOld}|${common}`) }).count()).toBe(0);
      expect(await storedToken(page)).not.toBeNull();
      await dialog.getByRole('button', { name: /^(取 消|Cancel)$/ }).click();
      await gone(dialog);
    },
  );

  it('changes it: back to login after the countdown; the old password fails, the new one works', async () => {
    const dialog = await openDialog('修改密码', '修改密码');
    await field(dialog, '旧密码').fill(server.adminPassword);
    await field(dialog, '新密码').fill(NEW_PASSWORD);
    await field(dialog, '确认新密码').fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: '确 定' }).click();

    await seen(dialog.getByText('修改密码成功'));
    await seen(dialog.getByText(/^\d 秒后返回登录页$/));
    await page.waitForURL('**/user/login', { timeout: 15_000 });
    await seen(loginForm(page).username);
    expect(pathOf(page)).toBe('/user/login');
    expect(await storedToken(page)).toBeNull();

    await submitLogin(page, 'admin', server.adminPassword);
    await seen(page.getByTestId('login-error'));
    expect(pathOf(page)).toBe('/user/login');

    await submitLogin(page, 'admin', NEW_PASSWORD);
    await page.waitForURL('**/dashboard/analysis');
    await chooseDepartAfterLogin(page);
    await seen(page.getByTestId('dashboard-greeting'));
  });
});
