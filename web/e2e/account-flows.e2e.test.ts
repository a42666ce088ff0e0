/**
 * Account flows a new user trips over (issue 16): registration checks the emailed code when
 * leaving its step, the password reset opens its password step without errors, the strength
 * meter rates a password the server refuses as low, and an empty announcement form reports its
 * required fields instead of throwing.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession } from './support/api.js';
import type { StorageState } from './support/browser.js';
import { adminStorage, seen, settledPath } from './support/console.js';
import { pageIn } from './support/language.js';
import { useConsoleHarness } from './support/harness.js';
import { codeFromOutbox, outboxCount } from './support/outbox.js';

const h = useConsoleHarness();
let storage: StorageState;

beforeAll(async () => {
  storage = await adminStorage(h.browser, h.server);
});

const LANGUAGES = [
  ['zh-CN', '验证码错误或已失效', '低'],
  ['en-US', 'Invalid verification code', 'Low'],
] as const;

async function openPage(path: string, locale: string): Promise<Page> {
  return h.track(await pageIn(h.browser, h.server, locale, {}, path));
}

/** Form errors on screen (antd's red explanations under fields). */
async function visibleErrors(page: Page): Promise<string[]> {
  await page.waitForTimeout(300);
  return page.locator('.ant-form-item-explain-error:visible').allInnerTexts();
}

describe('registration', () => {
  it.each(LANGUAGES)(
    'refuses a wrong emailed code on the email step (%s)',
    async (locale, invalidCode) => {
      const tag = locale.slice(0, 2);
      const email = `flow${tag}@example.com`;
      const page = await openPage('/user/register', locale);
      await page.getByTestId('register-username').fill(`flow${tag}`);
      await page.getByTestId('register-phone').fill(tag === 'zh' ? '13911110001' : '13911110002');
      await page.getByTestId('register-next').click();
      await page.getByTestId('register-email').fill(email);
      await page.getByTestId('register-send-code').click();
      const code = await codeFromOutbox(h.server, email);
      await page.getByTestId('register-email-code').fill(code === '000000' ? '111111' : '000000');
      await page.getByTestId('register-next').click();
      await seen(page.getByText(invalidCode).first());
      expect(await page.getByTestId('register-email').isVisible()).toBe(true);
      expect(await page.getByTestId('register-password').isVisible()).toBe(false);

      await page.getByTestId('register-email-code').fill(code);
      await page.getByTestId('register-next').click();
      await seen(page.getByTestId('register-password'));
    },
  );
});

describe('password reset', () => {
  it.each(LANGUAGES)(
    'opens the password step without errors; the meter rates a common password low (%s)',
    async (locale, _invalid, low) => {
      const tag = locale.slice(0, 2);
      const email = `reset${tag}@example.com`;
      await api(h.server, apiSession(storage, h.server), 'POST', '/sys/user/add', {
        username: `reset${tag}`,
        password: 'Reset-Flow-Pass-42',
        realname: 'Reset',
        email,
      });
      const page = await openPage('/user/alteration', locale);
      await page.getByTestId('alteration-target').fill(email);
      const before = outboxCount(h.server, email);
      await page.getByTestId('alteration-send-code').click();
      await page.getByTestId('alteration-code').fill(await codeFromOutbox(h.server, email, before));
      await page.getByTestId('alteration-next').click();
      await seen(page.getByTestId('alteration-password'));
      expect(await visibleErrors(page)).toEqual([]);

      // The server refuses password1 as too common; the meter must not call it medium.
      await page.getByTestId('alteration-password').fill('password1');
      const meter = page.getByTestId('password-strength');
      await expect.poll(() => meter.getAttribute('data-strength')).toBe('low');
      await seen(meter.getByText(low));
    },
  );
});

describe('announcements', () => {
  it.each([
    ['zh-CN', '确 定'],
    ['en-US', 'OK'],
  ])('an empty form shows its required fields, no page error (%s)', async (locale, ok) => {
    const page = h.track(
      await pageIn(h.browser, h.server, locale, { storageState: storage }, '/system/announcement'),
    );
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.getByTestId('announcement-add').click();
    const form = page.getByTestId('announcement-form');
    await seen(form.getByTestId('announcement-title'));
    await form.getByRole('button', { name: ok, exact: true }).click();
    await expect.poll(() => visibleErrors(page)).not.toEqual([]);
    expect(errors).toEqual([]);
    expect(await settledPath(page, '/system/announcement')).toBe('/system/announcement');
  });
});
