/**
 * Self-service accounts in the browser: registration through its four steps with the emailed code
 * read from the server's outbox, phone login with the texted code, a password reset by email that
 * returns to the login page after its countdown, and the check-rule admin screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newConsolePage } from './support/browser.js';
import {
  adminSession,
  seen,
  settledPath,
  sideMenu,
  submitLogin,
  toast,
} from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { codeFromOutbox, outboxCount } from './support/outbox.js';

const h = useConsoleHarness();

const USER = { username: 'fleet42', phone: '13912345678', email: 'fleet42@example.com' };
const PASSWORD = 'Fleet-Owner-42';
const NEW_PASSWORD = 'Fleet-Reset-43';

async function openPage(path: string, language: 'zh-CN' | 'en-US' = 'zh-CN'): Promise<Page> {
  const page = h.track(await newConsolePage(h.browser, h.server.url, { locale: language }));
  await page.goto(path);
  if (language === 'en-US') {
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-en-US').click();
  }
  return page;
}

describe('self-service accounts', () => {
  it('registers a user through the four steps with the emailed code', async () => {
    const page = await openPage('/user/login');
    await page.getByTestId('login-register').click();
    await settledPath(page, '/user/register');
    const steps = page.getByTestId('register-steps');
    await seen(steps.getByText('用户账户'));

    // Step 1: the username is checked against the server as the user leaves the field.
    await page.getByTestId('register-username').fill('admin');
    await page.getByTestId('register-phone').click();
    await seen(page.getByText('用户名已存在!'));
    await page.getByTestId('register-username').fill('bad name');
    await seen(page.getByText('用户名只能包含字母和数字'));
    await page.getByTestId('register-username').fill(USER.username);
    await page.getByTestId('register-phone').fill('12345');
    await page.getByTestId('register-next').click();
    await seen(page.getByText('手机号码格式不正确'));
    await page.getByTestId('register-phone').fill(USER.phone);
    await page.getByTestId('register-next').click();

    // Step 2: the code goes to the outbox; previous keeps what was typed.
    await seen(page.getByTestId('register-email'));
    await page.getByTestId('register-previous').click();
    expect(await page.getByTestId('register-username').inputValue()).toBe(USER.username);
    await page.getByTestId('register-next').click();
    await page.getByTestId('register-email').fill(USER.email);
    await page.getByTestId('register-send-code').click();
    await seen(page.getByTestId('register-send-code').getByText(/秒后重新获取/));
    const code = await codeFromOutbox(h.server, USER.email);
    await page.getByTestId('register-email-code').fill(code);
    await page.getByTestId('register-next').click();

    // Step 3: the strength meter, then a refused easy password, then a good one.
    await page.getByTestId('register-password').fill('abcdefg1');
    await expect
      .poll(() => page.getByTestId('password-strength').getAttribute('data-strength'))
      .toBe('medium');
    await page.getByTestId('register-password').fill('password1');
    await page.getByTestId('register-confirm-password').fill('password1');
    await page.getByTestId('register-submit').click();
    await seen(page.getByTestId('register-error').getByText('密码：过于常见，请换一个'));
    await page.getByTestId('register-password').fill(PASSWORD);
    await seen(page.getByTestId('password-strength').getByText('高'));
    await page.getByTestId('register-confirm-password').fill(PASSWORD);
    await page.getByTestId('register-submit').click();

    // Step 4: done, on /user/register-result.
    await settledPath(page, '/user/register-result');
    await seen(page.getByText(`你的账户 ${USER.username} 注册成功`));
    await page.getByTestId('register-result-login').click();
    await settledPath(page, '/user/login');
    await submitLogin(page, USER.username, PASSWORD);
    await page.waitForURL('**/dashboard/analysis');
    // The administrator of their own company: its pages, not the platform's check rules.
    await sideMenu(page).getByText('系统管理').click();
    await seen(sideMenu(page).getByText('后台日志'));
    expect(await sideMenu(page).getByText('编码校验规则').count()).toBe(0);
  });

  it('logs in by phone with the texted code, in English', async () => {
    const page = await openPage('/user/login', 'en-US');
    await page.getByTestId('login-tab-phone').click();
    await page.getByTestId('phone-login-mobile').fill(USER.phone);
    await page.getByTestId('phone-login-code').fill('123');
    await page.getByTestId('phone-login-submit').click();
    await seen(page.getByText('The code has 6 digits'));
    const before = outboxCount(h.server, USER.phone);
    await page.getByTestId('phone-login-send').click();
    await seen(
      page.getByText('If an account uses this address, a verification code has been sent'),
    );
    const code = await codeFromOutbox(h.server, USER.phone, before);
    await page.getByTestId('phone-login-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByTestId('phone-login-submit').click();
    await seen(page.getByTestId('phone-login-error').getByText('Invalid verification code'));
    await page.getByTestId('phone-login-code').fill(code);
    await page.getByTestId('phone-login-submit').click();
    await page.waitForURL('**/dashboard/analysis');
  });

  it('resets the password by email and returns to the login page after the countdown', async () => {
    const page = await openPage('/user/login');
    await page.getByTestId('login-forgot').click();
    await settledPath(page, '/user/alteration');
    await page.getByTestId('alteration-target').fill(USER.email);
    const before = outboxCount(h.server, USER.email);
    await page.getByTestId('alteration-send-code').click();
    const code = await codeFromOutbox(h.server, USER.email, before);
    await page.getByTestId('alteration-code').fill(code);
    await page.getByTestId('alteration-next').click();
    await page.getByTestId('alteration-password').fill(NEW_PASSWORD);
    await page.getByTestId('alteration-confirm-password').fill('Something-else-1');
    await page.getByTestId('alteration-submit').click();
    await seen(page.getByText('两次输入的密码不一致'));
    await page.getByTestId('alteration-confirm-password').fill(NEW_PASSWORD);
    await page.getByTestId('alteration-submit').click();
    await seen(page.getByTestId('alteration-done').getByText('密码重置成功!'));
    await seen(page.getByText(/秒后返回登录页/));
    await page.waitForURL('**/user/login', { timeout: 10_000 });

    await submitLogin(page, USER.username, PASSWORD);
    await seen(page.getByTestId('login-error'));
    await submitLogin(page, USER.username, NEW_PASSWORD);
    await page.waitForURL('**/dashboard/analysis');
  });

  it('lets the platform administrator keep check rules and try values against them', async () => {
    const page = h.track(await adminSession(h.browser, h.server));
    await page.goto('/system/checkRule');
    await seen(page.getByTestId('check-rule-page'));
    await page.getByTestId('check-rule-add').click();
    await page.getByTestId('check-rule-code').fill('sn_r40');
    await page.getByTestId('check-rule-name').fill('R40 序列号');
    await page.getByTestId('check-rule-pattern-0').fill('(a)\\1');
    await page.getByTestId('check-rule-message-0').fill('序列号以 R40 开头，后跟 6 位数字');
    await page.getByTestId('check-rule-message-en-0').fill('R40 followed by 6 digits');
    await page.getByTestId('check-rule-save').click();
    await seen(page.getByText(/不是有效的 RE2 正则表达式/));
    await page.getByTestId('check-rule-pattern-0').fill('^R40\\d{6}$');
    await page.getByTestId('check-rule-save').click();
    await seen(toast(page, '保存成功'));
    await seen(page.getByTestId('check-rule-table').getByText('sn_r40'));

    await page.getByTestId('check-rule-test-sn_r40').click();
    await page.getByTestId('check-rule-test-value').fill('R40123');
    await page.getByTestId('check-rule-test-run').click();
    await seen(
      page.getByTestId('check-rule-test-outcome').getByText('序列号以 R40 开头，后跟 6 位数字'),
    );
    await page.getByTestId('check-rule-test-value').fill('R40123456');
    await page.getByTestId('check-rule-test-run').click();
    await seen(page.getByTestId('check-rule-test-outcome').getByText('校验通过'));
  });
});
