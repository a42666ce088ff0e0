/**
 * Two-factor login in Chromium (issue 14): a user turns it on from the user menu (the code is
 * computed here from the key the dialog shows, as an authenticator app would), then logs in with
 * password and code; a wrong code shows the translated error; a recovery code works once. One
 * flow in Chinese, one in English.
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { opened, seen, submitLogin } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';
import { addUser } from './support/users.js';

const PASSWORD = 'Two-Factor-E2e-1';
const h = useConsoleHarness();
/** Three logins and an enrolment on a machine that may be busy. */
const FLOW_TIMEOUT_MS = 180_000;

/** The code of the time step after now: never the one the enrolment just used. */
const nextCode = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 });

async function login(lang: string, username: string): Promise<Page> {
  const page = h.track(await pageIn(h.browser, h.server, lang, {}, '/user/login'));
  await submitLogin(page, username, PASSWORD);
  return page;
}

/** Turns two-factor login on through the user menu; returns the key and the recovery codes. */
async function enrol(lang: string, username: string, menuLabel: string) {
  const page = await login(lang, username);
  await page.waitForURL('**/dashboard/analysis');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: menuLabel }).click();
  const dialog = page.getByRole('dialog');
  await opened(dialog);
  await dialog.getByTestId('two-factor-start').click();
  const secret = (await dialog.getByTestId('two-factor-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect.poll(() => dialog.locator('img[alt="QR"]').count()).toBe(1);
  await dialog
    .getByTestId('two-factor-code')
    .fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
  await dialog.getByTestId('two-factor-confirm').click();
  const codes = ((await dialog.getByTestId('two-factor-recovery-codes').textContent()) ?? '')
    .split('\n')
    .filter(Boolean);
  expect(codes).toHaveLength(10);
  await dialog.getByTestId('two-factor-done').click();
  await seen(dialog.getByTestId('two-factor-status'));
  return { secret, codes };
}

async function secondStep(page: Page, code: string) {
  const step = page.getByTestId('two-factor-step');
  await seen(step);
  await step.getByTestId('two-factor-code').fill(code);
  await step.getByTestId('two-factor-submit').click();
}

describe('two-factor login', () => {
  it(
    'zh-CN: enrol from the user menu, then password + code; wrong code; recovery code once',
    async () => {
      await addUser(h.server, {
        username: 'tfazh',
        password: PASSWORD,
        role: 'operator',
        orgCodes: ['A01A01'],
      });
      const { secret, codes } = await enrol('zh-CN', 'tfazh', '二次验证');

      let page = await login('zh-CN', 'tfazh');
      await secondStep(page, '000000');
      await expect
        .poll(() => page.getByTestId('two-factor-error').textContent())
        .toBe('动态验证码错误');
      expect(page.url()).toContain('/user/login');
      await secondStep(page, nextCode(secret));
      await page.waitForURL('**/dashboard/analysis');

      page = await login('zh-CN', 'tfazh');
      await secondStep(page, codes[0] ?? '');
      await page.waitForURL('**/dashboard/analysis');

      page = await login('zh-CN', 'tfazh');
      await secondStep(page, codes[0] ?? '');
      await expect
        .poll(() => page.getByTestId('two-factor-error').textContent())
        .toBe('动态验证码错误');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'en-US: enrol, then a wrong code and the right one',
    async () => {
      await addUser(h.server, {
        username: 'tfaen',
        password: PASSWORD,
        role: 'operator',
        orgCodes: ['A01A01'],
      });
      const { secret } = await enrol('en-US', 'tfaen', 'Two-factor login');

      const page = await login('en-US', 'tfaen');
      await expect
        .poll(() => page.getByTestId('two-factor-step').locator('h4').textContent())
        .toBe('Two-factor login');
      await secondStep(page, '123456');
      await expect
        .poll(() => page.getByTestId('two-factor-error').textContent())
        .toBe('Incorrect authentication code');
      await secondStep(page, nextCode(secret));
      await page.waitForURL('**/dashboard/analysis');
    },
    FLOW_TIMEOUT_MS,
  );
});
